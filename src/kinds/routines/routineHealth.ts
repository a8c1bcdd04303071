// Whether the routines a promotion carries work where they come from: a routine the platform
// disabled or whose last run failed (unhealthyRoutines) is named in a warning, and refused under
// `--require-healthy`, in these words. Pure.
import type { KindHealth, UnhealthyObject } from '../../model/kind.js';
import { unhealthyRoutines, type RoutineSnapshot } from './routineExport.js';

function described(routine: UnhealthyObject, source: string): string {
  return `${source}'s routine "${routine.name}"${routine.owner === undefined ? '' : ` (owner ${routine.owner})`} ${routine.problem === 'platform-disabled' ? 'is ' : ''}${routine.detail}`;
}

export const routineHealth: KindHealth<RoutineSnapshot> = {
  unhealthy: (snapshot) => unhealthyRoutines(snapshot.owners),

  // Promoted, it is what the target would run.
  warning: (routine, source) => ({
    code: routine.problem === 'platform-disabled' ? 'promote.routine-disabled' : 'promote.routine-failed',
    message: `${described(routine, source)}; promoting it carries a routine that does not work in ${source} (--require-healthy refuses)`,
  }),

  refusal(routines, source) {
    const list = routines.map((routine) => described(routine, source)).join('; ');
    const one = routines.length === 1;
    return {
      message: `--require-healthy: ${one ? 'a routine does' : `${routines.length} routines do`} not work in ${source}, so nothing is promoted: ${list}`,
      hint: `fix the routine${one ? '' : 's'} in ${source} (or take ${one ? 'it' : 'them'} out of the config) and promote again; without --require-healthy the promotion is planned with a warning`,
    };
  },
};
