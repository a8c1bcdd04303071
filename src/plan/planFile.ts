// Saved plans (`plan --out FILE`, `apply FILE`). A plan file records the environment, the base
// URL and the config's digest, never a token; apply refuses it against anything else.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { StewardError } from '../errors.js';
import { isDeepStrictEqual } from 'node:util';
import { ACTION_SEVERITY, PLAN_FORMAT_VERSION, type Plan, type PlanStep } from './types.js';

/**
 * Writes the plan as JSON, atomically: the plan goes to a temporary file beside it, renamed over
 * the target only once complete, so an interrupted `plan --out` leaves the old file (or none),
 * never half a plan that a later `apply` would refuse or misread.
 */
export async function savePlan(plan: Plan, path: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(plan, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its directory does not exist' : (error as Error).message;
    throw new StewardError('plan-file.unwritable', `cannot write the plan file ${path}: ${reason}`, 'user');
  }
}

/** Reads a plan file, refusing anything that is not a plan of this format. */
export async function loadPlan(path: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new StewardError('plan-file.unreadable', `cannot read plan file ${path}: ${(error as Error).message}`, 'user');
  }
  let plan: Partial<Plan>;
  try {
    plan = JSON.parse(text) as Partial<Plan>;
  } catch {
    throw new StewardError('plan-file.invalid', `${path} is not a steward plan file (not JSON)`, 'user');
  }
  if (plan.formatVersion !== PLAN_FORMAT_VERSION) {
    throw new StewardError(
      'plan-file.version',
      `${path} is not a steward plan file of format ${PLAN_FORMAT_VERSION} (found ${JSON.stringify(plan.formatVersion)})`,
      'user',
      { hint: 'make a new plan with `steward plan --out FILE`' },
    );
  }
  const wellFormed =
    typeof plan.environment === 'string' &&
    typeof plan.baseUrl === 'string' &&
    typeof plan.configDigest === 'string' &&
    Array.isArray(plan.kinds) &&
    Array.isArray(plan.steps) &&
    plan.steps.every((step) => typeof step?.id === 'string' && step.action in ACTION_SEVERITY && Array.isArray(step.dependsOn));
  if (!wellFormed) throw new StewardError('plan-file.invalid', `${path} is not a well-formed steward plan file`, 'user');
  return plan as Plan;
}

/** Refuses a plan made for another environment, instance or config. */
export function checkPlanFits(plan: Plan, target: { environment: string; baseUrl: string; configDigest: string }): void {
  if (plan.environment !== target.environment) {
    throw new StewardError(
      'plan-file.environment',
      `this plan was made for environment "${plan.environment}", not "${target.environment}"`,
      'user',
      { hint: `apply it with --env ${plan.environment}, or make a new plan for ${target.environment}` },
    );
  }
  if (plan.baseUrl !== target.baseUrl) {
    throw new StewardError('plan-file.base-url', `this plan was made against ${plan.baseUrl}, not ${target.baseUrl}`, 'user');
  }
  if (plan.configDigest !== target.configDigest) {
    throw new StewardError(
      'plan-file.config-changed',
      'the configuration has changed since this plan was made',
      'user',
      { hint: 'run `steward plan --out FILE` again and review the new plan' },
    );
  }
}

/**
 * Refuses steps that do not follow from the configuration and the live state: a plan file is
 * data that went through other hands (a CI artifact), and its digest covers only the config.
 * Every step about to run must be one the planner derives again, with the same target and values.
 */
export function refuseUnfounded(runnable: readonly PlanStep[], derived: readonly PlanStep[]): void {
  const position = new Map(derived.map((step, index) => [step.id, index]));
  let previous = -1;
  const unfounded = runnable.filter((step) => {
    const index = position.get(step.id);
    const inOrder = index !== undefined && index > previous;
    previous = index ?? previous;
    return !inOrder || !isDeepStrictEqual(essence(step), essence(derived[index]!));
  });
  if (unfounded.length === 0) return;
  throw new StewardError(
    'plan-file.unfounded',
    `${unfounded.length === 1 ? 'a step' : `${unfounded.length} steps`} of this plan file do${unfounded.length === 1 ? 'es' : ''} not follow from the configuration and the live state: ${unfounded.map((step) => step.id).join(', ')}; nothing was applied`,
    'user',
    { hint: 'the file was edited or made by another steward; make a new plan with `steward plan --out FILE`' },
  );
}

/**
 * Everything of a step but its wording: what it writes, where, from which state, after what.
 * (A promotion words its deletions after its source, so `reason` may differ; `nextRuns` depend
 * on when the plan was made.)
 */
function essence(step: PlanStep): unknown {
  const { reason: _reason, nextRuns: _nextRuns, ...rest } = step;
  return rest;
}
