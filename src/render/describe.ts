// How steps read to people, shared by the terminal and Markdown renderers: symbols, titles and
// values in the domain's words (a null threshold is "off", a null user limit "unlimited").
import { describeRuns } from '../domain/nextRuns.js';
import { unreachable } from '../errors.js';
import { REGISTRY } from '../kinds/registry.js';
import type { ResourceKind } from '../model/kind.js';
import { ACTION_SEVERITY, outsideTheInstance, type Action, type PlanModel, type PlanRecipient, type PlanStep, type RecipientClass, type StepKind } from '../model/plan.js';
import { formatValue } from '../model/present.js';
import { terminalText } from './inert.js';
import { grouped } from '../domain/numbers.js';

export const SYMBOL: Record<Action, string> = { create: '+', update: '~', replace: '-/+', delete: '-' };

type Registry = ReadonlyMap<StepKind, ResourceKind>;

/** The kind a step belongs to, as registered. */
function kindOf(kind: StepKind, registry: Registry = REGISTRY): ResourceKind {
  const found = registry.get(kind);
  if (found === undefined) throw new Error(`no resource kind ${kind} is registered`);
  return found;
}

/**
 * One line naming the step's object, as its kind says it: `routine "Weekly digest"`, `label
 * "draft" on document 1b2c3d4e`. Names come from the config or the server: they are escaped
 * (terminalText), so the title is one line without control characters.
 */
export function stepTitle(step: PlanStep, registry: Registry = REGISTRY): string {
  return terminalText(kindOf(step.kind, registry).presentation.title(step));
}

/** A field's value as the domain says it (a null threshold is "off", a null limit "unlimited"). */
export function fieldValue(kind: StepKind, path: string, value: unknown, registry: Registry = REGISTRY): string {
  return formatValue(value, kindOf(kind, registry).presentation.nullMeans?.(path));
}

/** The names of the ids a plan resolved (models and their branches), to show as the config writes them. */
export interface ResolvedNames {
  model: ReadonlyMap<string, string>;
  branch: ReadonlyMap<string, string>;
}

/** The names of a plan's resolved models and branches (`plan.identities.models`, or what the planner returned). */
export function resolvedNames(models: readonly PlanModel[] | undefined): ResolvedNames {
  const list = models ?? [];
  return {
    model: new Map(list.flatMap((model) => (model.name === undefined ? [] : [[model.id, model.name] as const]))),
    branch: new Map(list.flatMap((model) => model.branches.map((branch) => [branch.id, branch.name] as const))),
  };
}

const NO_NAMES: ResolvedNames = { model: new Map(), branch: new Map() };

/**
 * `model: Sales` for `modelId: 5f0c…` when every id shown has a name the config gave it (null
 * stays as the kind words it); otherwise the field and its ids, so an id the config did not name is never guessed.
 */
function shownField(step: PlanStep, path: string, values: readonly unknown[], names: ResolvedNames, registry: Registry): { label: string; show: (value: unknown) => string } {
  const plain = { label: path, show: (value: unknown) => fieldValue(step.kind, path, value, registry) };
  const named = kindOf(step.kind, registry).presentation.namedBy?.(path);
  if (named === undefined) return plain;
  const byId = names[named];
  if (!values.every((value) => value === null || (typeof value === 'string' && byId.has(value)))) return plain;
  return { label: named, show: (value) => (typeof value === 'string' ? byId.get(value)! : fieldValue(step.kind, path, value, registry)) };
}

/**
 * The detail lines under a step's title: changed fields, or every field of a new object; escaped
 * like titles. `names`: resolved model and branch names, shown in place of their ids.
 */
export function stepDetails(step: PlanStep, names: ResolvedNames = NO_NAMES, registry: Registry = REGISTRY): string[] {
  return [...rawDetails(step, names, registry), ...ignoredDetails(step, registry), ...untilDetail(step), ...nextRunsDetail(step), ...recipientsDetail(step)].map(terminalText);
}

/** `until 31 Dec 2026`: the entry is in force until then, and undone from then on. */
function untilDetail(step: PlanStep): string[] {
  return step.until === undefined ? [] : [`until ${step.until.day} (undone from then on)`];
}

/**
 * `paused: ignored (stays true; the config says false)` for an ignored field the config and the
 * live object disagree on; a new object says which fields it will leave alone once created.
 */
function ignoredDetails(step: PlanStep, registry: Registry): string[] {
  if (step.ignore === undefined || (kindOf(step.kind, registry).presentation.details === false && step.action !== 'create')) return [];
  if (step.action === 'create') return [`ignored once created: ${step.ignore.join(', ')}`];
  const value = (path: string, field: unknown) => fieldValue(step.kind, path, field, registry);
  return (step.ignored ?? []).map((field) => `${field.path}: ignored (stays ${value(field.path, field.before)}; the config says ${value(field.path, field.after)})`);
}

/** What each class of recipient is called in a plan. */
const RECIPIENT_WORDS: Record<RecipientClass, string> = {
  user: 'user',
  'not-a-user': 'not a user',
  'deactivated-user': 'deactivated user',
  'user-group': 'user group',
  'slack-channel': 'Slack channel',
  'slack-user': 'Slack user',
  'not-checked': 'not checked',
};

/** `grase@acme.example (not a user; did you mean grace@acme.example?)` */
export function recipientWords(recipient: PlanRecipient): string {
  return `${recipient.recipient} (${RECIPIENT_WORDS[recipient.is]}${recipient.didYouMean === undefined ? '' : `; did you mean ${recipient.didYouMean}?`})`;
}

/** `recipients added: …` and `recipients removed: …` for a routine whose recipients change. */
function recipientsDetail(step: PlanStep): string[] {
  return (['added', 'removed'] as const).flatMap((change) => {
    const listed = (step.recipients ?? []).filter((recipient) => recipient.change === change);
    return listed.length === 0 ? [] : [`recipients ${change}: ${listed.map(recipientWords).join(', ')}`];
  });
}

/**
 * The recipients a plan adds that are not active users of the instance (no user, or a deactivated
 * one), each with the step that adds it: what an approver must see first.
 */
export function newOutsideRecipients(steps: readonly PlanStep[]): { recipient: PlanRecipient; step: PlanStep }[] {
  return steps.flatMap((step) => (step.recipients ?? []).filter((recipient) => recipient.change === 'added' && outsideTheInstance(recipient)).map((recipient) => ({ recipient, step })));
}

/**
 * `Routine output now reaches 2 new recipients outside the instance`, and who they are (`grase@…
 * (not a user; did you mean grace@…?) from routine "Digest"`); undefined when it reaches none.
 */
export function outsideReach(steps: readonly PlanStep[]): { headline: string; recipients: string[] } | undefined {
  const outside = newOutsideRecipients(steps);
  if (outside.length === 0) return undefined;
  const count = new Set(outside.map(({ recipient }) => recipient.recipient.toLowerCase())).size;
  return {
    headline: `Routine output now reaches ${grouped(count)} new recipient${count === 1 ? '' : 's'} outside the instance`,
    recipients: outside.map(({ recipient, step }) => `${recipientWords(recipient)} from ${kindOf(step.kind).presentation.title(step)}`),
  };
}

/** `next runs: Mon 24 Nov 08:00 Europe/Berlin (07:00 UTC), …` for a routine the plan writes. */
function nextRunsDetail(step: PlanStep): string[] {
  if (step.nextRuns === undefined || step.nextRuns.length === 0 || step.action === 'delete' || !('timezone' in step.after) || typeof step.after.timezone !== 'string') return [];
  return [`next runs: ${describeRuns(step.nextRuns.map((run) => new Date(run)), step.after.timezone)}`];
}

function rawDetails(step: PlanStep, names: ResolvedNames, registry: Registry): string[] {
  if (kindOf(step.kind, registry).presentation.details === false) return [];
  switch (step.action) {
    case 'create':
      return flatten(step.after)
        .filter(([path]) => path !== 'name')
        .map(([path, value]) => {
          const { label, show } = shownField(step, path, [value], names, registry);
          return `${label}: ${show(value)}`;
        });
    case 'update':
    case 'replace':
      return step.fields.map((field) => {
        const { label, show } = shownField(step, field.path, [field.before, field.after], names, registry);
        return `${label}: ${show(field.before)} → ${show(field.after)}`;
      });
    case 'delete':
      return [];
    default:
      return unreachable(step);
  }
}

function flatten(state: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(state).flatMap(([key, value]): [string, unknown][] =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? flatten(value as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value]],
  );
}

/** Worst first: deletes, then replacements. */
export function destructiveSteps(steps: readonly PlanStep[]): PlanStep[] {
  return steps
    .filter((step) => step.action === 'delete' || step.action === 'replace')
    .sort((a, b) => ACTION_SEVERITY[b.action] - ACTION_SEVERITY[a.action]);
}

/** `Plan: 3 to add, 2 to change, 1 to replace, 1 to destroy.` */
export function summaryLine(summary: Record<Action, number>): string {
  return `Plan: ${summary.create} to add, ${summary.update} to change, ${summary.replace} to replace, ${summary.delete} to destroy.`;
}

/** Consecutive steps of one kind and action, the unit the renderers fold when it is large. */
export function groupSteps(steps: readonly PlanStep[]): PlanStep[][] {
  const groups: PlanStep[][] = [];
  for (const step of steps) {
    const last = groups.at(-1);
    if (last && last[0]!.kind === step.kind && last[0]!.action === step.action) last.push(step);
    else groups.push([step]);
  }
  return groups;
}

/** "1,204 user credit limits" */
export function countOf(kind: StepKind, count: number): string {
  const [singular, plural] = kindOf(kind).presentation.noun;
  return `${grouped(count)} ${count === 1 ? singular : plural}`;
}
