// Settling races after routine creates (the rule and why it holds: routineDuplicates.ts). After
// a run's creates, it lists each affected owner's routines once and deletes the twins the rule
// names. Each deletion is a step of its own, sent through the executor's `attempt` like any
// write: it is reported the moment it is done, it starts only while the run is not stopped, and
// a 404 (the other run deleted it first) is read back and judged already done.
import type { Routine } from '../../api/types.js';
import { StewardError } from '../../errors.js';
import { pick } from '../../model/fields.js';
import type { DeleteStep, PlanStep } from '../../model/plan.js';
import type { ApplyContext } from '../../model/kind.js';
import { settleRace, type CreatedRoutine } from './routineDuplicates.js';
import { liveState } from './routineState.js';

/** A routine this run created, with the step that created it. */
export interface CreatedByStep extends CreatedRoutine {
  step: PlanStep<'routines'>;
  ownerId: string | undefined;
}

/** Lists each owner of `created` once and deletes the concurrent duplicates the race rule names. */
export async function settleRaces(created: readonly CreatedByStep[], context: ApplyContext): Promise<void> {
  const owners = [...new Set(created.map((routine) => routine.ownerId))];
  for (const ownerId of owners) {
    const mine = created.filter((candidate) => candidate.ownerId === ownerId);
    const options = ownerId === undefined ? undefined : { userId: ownerId };
    const listed: Routine[] = [];
    try {
      for await (const routine of context.api.listRoutines(options)) listed.push(routine);
    } catch (error) {
      // Not silent: the run reports it (and fails), and the next plan shows any copy left.
      await context.attempt([uncheckedStep(mine)], () => Promise.reject(uncheckedError(mine, error)));
      continue;
    }
    for (const routine of mine) {
      const verdict = settleRace(routine, listed);
      if (verdict.kind === 'gone') continue;
      for (const twin of verdict.remove) {
        await context.attempt([duplicateStep(routine, twin, verdict.keeper)], () => context.api.deleteRoutine(twin.id, { ...options, name: twin.name }));
      }
    }
  }
}

/** Stands for the race check of `created` in the report when its list failed. */
function uncheckedStep(created: readonly CreatedByStep[]): DeleteStep<'routines'> {
  const first = created[0]!;
  return {
    id: `${first.step.id}#unchecked`,
    kind: 'routines',
    key: first.step.key,
    dependsOn: [first.step.id],
    ref: first.ownerId === undefined ? {} : { ownerId: first.ownerId },
    action: 'delete',
    before: {},
    reason: 'looking for copies a concurrent apply made',
  };
}

function uncheckedError(created: readonly CreatedByStep[], error: unknown): StewardError {
  const names = created.map((routine) => `"${routine.state.name}"`).join(', ');
  const message = error instanceof Error ? error.message : String(error);
  return new StewardError(
    'apply.race-unchecked',
    `${message}; so steward could not look for copies of ${names}, which this run created, that a concurrent apply may have made too (the next plan shows any, with the way out)`,
    'server',
    { cause: error },
  );
}

/** The deletion of a concurrent duplicate, worded for the report. */
function duplicateStep(created: CreatedByStep, twin: Routine, keeper: Routine): DeleteStep<'routines'> {
  const reason =
    twin.id === created.id
      ? `removed ${twin.id}, which this run created, as a duplicate: a concurrent run created the same routine, ${keeper.id}, which is older and kept`
      : `removed ${twin.id}, a duplicate that a concurrent run created meanwhile; ${keeper.id}, which is older, is kept`;
  return {
    id: `${created.step.id}#${twin.id}`,
    kind: 'routines',
    key: created.step.key,
    dependsOn: [created.step.id],
    ref: { ...(created.ownerId === undefined ? {} : { ownerId: created.ownerId }), routineId: twin.id },
    action: 'delete',
    before: pick(liveState(twin), Object.keys(created.state)),
    reason,
  };
}
