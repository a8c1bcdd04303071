// "When will it run?": every routine a plan creates, updates or replaces carries its next runs,
// computed from the plan's own time (so a plan is a pure function of its inputs and its clock),
// and a schedule whose next run is more than a year away, or that never runs again, is a warning.
import { describeRun, nextRuns } from '../../domain/nextRuns.js';
import type { PlanStep, PlanWarning } from '../../model/plan.js';

/** How many runs a step shows. */
export const NEXT_RUNS_SHOWN = 3;

/** `now` plus one calendar year (29 February becomes 1 March). */
function oneYearAfter(now: Date): number {
  const later = new Date(now.getTime());
  later.setUTCFullYear(later.getUTCFullYear() + 1);
  return later.getTime();
}

/** The steps with `nextRuns` on each routine created, updated or replaced, and the warnings about far schedules. Pure. */
export function withNextRuns(steps: readonly PlanStep[], now: Date): { steps: PlanStep[]; warnings: PlanWarning[] } {
  const warnings: PlanWarning[] = [];
  // Routines share a few schedules and zones: each pair's runs are computed once.
  const computed = new Map<string, Date[] | undefined>();
  const runsOf = (schedule: string, timezone: string): Date[] | undefined => {
    const key = `${timezone}\0${schedule}`;
    if (computed.has(key)) return computed.get(key);
    let runs: Date[] | undefined;
    try {
      runs = nextRuns(schedule, timezone, now, NEXT_RUNS_SHOWN);
    } catch {
      runs = undefined;
    }
    computed.set(key, runs);
    return runs;
  };
  const annotated = steps.map((step): PlanStep => {
    if (step.kind !== 'routines' || step.action === 'delete') return step;
    const { schedule, timezone, paused, name } = step.after;
    // A paused routine does not run; a schedule or zone the config check refused has no runs to show.
    if (typeof schedule !== 'string' || typeof timezone !== 'string' || paused === true) return step;
    const runs = runsOf(schedule, timezone);
    if (runs === undefined) return step;
    if (runs.length === 0) {
      warnings.push({ code: 'routines.never-runs', message: `routine "${String(name)}": schedule \`${schedule}\` never runs again after ${now.toISOString()}` });
    } else if (runs[0]!.getTime() > oneYearAfter(now)) {
      warnings.push({
        code: 'routines.next-run-far',
        message: `routine "${String(name)}": its next run is ${describeRun(runs[0]!, timezone, true)}, more than a year away (schedule \`${schedule}\`)`,
      });
    }
    return { ...step, nextRuns: runs.map((run) => run.toISOString()) };
  });
  return { steps: annotated, warnings };
}
