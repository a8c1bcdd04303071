// Whether the routines a promotion carries work where they come from: a routine the platform
// disabled (`systemDisabled`, with its reason) or whose last run failed (`lastRun.state`) is
// named in a warning, and refused under `--require-healthy`. Both fields are server-managed and
// read as they come: a server that leaves them out, or sends a form steward does not know, makes
// no finding. Pure.
import type { LiveOwnerRoutines } from '../export/snapshot.js';
import type { PlanWarning } from '../model/plan.js';

/** A source routine that does not work, and why in words. */
export interface UnhealthyRoutine {
  name: string;
  /** The owner's e-mail where the config names one. */
  owner?: string;
  problem: 'platform-disabled' | 'last-run-failed';
  detail: string;
}

/**
 * Run states that mean the run did not deliver. The vendor documents `lastRun.state` as a string
 * without its values; these are the words a failed run is written with, in any case.
 */
const FAILED_STATE = /fail|error|timed?[\s_-]?out|abort|cancel/i;

/** The unhealthy routines among those read from the source. */
export function unhealthyRoutines(owners: readonly LiveOwnerRoutines[]): UnhealthyRoutine[] {
  const found: UnhealthyRoutine[] = [];
  for (const { owner, routines } of owners) {
    for (const routine of routines) {
      const named = { name: routine.name, ...(owner === undefined ? {} : { owner }) };
      if ((routine.systemDisabled as unknown) === true) {
        const reason = typeof routine.systemDisabledReason === 'string' && routine.systemDisabledReason.trim() !== '' ? routine.systemDisabledReason.trim() : 'no reason given';
        found.push({ ...named, problem: 'platform-disabled', detail: `disabled by the platform (${reason})` });
        continue;
      }
      const lastRun = routine.lastRun as unknown;
      const state = typeof lastRun === 'object' && lastRun !== null ? (lastRun as { state?: unknown }).state : undefined;
      if (typeof state === 'string' && FAILED_STATE.test(state)) {
        const completedAt = (lastRun as { completedAt?: unknown }).completedAt;
        found.push({ ...named, problem: 'last-run-failed', detail: `its last run ${typeof completedAt === 'string' ? `(${completedAt}) ` : ''}ended \`${state}\`` });
      }
    }
  }
  return found;
}

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
