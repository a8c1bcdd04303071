// The plan as Markdown for a pull-request comment or a CI job summary: the summary and the
// destructive steps up front, the details folded per kind. GitHub caps a comment at 65,536
// characters, so the output stays under MARKDOWN_LIMIT by folding large groups harder.
import type { Plan, PlanModel, PlanStep } from '../model/plan.js';
import { unreachable } from '../errors.js';
import { countOf, destructiveSteps, groupSteps, outsideReach, resolvedNames, stepDetails, stepTitle, summaryLine, SYMBOL, type ResolvedNames } from './describe.js';
import { markdownCode, markdownCodeLine, markdownText } from './inert.js';
import { promotionHeading, promotionNoChanges } from './promotion.js';
import { renderViolationsMarkdown } from './policy.js';
import { renderRunWeekMarkdown } from './schedule.js';
import { renderImpactsMarkdown } from './impacts.js';
import { renderExposureMarkdown } from './exposure.js';
import { grouped } from '../domain/numbers.js';

export const MARKDOWN_LIMIT = 60_000;

/**
 * Renders the plan; guarantees the result is shorter than MARKDOWN_LIMIT characters. `models`:
 * the models the plan resolved, shown by name (default: the plan's recorded identities).
 */
export function renderPlanMarkdown(plan: Plan, purpose: 'plan' | 'drift' = 'plan', models: readonly PlanModel[] | undefined = plan.identities?.models): string {
  const names = resolvedNames(models);
  for (const perGroup of [Infinity, 50, 10, 3, 0]) {
    const text = render(plan, perGroup, purpose, names);
    if (text.length < MARKDOWN_LIMIT) return text;
  }
  return `${render(plan, 0, purpose, names).slice(0, MARKDOWN_LIMIT - 200)}\n\n… (truncated; the plan file has every step)\n`;
}

function render(plan: Plan, perGroup: number, purpose: 'plan' | 'drift', names: ResolvedNames): string {
  const lines: string[] = [];
  const drift = purpose === 'drift';
  lines.push(`### ${promotionHeading(plan, 'markdown') ?? `steward ${drift ? 'drift check' : 'plan'} for ${markdownCode(plan.environment)}`}`, '');
  // Who the output newly reaches outside the instance leads: a mistyped address is read here first.
  const outside = outsideReach(plan.steps);
  if (outside !== undefined) lines.push(`> **⚠️ ${escape(outside.headline)}:** ${escape(outside.recipients.join(', '))}`, '');
  lines.push(...renderViolationsMarkdown(plan.policyViolations));
  if (plan.steps.length === 0) {
    lines.push(`**No ${drift ? 'drift' : 'changes'}.** ${promotionNoChanges(plan) ?? 'The live state matches the configuration.'}`, '');
  } else {
    if (drift) lines.push(`**Drift:** the live state differs from the configuration in ${plan.steps.length} place${plan.steps.length === 1 ? '' : 's'}. Applying the configuration would:`, '');
    lines.push(`**${summaryLine(plan.summary)}**`, '');
  }
  for (const warning of plan.warnings) lines.push(`> ⚠️ ${escape(warning.message)}`, '');
  lines.push(...renderImpactsMarkdown(plan));
  lines.push(...renderExposureMarkdown(plan.exposure));
  const destructive = destructiveSteps(plan.steps);
  if (destructive.length > 0) {
    lines.push(`#### ⚠️ ${destructive.length} destructive change${destructive.length === 1 ? '' : 's'}`, '');
    const shown = destructive.slice(0, perGroup === Infinity ? undefined : Math.max(perGroup, 10));
    for (const step of shown) lines.push(`- \`${SYMBOL[step.action]}\` ${escape(stepTitle(step))}${step.reason ? ` — ${escape(step.reason)}` : ''}`);
    if (shown.length < destructive.length) lines.push(`- … and ${destructive.length - shown.length} more`);
    lines.push('');
  }
  for (const group of groupSteps(plan.steps)) lines.push(...renderGroup(group, perGroup, names));
  // When the routines run once this applies: a crowded hour is easier to see than to compute.
  if (plan.routineRuns !== undefined) lines.push('<details><summary>When routines run</summary>', '', ...renderRunWeekMarkdown(plan.routineRuns, plan.routineRuns.maxRunsPerHour), '</details>', '');
  lines.push(`<sub>Environment ${markdownCode(plan.environment)} at ${escape(plan.baseUrl)} · ${plan.requests} API requests · ${plan.createdAt}</sub>`, '');
  return lines.join('\n');
}

function renderGroup(group: PlanStep[], perGroup: number, names: ResolvedNames): string[] {
  const first = group[0]!;
  const shown = group.slice(0, perGroup);
  const lines = [`<details><summary><code>${SYMBOL[first.action]}</code> ${countOf(first.kind, group.length)}</summary>`, ''];
  if (shown.length > 0) {
    lines.push('```diff');
    for (const step of shown) {
      lines.push(markdownCodeLine(`${diffMarker(step)} ${stepTitle(step)}${step.reason ? ` (${step.reason})` : ''}`));
      for (const detail of stepDetails(step, names)) lines.push(markdownCodeLine(`${diffMarker(step)}     ${detail}`));
    }
    lines.push('```');
  }
  if (shown.length < group.length) {
    lines.push('', `… and ${grouped(group.length - shown.length)} more (a plan saved with \`--out\` lists every step)`);
  }
  lines.push('', '</details>', '');
  return lines;
}

/** diff code blocks colour `+` green, `-` red and `!` orange on GitHub. */
function diffMarker(step: PlanStep): string {
  switch (step.action) {
    case 'create':
      return '+';
    case 'delete':
      return '-';
    case 'update':
    case 'replace':
      return '!';
    default:
      return unreachable(step);
  }
}

/** Foreign text in prose: see markdownText. */
function escape(text: string): string {
  return markdownText(text);
}

