// Whether the routines a promotion carries work where they come from: a routine the platform
// disabled or whose last run failed (the routine kind finds them: ResourceKind.export.unhealthy)
// is named in a warning, and refused under `--require-healthy`. Pure.
import type { UnhealthyObject } from '../model/kind.js';
import type { PlanWarning } from '../model/plan.js';

/** A source routine that does not work, and why in words. */
export type UnhealthyRoutine = UnhealthyObject;

function described(routine: UnhealthyRoutine, source: string): string {
  return `${source}'s routine "${routine.name}"${routine.owner === undefined ? '' : ` (owner ${routine.owner})`} ${routine.problem === 'platform-disabled' ? 'is ' : ''}${routine.detail}`;
}

/** One warning per unhealthy routine: promoted, it is what production would run. */
export function healthWarnings(unhealthy: readonly UnhealthyRoutine[], source: string): PlanWarning[] {
  return unhealthy.map((routine) => ({
    code: routine.problem === 'platform-disabled' ? 'promote.routine-disabled' : 'promote.routine-failed',
    message: `${described(routine, source)}; promoting it carries a routine that does not work in ${source} (--require-healthy refuses)`,
  }));
}

/** The sentence of the refusal under --require-healthy. */
export function unhealthyRefusal(unhealthy: readonly UnhealthyRoutine[], source: string): string {
  const list = unhealthy.map((routine) => described(routine, source)).join('; ');
  return `--require-healthy: ${unhealthy.length === 1 ? 'a routine does' : `${unhealthy.length} routines do`} not work in ${source}, so nothing is promoted: ${list}`;
}
