// How steps read to people, shared by the terminal and Markdown renderers: symbols, titles and
// values in the domain's words (a null threshold is "off", a null user limit "unlimited").
import { describeRuns } from '../domain/nextRuns.js';
import type { Kind } from '../config/types.js';
import { ACTION_SEVERITY, type Action, type PlanStep } from '../model/plan.js';
import { terminalText } from './inert.js';
import { grouped } from '../domain/numbers.js';

export const SYMBOL: Record<Action, string> = { create: '+', update: '~', replace: '-/+', delete: '-' };

export const KIND_NOUN: Record<Kind, [singular: string, plural: string]> = {
  creditControls: ['credit controls', 'credit controls'],
  userCreditLimits: ['user credit limit', 'user credit limits'],
  userGroupCreditLimits: ['user group credit limit', 'user group credit limits'],
  entityGroupCreditLimits: ['entity group credit limit', 'entity group credit limits'],
  routines: ['routine', 'routines'],
  labels: ['label', 'labels'],
  documentLabels: ['document label', 'document labels'],
  folderLabels: ['folder label', 'folder labels'],
};

/**
 * One line naming the step's object: `routine "Weekly digest"`, `label "draft" on document
 * 1b2c3d4e`. Names come from the config or the server: they are escaped (terminalText), so the
 * title is one line without control characters, ready for a terminal or a code block.
 */
export function stepTitle(step: PlanStep): string {
  return terminalText(rawTitle(step));
}

function rawTitle(step: PlanStep): string {
  switch (step.kind) {
    case 'creditControls':
      return 'credit controls';
    case 'userCreditLimits':
      return `user credit limit ${step.key}${userLimitSummary(step)}`;
    case 'userGroupCreditLimits':
      return `user group credit limit "${step.key}"${userLimitSummary(step)}`;
    case 'entityGroupCreditLimits':
      return `entity group credit limit "${step.key}"${userLimitSummary(step)}`;
    case 'routines':
      return `routine "${step.key}"`;
    case 'labels':
      return `label "${step.key}"`;
    case 'documentLabels': {
      const document = `document ${step.ref.document}${step.ref.documentName ? ` "${step.ref.documentName}"` : ''}`;
      return step.action === 'delete' ? `label "${step.ref.label}" off ${document}` : `label "${step.ref.label}" on ${document}`;
    }
    case 'folderLabels': {
      const folder = `folder "${step.ref.folderPath ?? step.ref.folder}"`;
      return step.action === 'delete' ? `label "${step.ref.label}" off ${folder}` : `label "${step.ref.label}" on ${folder}`;
    }
  }
}

/** Kinds whose objects are one credit limit each (null reads "unlimited"; the title says it all). */
const LIMIT_KINDS: ReadonlySet<Kind> = new Set(['userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits']);

function userLimitSummary(step: PlanStep): string {
  switch (step.action) {
    case 'create':
      return `: ${formatValue(step.kind, 'creditLimit', step.after.creditLimit)}`;
    case 'update':
    case 'replace':
      return `: ${formatValue(step.kind, 'creditLimit', step.before.creditLimit)} → ${formatValue(step.kind, 'creditLimit', step.after.creditLimit)}`;
    case 'delete':
      return `: ${formatValue(step.kind, 'creditLimit', step.before.creditLimit)} → default`;
  }
}

/** A field's value as the domain says it. */
export function formatValue(kind: Kind, path: string, value: unknown): string {
  if (value === undefined) return '(unset)';
  if (value === null) {
    if (kind === 'creditControls') return path.endsWith('DefaultCredits') ? 'unlimited' : 'off';
    if (LIMIT_KINDS.has(kind)) return 'unlimited';
    return 'null';
  }
  if (typeof value === 'number') return grouped(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatValue(kind, path, item)).join(', ')}]`;
  return JSON.stringify(value);
}

/** The detail lines under a step's title: changed fields, or every field of a new object; escaped like titles. */
export function stepDetails(step: PlanStep): string[] {
  return [...rawDetails(step), ...nextRunsDetail(step)].map(terminalText);
}

/** `next runs: Mon 24 Nov 08:00 Europe/Berlin (07:00 UTC), …` for a routine the plan writes. */
function nextRunsDetail(step: PlanStep): string[] {
  if (step.nextRuns === undefined || step.nextRuns.length === 0 || step.action === 'delete' || typeof step.after.timezone !== 'string') return [];
  return [`next runs: ${describeRuns(step.nextRuns.map((run) => new Date(run)), step.after.timezone)}`];
}

function rawDetails(step: PlanStep): string[] {
  if (LIMIT_KINDS.has(step.kind) || step.kind === 'documentLabels' || step.kind === 'folderLabels') return [];
  switch (step.action) {
    case 'create':
      return flatten(step.after)
        .filter(([path]) => path !== 'name')
        .map(([path, value]) => `${path}: ${formatValue(step.kind, path, value)}`);
    case 'update':
    case 'replace':
      return step.fields.map((field) => `${field.path}: ${formatValue(step.kind, field.path, field.before)} → ${formatValue(step.kind, field.path, field.after)}`);
    case 'delete':
      return [];
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
export function countOf(kind: Kind, count: number): string {
  const [singular, plural] = KIND_NOUN[kind];
  return `${grouped(count)} ${count === 1 ? singular : plural}`;
}
