// The plan and the apply report as a person reads them in a terminal. Pure: Plan → string; the
// command decides where it goes and whether it is coloured.
import { palette, type Palette } from './palette.js';
import { unreachable } from '../errors.js';
import type { CheckedSteps, StaleStep, StepResult } from '../engine/executor.js';
import type { StopCause } from '../engine/stop.js';
import type { Action, Plan, PlanModel, PlanStep } from '../model/plan.js';
import { promotionHeading, promotionNoChanges } from './promotion.js';
import { countOf, destructiveSteps, groupSteps, outsideReach, resolvedNames, stepDetails, stepTitle, summaryLine, SYMBOL, type ResolvedNames } from './describe.js';
import { terminalText } from './inert.js';
import { renderViolations } from './policy.js';
import { renderImpacts } from './impacts.js';
import { renderExposure } from './exposure.js';
import { formatDuration, grouped } from '../domain/numbers.js';
import type { ApplyCost } from '../engine/cost.js';

export interface HumanOptions {
  color: boolean;
  /** List every step of a large bulk group instead of the first few. */
  showAll?: boolean;
  /** `drift` words the same plan as a drift report. */
  purpose?: 'plan' | 'drift';
  /** What applying the plan costs, shown under the summary. */
  applyCost?: ApplyCost;
  /** The models the plan resolved, shown by name (default: the plan's recorded identities). */
  models?: readonly PlanModel[];
}

/** Groups larger than this are folded to their first BULK_PREVIEW steps unless showAll. */
export const BULK_FOLD_OVER = 10;
export const BULK_PREVIEW = 5;

function paint(colors: Palette, action: Action, text: string): string {
  switch (action) {
    case 'create':
      return colors.green(text);
    case 'update':
      return colors.yellow(text);
    case 'replace':
      return colors.magenta(text);
    case 'delete':
      return colors.red(text);
    default:
      return unreachable(action);
  }
}

/** The whole plan: header, destructive steps first, details, summary and cost. */
export function renderPlan(plan: Plan, options: HumanOptions): string {
  const colors = palette(options.color);
  const lines: string[] = [];
  const drift = options.purpose === 'drift';
  lines.push(colors.bold(promotionHeading(plan, 'text') ?? terminalText(`steward ${drift ? 'drift check' : 'plan'} for environment ${plan.environment} (${plan.baseUrl})`)), '');
  const outside = outsideReach(plan.steps);
  if (outside !== undefined) lines.push(colors.red.bold(terminalText(`${outside.headline}:`)), ...outside.recipients.map((recipient) => `  ${colors.red('!')} ${terminalText(recipient)}`), '');
  lines.push(...renderViolations(plan.policyViolations, options.color));
  for (const warning of plan.warnings) lines.push(colors.yellow(`Warning: ${terminalText(warning.message)}`));
  if (plan.warnings.length > 0) lines.push('');
  lines.push(...renderImpacts(plan, colors));
  if (plan.steps.length === 0) {
    lines.push(colors.green(drift ? 'No drift. The live state matches the configuration.' : `No changes. ${promotionNoChanges(plan) ?? 'The live state matches the configuration.'}`), '');
    lines.push(costLine(plan));
    return `${lines.join('\n')}\n`;
  }
  if (drift) lines.push(colors.yellow.bold(`Drift: the live state differs from the configuration in ${plan.steps.length} place${plan.steps.length === 1 ? '' : 's'}. Applying the configuration would:`), '');
  const destructive = destructiveSteps(plan.steps);
  if (destructive.length > 0) {
    lines.push(colors.red.bold(`${destructive.length} destructive change${destructive.length === 1 ? '' : 's'}:`));
    for (const step of destructive) lines.push(`  ${paint(colors, step.action, SYMBOL[step.action].padEnd(3))} ${stepTitle(step)}${reasonOf(step)}`);
    lines.push('');
  }
  const names = resolvedNames(options.models ?? plan.identities?.models);
  for (const group of groupSteps(plan.steps)) {
    lines.push(...renderGroup(group, colors, options.showAll === true, names), '');
  }
  lines.push(colors.bold(summaryLine(plan.summary)));
  // The exposure sums up what the plan leaves allowed: beside the summary, under the steps.
  lines.push(...renderExposure(plan.exposure, colors).slice(0, -1));
  lines.push(costLine(plan));
  if (options.applyCost !== undefined) lines.push(applyCostLine(options.applyCost));
  return `${lines.join('\n')}\n`;
}

function renderGroup(group: PlanStep[], colors: Palette, showAll: boolean, names: ResolvedNames): string[] {
  const first = group[0]!;
  const folded = !showAll && group.length > BULK_FOLD_OVER;
  const shown = folded ? group.slice(0, BULK_PREVIEW) : group;
  const lines: string[] = [];
  if (folded) lines.push(paint(colors, first.action, `${SYMBOL[first.action]} ${countOf(first.kind, group.length)}`));
  for (const step of shown) {
    const indent = folded ? '    ' : '';
    lines.push(`${indent}${paint(colors, step.action, SYMBOL[step.action].padEnd(3))} ${stepTitle(step)}${reasonOf(step)}`);
    for (const detail of stepDetails(step, names)) lines.push(`${indent}      ${colors.dim(detail)}`);
  }
  if (folded) lines.push(colors.dim(`    … and ${foldedWords(group.slice(shown.length))} (--show-all lists every one)`));
  return lines;
}

/** "35 more: 20 to add, 10 to change, 5 to destroy": the exact count per action of what is folded. */
function foldedWords(hidden: readonly PlanStep[]): string {
  const words: Record<Action, string> = { create: 'to add', update: 'to change', replace: 'to replace', delete: 'to destroy' };
  const counts = (Object.keys(words) as Action[])
    .map((action) => [action, hidden.filter((step) => step.action === action).length] as const)
    .filter(([, count]) => count > 0)
    .map(([action, count]) => `${grouped(count)} ${words[action]}`);
  const more = grouped(hidden.length);
  return counts.length === 1 ? `${more} more, all ${counts[0]!.slice(counts[0]!.indexOf(' ') + 1)}` : `${more} more: ${counts.join(', ')}`;
}

/** How many steps the plan listing folds away (0 with showAll); the approval prompt says how to see them. */
export function foldedStepCount(plan: Plan, showAll: boolean): number {
  if (showAll) return 0;
  return groupSteps(plan.steps).reduce((sum, group) => sum + (group.length > BULK_FOLD_OVER ? group.length - BULK_PREVIEW : 0), 0);
}

/** What applying will cost: write requests (plus re-reading), and the time that takes under the budget. */

/** `Applying makes about 289 requests: about 5 minutes at 60 requests/minute.` */
export function applyCostLine(cost: ApplyCost): string {
  return `Applying makes about ${grouped(cost.requests)} request${cost.requests === 1 ? '' : 's'}: ${formatDuration(cost.ms)} at ${grouped(cost.requestsPerMinute)} requests/minute.`;
}

function reasonOf(step: PlanStep): string {
  return step.reason === undefined ? '' : ` (${terminalText(step.reason)})`;
}

function costLine(plan: Plan): string {
  return `Planning made ${plan.requests} API request${plan.requests === 1 ? '' : 's'}.`;
}

/** The refusal to apply a plan whose objects changed since it was made. */
export function renderStale(stale: readonly StaleStep[], options: HumanOptions): string {
  const colors = palette(options.color);
  const lines = [colors.red.bold(`The plan is stale: ${stale.length} object${stale.length === 1 ? '' : 's'} changed since it was made. Nothing was applied.`)];
  for (const { step, detail } of stale) lines.push(`  ${SYMBOL[step.action].padEnd(3)} ${stepTitle(step)}: ${terminalText(detail)}`);
  lines.push('', 'Make a new plan, review it, and apply that one.');
  return `${lines.join('\n')}\n`;
}

export interface ApplyReport {
  results: StepResult[];
  alreadyApplied: PlanStep[];
  /** Requests made reading the live state (and planning), and carrying out the steps. */
  requests: { reading: number; writing: number };
}

/** What apply would do (dry run): the steps it would run and those already applied; no writes. */
export function renderDryRun(checked: CheckedSteps, requests: number, options: HumanOptions): string {
  const colors = palette(options.color);
  const lines: string[] = [];
  for (const step of checked.alreadyApplied) lines.push(colors.dim(`  = ${stepTitle(step)} (already applied)`));
  for (const step of checked.runnable) lines.push(`  ${colors.cyan('would')} ${SYMBOL[step.action]} ${stepTitle(step)}`);
  const n = checked.runnable.length;
  lines.push(
    '',
    colors.bold(`Dry run: ${n} step${n === 1 ? '' : 's'} would be applied, ${checked.alreadyApplied.length} already applied. Nothing was written.`),
    `The dry run made ${requests} API request${requests === 1 ? '' : 's'}.`,
  );
  return `${lines.join('\n')}\n`;
}

/** One step's outcome as the report and the progress lines print it. */
export function outcomeLine({ step, outcome }: StepResult, color: boolean): string {
  const colors = palette(color);
  const title = `${SYMBOL[step.action]} ${stepTitle(step)}`;
  switch (outcome.status) {
    case 'done':
      return `${colors.green('  done')}    ${title}${outcome.detail === undefined ? '' : colors.dim(` (${terminalText(outcome.detail)})`)}`;
    case 'already-applied':
      return colors.dim(`  = ${stepTitle(step)} (${terminalText(outcome.detail ?? 'already applied')})`);
    case 'failed':
      return `${colors.red('  FAILED')} ${title}: ${terminalText(outcome.error)}${outcome.hint === undefined ? '' : `\n          Hint: ${terminalText(outcome.hint)}`}`;
    case 'skipped':
      return `${colors.yellow(outcome.notStarted ? '  not started' : '  skipped')} ${title}${outcome.notStarted ? '' : `: ${terminalText(outcome.reason)}`}`;
    case 'stale':
      return `${colors.red('  stale')} ${title}: ${terminalText(outcome.reason)}`;
    default:
      return unreachable(outcome);
  }
}

export interface ApplyReportOptions extends HumanOptions {
  /** The step lines were printed as the steps settled: list only the steps not started. */
  streamed?: boolean;
  /** Why the run stopped early, if it did. */
  stopped?: StopCause;
  /** The command that finishes the rest, for the closing advice. */
  rerun?: string;
}

/** What apply did, step by step (unless already streamed), what it did not start, and the totals. */
export function renderApplyReport(report: ApplyReport, options: ApplyReportOptions): string {
  const colors = palette(options.color);
  const lines: string[] = [];
  const notStarted = report.results.filter(({ outcome }) => outcome.status === 'skipped' && outcome.notStarted);
  if (!options.streamed) {
    for (const step of report.alreadyApplied) lines.push(colors.dim(`  = ${stepTitle(step)} (already applied)`));
    for (const result of report.results) if (!notStarted.includes(result)) lines.push(outcomeLine(result, options.color));
  }
  if (notStarted.length > 0) {
    if (lines.length > 0 || options.streamed) lines.push('');
    const reason = notStarted[0]!.outcome.status === 'skipped' ? (notStarted[0]!.outcome as { reason: string }).reason : 'not started';
    lines.push(colors.yellow.bold(terminalText(`${reason.charAt(0).toUpperCase()}${reason.slice(1)} (${countWords(notStarted.length)}):`)));
    for (const { step } of notStarted) lines.push(`  ${SYMBOL[step.action].padEnd(3)} ${stepTitle(step)}`);
  }
  const count = (status: string) => report.results.filter((result) => result.outcome.status === status).length;
  const applied = report.alreadyApplied.length + count('already-applied');
  const skipped = count('skipped') - notStarted.length;
  const total = `Apply: ${count('done')} done, ${applied} already applied, ${count('failed')} failed, ${skipped} skipped${notStarted.length > 0 ? `, ${notStarted.length} not started` : ''}.`;
  const { reading, writing } = report.requests;
  if (lines.length > 0) lines.push('');
  lines.push(colors.bold(total));
  const stop = stopLine(options.stopped, notStarted.length, options.rerun ?? 'steward apply');
  if (stop !== undefined) lines.push(colors.yellow(stop));
  lines.push(`Apply made ${reading + writing} API requests: ${reading} reading the live state, ${writing} carrying out the steps.`);
  return `${lines.join('\n')}\n`;
}

function countWords(steps: number): string {
  return `${grouped(steps)} step${steps === 1 ? '' : 's'}`;
}

function stopLine(cause: StopCause | undefined, notStarted: number, rerun: string): string | undefined {
  if (cause === undefined) return undefined;
  const rest = `${notStarted} step${notStarted === 1 ? ' was' : 's were'} not started`;
  if (cause.kind === 'interrupt') {
    return `Interrupted (${cause.signal}): the write in flight ran to its end (its outcome is above) and no new one started; ${rest}. Running \`${terminalText(rerun)}\` again finishes the rest.`;
  }
  return `Stopped: the server refused a write with ${terminalText(cause.error)}, and every further write would be refused too; ${rest}. Check the token, then run \`${terminalText(rerun)}\` again.`;
}
