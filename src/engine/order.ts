// The one place that says in which order steps run. Each kind gives its level (`order` in its
// module); creates, updates and replacements go top-down by level, deletes bottom-up, so nothing
// is deleted while something still needs it. Today's kinds:
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
import { REGISTRY } from '../kinds/registry.js';
import type { ResourceKind } from '../model/kind.js';
import type { PlanStep, StepKind } from '../model/plan.js';

/**
 * The order of ids within a phase and kind: `localeCompare`'s, from one collator made once (a
 * large plan sorts thousands), when the first plan is ordered: making it loads ICU's collation
 * data, which a command that orders nothing should not pay for at start-up.
 */
let collator: Intl.Collator | undefined;
const compareIds = (a: string, b: string): number => (collator ??= new Intl.Collator()).compare(a, b);

/** Sorts steps into the order they must run; stable and deterministic for equal inputs. */
export function orderSteps(steps: readonly PlanStep[], registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY): PlanStep[] {
  // Within a phase, kinds keep the registry's order.
  const kinds = [...registry.values()];
  const rank = new Map<StepKind, number>(kinds.map((kind, index) => [kind.kind, index]));
  const deepest = Math.max(...kinds.map((kind) => kind.order.level));
  const phase = (step: PlanStep): number => {
    const { level, deletesAreResets } = registry.get(step.kind)!.order;
    // The deepest level's deletes run with its changes (nothing depends on them), so each of its
    // kinds keeps its links and unlinks adjacent; shallower deletes come after.
    if (step.action !== 'delete' || deletesAreResets === true || level === deepest) return level * 2;
    return (deepest + 1) * 2 + (deepest - level);
  };
  return steps
    .map((step) => ({ step, phase: phase(step), rank: rank.get(step.kind)! }))
    .sort((a, b) => a.phase - b.phase || a.rank - b.rank || compareIds(a.step.id, b.step.id))
    .map(({ step }) => step);
}
