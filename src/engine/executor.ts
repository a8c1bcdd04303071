// Applying a plan. First every step is checked against the live state (already applied, safe to
// run, or stale); a stale step means someone changed the object since the plan, and nothing is
// written. Then the runnable steps go to their kinds in plan order; a failed step's dependents
// are skipped while independent steps go on. Dry-run is `checkSteps` without `runSteps`.
//
// A write whose answer was lost (or that the server answered 404/409) is judged by reading its
// kind back, the way the stale check judges: as wanted is done, as before is sent once more,
// anything else fails with what was found. After a 401/403, or once interrupted, no write starts.
import { ApiError, statusText } from '../api/errors.js';
import { unreachable } from '../errors.js';
import type { PlatformApi } from '../api/platform.js';
import type { Kind } from '../config/types.js';
import { type ApplyContext, type ResourceKind, type StepFailure, type StepOutcome } from '../model/kind.js';
import { failureOf } from '../kinds/shared.js';
import { REGISTRY } from '../kinds/registry.js';
import { changedFields, matches, omit } from '../model/fields.js';
import type { LiveState } from './planner.js';
import type { PlanStep, StepKind } from '../model/plan.js';
import { ApplyStop } from './stop.js';

export interface StaleStep {
  step: PlanStep;
  /** What changed since the plan, in words. */
  detail: string;
}

export interface CheckedSteps {
  runnable: PlanStep[];
  alreadyApplied: PlanStep[];
  stale: StaleStep[];
}

/** Sorts a plan's steps by comparing each object's current state with the step's before/after. */
export function checkSteps(steps: readonly PlanStep[], live: LiveState, registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY): CheckedSteps {
  const checked: CheckedSteps = { runnable: [], alreadyApplied: [], stale: [] };
  for (const step of steps) {
    const kind = registry.get(step.kind)!;
    const current = kind.current(step, live[kind.kind]);
    const verdict = judge(step, current);
    // Done as far as its object shows, yet something it was to remove is still there (a
    // replacement whose old routine survived): not applied, and running it again would create
    // a second copy. A new plan removes the leftover.
    const leftover = verdict === 'applied' ? kind.readBack?.(step, live[kind.kind]) : undefined;
    if (leftover !== undefined) checked.stale.push({ step, detail: `${leftover.found}; a new plan removes it` });
    else if (verdict === 'run') checked.runnable.push(withIgnoredAsLive(step, current));
    else if (verdict === 'applied') checked.alreadyApplied.push(step);
    else checked.stale.push({ step, detail: verdict.stale });
  }
  return checked;
}

/**
 * A step against its object's current state: as planned before (run), as wanted (applied), or
 * neither. Ignored fields (`ignore:`) are not compared: a change there is the app's to make.
 */
function judge(step: PlanStep, current: Record<string, unknown> | undefined): 'run' | 'applied' | { stale: string } {
  const now = current === undefined ? undefined : omit(current, step.ignore);
  switch (step.action) {
    case 'create': {
      if (now === undefined) return 'run';
      const after = omit(step.after, step.ignore);
      return matches(now, after) ? 'applied' : { stale: `it was created meanwhile with other values (${describe(after, now)})` };
    }
    case 'update':
    case 'replace': {
      if (now === undefined) return { stale: 'it no longer exists' };
      if (matches(now, omit(step.after, step.ignore))) return 'applied';
      return partlyApplied(step, now) ? 'run' : { stale: `it changed since the plan (${describe(omit(step.before, step.ignore), now)})` };
    }
    case 'delete':
      if (now === undefined) return 'applied';
      return matches(now, step.before) ? 'run' : { stale: `it changed since the plan (${describe(step.before, now)})` };
    default:
      return unreachable(step);
  }
}

/**
 * Every changed field holds either its planned value before or after: the step was carried out
 * in part (one of its two writes, say) or not at all, and running it again finishes it.
 */
function partlyApplied(step: PlanStep & { action: 'update' | 'replace' }, current: Record<string, unknown>): boolean {
  const unchanged = Object.entries(omit(step.before, step.ignore)).filter(([key]) => !step.fields.some((field) => field.path.split('.')[0] === key));
  if (!matches(current, Object.fromEntries(unchanged))) return false;
  const top = new Set(step.fields.map((field) => field.path.split('.')[0]!));
  // Field by field, whatever the kind: every kind's state is a record of its fields.
  const before: Readonly<Record<string, unknown>> = step.before;
  const after: Readonly<Record<string, unknown>> = step.after;
  return [...top].every((key) => matches(current, { [key]: before[key] }) || matches(current, { [key]: after[key] }));
}

/**
 * The step as it is to be sent now: its ignored fields at their current live values, so that a
 * write carrying the whole object (a routine's PUT) keeps what was changed in the app since the plan.
 */
function withIgnoredAsLive<Step extends PlanStep>(step: Step, current: Record<string, unknown> | undefined): Step {
  if (step.ignore === undefined || current === undefined || (step.action !== 'update' && step.action !== 'replace')) return step;
  const live = Object.fromEntries(step.ignore.filter((field) => field in current && field in step.after).map((field) => [field, current[field]]));
  return { ...step, after: { ...step.after, ...live } };
}

function describe(expected: Record<string, unknown>, current: Record<string, unknown>): string {
  return changedFields(expected, current)
    .map((field) => `${field.path} is now ${JSON.stringify(field.after)}, the plan expected ${JSON.stringify(field.before)}`)
    .join('; ');
}

export interface StepResult {
  step: PlanStep;
  outcome: StepOutcome;
}

/** Told as steps start and as each one's outcome is known (progress lines, status line). */
export interface ApplyObserver {
  started?(steps: readonly PlanStep[]): void;
  settled?(result: StepResult): void;
}

export interface RunContext {
  api: PlatformApi;
  live: LiveState;
  /** Reads one kind's live state again; without it, a lost answer stays a failure. */
  reread?: (kind: Kind) => Promise<unknown>;
  /**
   * The pauses between attempts to read back when the server cannot be reached (default
   * READ_BACK_PAUSES_MS): it answered a moment ago, and a restart or a network blip passes.
   */
  readBackPausesMs?: readonly number[];
  observer?: ApplyObserver;
  /** Stops the run between writes; runSteps also stops it itself after a 401/403. */
  stop?: ApplyStop;
}

/** Runs steps in order, grouping consecutive steps of one kind so the kind can batch them. */
export async function runSteps(steps: readonly PlanStep[], context: RunContext, registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY): Promise<StepResult[]> {
  const run = new ApplyRun(context, steps);
  let index = 0;
  while (index < steps.length) {
    const kind = steps[index]!.kind;
    const group: PlanStep[] = [];
    for (; index < steps.length && steps[index]!.kind === kind; index += 1) {
      const step = steps[index]!;
      const blocker = run.blocker(step);
      if (run.stop.stopped) run.settle(step, { status: 'skipped', reason: run.stop.notStartedReason(), notStarted: true });
      else if (blocker === undefined) group.push(step);
      else run.settle(step, { status: 'skipped', reason: `depends on ${blocker}, which did not succeed` });
    }
    if (group.length > 0) await run.applyGroup(registry.get(kind)!, group);
  }
  // Steps a kind added while applying (removing a concurrent run's duplicate) follow the plan's.
  return [...steps, ...run.added].map((step) => ({ step, outcome: run.outcomes.get(step.id)! }));
}

type Verdict = 'run' | 'applied' | { stale: string };

/** One apply run: the outcomes so far, the live state as last read, and the stop. */
class ApplyRun {
  readonly outcomes = new Map<string, StepOutcome>();
  readonly stop: ApplyStop;
  /** Steps a kind carried out beyond the plan, in the order they settled. */
  readonly added: PlanStep[] = [];
  private readonly live: LiveState;
  private readonly planned: ReadonlySet<string>;

  constructor(
    private readonly context: RunContext,
    steps: readonly PlanStep[],
  ) {
    this.stop = context.stop ?? new ApplyStop();
    this.live = { ...context.live };
    this.planned = new Set(steps.map((step) => step.id));
  }

  blocker(step: PlanStep): string | undefined {
    return step.dependsOn.find((id) => {
      const status = this.outcomes.get(id)?.status;
      return status === 'failed' || status === 'skipped';
    });
  }

  settle(step: PlanStep, outcome: StepOutcome): void {
    if (this.outcomes.has(step.id)) return;
    if (!this.planned.has(step.id)) {
      this.added.push(step);
      // Nobody approved it in a plan: the report says why it was done.
      if (outcome.status === 'done' && outcome.detail === undefined && step.reason !== undefined) outcome = { ...outcome, detail: step.reason };
    }
    this.outcomes.set(step.id, outcome);
    this.context.observer?.settled?.({ step, outcome });
  }

  async applyGroup(kind: ResourceKind, group: PlanStep[]): Promise<void> {
    const context: ApplyContext = {
      api: this.context.api,
      live: this.live[kind.kind],
      attempt: (steps, write) => this.attempt(kind, steps, write),
    };
    try {
      await kind.apply(group, context);
    } catch (error) {
      for (const step of group) this.settle(step, failureOf(error));
    }
    for (const step of group) this.settle(step, { status: 'failed', error: 'no outcome was reported' });
  }

  /** One write covering `steps`: not started once stopped; judged by reading back when its answer is in doubt. */
  private async attempt(kind: ResourceKind, steps: readonly PlanStep[], write: () => Promise<unknown>): Promise<void> {
    if (this.stop.stopped) {
      for (const step of steps) this.settle(step, { status: 'skipped', reason: this.stop.notStartedReason(), notStarted: true });
      return;
    }
    this.context.observer?.started?.(steps);
    const first = await send(write);
    if (first === undefined) {
      for (const step of steps) this.settle(step, { status: 'done' });
      return;
    }
    // A bulk write answered as done, but not for some of its steps: those fail, the rest are done.
    if (first.notTaken !== undefined) {
      for (const step of steps) {
        const words = first.notTaken.get(step.id);
        this.settle(step, words === undefined ? { status: 'done' } : { ...first, notTaken: undefined, error: words });
      }
      return;
    }
    // Stopped while its first write waited to be sent (apply drops it only then): not started.
    if (first.notSent && this.stop.stopped) {
      for (const step of steps) this.settle(step, { status: 'skipped', reason: this.stop.notStartedReason(), notStarted: true });
      return;
    }
    if (!inDoubt(first)) {
      this.fail(steps, first);
      return;
    }
    const verdicts = await this.readBack(kind, steps);
    if (verdicts === undefined) {
      this.fail(steps, first);
      return;
    }
    const refused = !first.outcomeUnknown;
    const pending = steps.filter((step) => verdicts.get(step.id) === 'run');
    const foundOther = steps.some((step) => typeof verdicts.get(step.id) === 'object');
    for (const step of steps) {
      const verdict = verdicts.get(step.id)!;
      if (verdict === 'applied') this.settle(step, refused ? { status: 'already-applied', detail: `already so on the server (it answered ${first.httpStatus} ${statusText(first.httpStatus!)})` } : { status: 'done', detail: 'confirmed by reading back' });
      else if (verdict !== 'run') this.settle(step, { ...first, error: `${first.error}; reading back found ${verdict.stale}` });
    }
    if (pending.length === 0) return;
    // The server refused (404/409) and nothing changed: sending again would be refused again.
    // A batch with a step someone else changed is not sent again either: it would undo that.
    if (refused || foundOther || first.sentTwice || this.stop.stopped) {
      const why = refused || first.sentTwice
        ? ''
        : foundOther ? '; not sent again, as other steps of the same request changed meanwhile' : `; not sent again: ${this.stop.notStartedReason()}`;
      for (const step of pending) this.settle(step, { ...first, error: `${first.error}${refused || first.sentTwice ? '' : '; reading back showed it was not carried out'}${why}` });
      return;
    }
    const second = await send(write);
    if (second === undefined) {
      for (const step of steps) this.settle(step, { status: 'done', detail: 'sent again after reading back showed it was not fully carried out' });
      return;
    }
    const again = inDoubt(second) ? await this.readBack(kind, pending) : undefined;
    for (const step of pending) {
      if (again?.get(step.id) === 'applied') this.settle(step, { status: 'done', detail: 'sent again after reading back; confirmed by reading back once more' });
      else this.fail([step], { ...second, error: secondFailure(second) });
    }
  }

  private fail(steps: readonly PlanStep[], failure: StepFailure): void {
    for (const step of steps) this.settle(step, failure);
    if (failure.fatal === 'auth' && failure.httpStatus !== undefined) {
      this.stop.stop({ kind: 'auth', status: failure.httpStatus, error: `${failure.httpStatus} ${statusText(failure.httpStatus)}` });
    }
  }

  /** Reads the kind back and judges each step; undefined when it cannot be read (or cannot be). */
  private async readBack(kind: ResourceKind, steps: readonly PlanStep[]): Promise<Map<string, Verdict> | undefined> {
    const reread = this.context.reread;
    if (reread === undefined) return undefined;
    let live: unknown;
    for (const pauseMs of [...(this.context.readBackPausesMs ?? READ_BACK_PAUSES_MS), undefined]) {
      try {
        live = await reread(kind.kind);
        break;
      } catch (error) {
        // Only an unreachable or failing server is worth waiting for; and only so long.
        if (pauseMs === undefined || !unreached(error)) return undefined;
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }
    this.live[kind.kind] = live;
    const verdicts = new Map<string, Verdict>();
    for (const step of steps) {
      const special = kind.readBack?.(step, live);
      verdicts.set(step.id, special === undefined ? judge(step, kind.current(step, live)) : { stale: special.remedy === undefined ? special.found : `${special.found} (${special.remedy})` });
    }
    return verdicts;
  }
}

/** Read-back attempts after the first, about 30 s in all: long enough for a server restart. */
export const READ_BACK_PAUSES_MS: readonly number[] = [2_000, 4_000, 8_000, 16_000];

/**
 * A read that failed because no connection could be made (refused, unreachable): the client
 * gives that up after a quick retry, as a wrong address should fail fast, but a server that
 * answered a moment ago is restarting. Anything else (5xx, 429, a reset, a silence) has already
 * had the client's whole retry policy, which waiting again would only multiply.
 */
function unreached(error: unknown): boolean {
  return error instanceof ApiError && error.unreached;
}

/** Runs a write; undefined when it succeeded, else its failure. */
async function send(write: () => Promise<unknown>): Promise<StepFailure | undefined> {
  try {
    await write();
    return undefined;
  } catch (error) {
    return failureOf(error);
  }
}

/** The words of a resend's failure: what steward did before it, and that a re-run is safe. */
function secondFailure(failure: StepFailure): string {
  if (!failure.outcomeUnknown) return `${failure.error} (sent again after the first answer was lost and reading back found nothing done)`;
  const words = failure.summary ?? failure.error;
  return `${words}; the answer was lost twice (steward read back in between and found nothing done). Run apply again: it reads back before it writes`;
}

/** A failure that may not be one: the answer was lost, or the object was already as wanted (404, 409). */
function inDoubt(failure: StepFailure): boolean {
  return failure.outcomeUnknown === true || failure.httpStatus === 404 || failure.httpStatus === 409;
}
