// The one place that says in which order steps run. Creates, updates and replacements go
// top-down by level; deletes go bottom-up, so nothing is deleted while something still needs it.
//
//   level 0   creditControls
//               │  (user, user-group and entity-group limits fall back to its defaults)
//   level 1   labels   userCreditLimits   userGroupCreditLimits   entityGroupCreditLimits   routines
//               │
//   level 2   documentLabels   folderLabels   (links need their label; unlinks must precede a label's delete)
//
// Resulting sequence: L0 changes, L1 changes, L2 changes and deletes (kind by kind), L1 deletes,
// L0 deletes. A carrier's links and unlinks are adjacent, so the applier sends one PATCH per
// document or folder.
// A user or group limit's "delete" destroys nothing (it resets the user or group to the default
// limit and nothing depends on it): it runs with its kind's changes, so one bulk PATCH carries
// sets and resets.
import type { Kind } from '../config/types.js';
import type { PlanStep } from '../model/plan.js';

export const LEVELS: Readonly<Record<Kind, number>> = {
  creditControls: 0,
  labels: 1,
  userCreditLimits: 1,
  userGroupCreditLimits: 1,
  entityGroupCreditLimits: 1,
  routines: 1,
  documentLabels: 2,
  folderLabels: 2,
};

const KIND_ORDER: readonly Kind[] = ['creditControls', 'labels', 'userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits', 'routines', 'documentLabels', 'folderLabels'];

/** Kinds whose deletes are resets to a default that nothing depends on: they run with the changes. */
export const RESETS_WITH_CHANGES: ReadonlySet<Kind> = new Set(['userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits']);

/**
 * The order of ids within a phase and kind: `localeCompare`'s, from one collator made once (a
 * large plan sorts thousands), when the first plan is ordered: making it loads ICU's collation
 * data, which a command that orders nothing should not pay for at start-up.
 */
let collator: Intl.Collator | undefined;
const compareIds = (a: string, b: string): number => (collator ??= new Intl.Collator()).compare(a, b);

const DEEPEST = Math.max(...Object.values(LEVELS));

/** Sorts steps into the order they must run; stable and deterministic for equal inputs. */
export function orderSteps(steps: readonly PlanStep[]): PlanStep[] {
  return steps
    .map((step) => ({ step, phase: phase(step), rank: kindRank(step) }))
    .sort((a, b) => a.phase - b.phase || a.rank - b.rank || compareIds(a.step.id, b.step.id))
    .map(({ step }) => step);
}

function phase(step: PlanStep): number {
  const level = LEVELS[step.kind];
  const deepest = DEEPEST;
  // The deepest level's deletes run with its changes (nothing depends on them), so each of its
  // kinds keeps its links and unlinks adjacent; shallower deletes come after.
  if (step.action !== 'delete' || RESETS_WITH_CHANGES.has(step.kind) || level === deepest) return level * 2;
  return (deepest + 1) * 2 + (deepest - level);
}

function kindRank(step: PlanStep): number {
  return KIND_ORDER.indexOf(step.kind);
}
