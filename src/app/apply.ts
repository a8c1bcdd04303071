// The apply use case, below the command line: a saved plan judged against the live state now
// (stale steps, topics, policies), a fresh plan with its policy verdict, and the run of the steps
// with the stop wired to the client's writes. Each returns data; `cli/apply.ts` loads the config,
// connects, asks for approval and shows what these return.
import type { ApiClient, ClientEvent } from '../api/client.js';
import { ApiError, isNotFound } from '../api/errors.js';
import type { PlatformApi } from '../api/platform.js';
import { locateDeclared } from '../config/declared.js';
import type { Kind, LoadedConfig } from '../config/types.js';
import { checkSteps, runSteps, type ApplyObserver, type StaleStep, type StepResult } from '../engine/executor.js';
import { diffAll, makePlan, observe, readLive, withReadDependencies, type LiveState, type Observation, type PlanRequest } from '../engine/planner.js';
import { refuseUnfounded } from '../engine/planFile.js';
import { classifyRecipients } from '../engine/recipients.js';
import type { ApplyStop } from '../engine/stop.js';
import { refuseUnderStrict } from '../engine/strict.js';
import { StewardError } from '../errors.js';
import { REGISTRY } from '../kinds/registry.js';
import type { Plan, PlanModel, PlanStep } from '../model/plan.js';
import type { PolicyRuleName, PolicyViolation } from '../model/policy.js';
import { evaluatePolicies, judge, policyRefusal } from '../policy/evaluate.js';
import type { IdentityBook } from '../resolve/identities.js';
import { expiriesBetween } from './config.js';

/** Reads one kind's live state again, to judge a write whose answer was lost. */
export type Rereader = (kind: Kind) => Promise<unknown>;

/** Steps ready to run, with what running them needs. */
export interface ReadyToApply {
  runnable: PlanStep[];
  alreadyApplied: PlanStep[];
  live: LiveState;
  reread: Rereader;
  /** The policy violations the person overrode with --override-policy (none refused: those throw). */
  overridden: PolicyViolation[];
}

/** A saved plan against the live state now: stale (nothing may run), or ready. */
export type SavedPlanVerdict = { stale: StaleStep[] } | ({ stale?: undefined } & ReadyToApply);

/**
 * A saved plan (already checked to fit this environment and config): the live state is read
 * again, and the steps it no longer fits are stale. The names the plan resolved are not resolved
 * again (`identities`): the live state is read by those ids, so an object that changed since is
 * stale, and one deleted since fails its write. The topics of routines to create are checked again
 * (a topic is not an identity the file holds), and the policies judge the steps about to run.
 * Throws the policy refusal, or an expiry since the plan, before anything is written.
 */
export async function judgeSavedPlan(
  plan: Plan,
  loaded: LoadedConfig,
  connection: { api: PlatformApi; client: ApiClient },
  options: { identities?: IdentityBook; overrides: readonly PolicyRuleName[]; now?: Date },
): Promise<SavedPlanVerdict> {
  refuseExpiredSince(plan, loaded, options.now ?? new Date());
  const { api, client } = connection;
  const { identities } = options;
  const observation = await observe({ loaded, api, kinds: plan.kinds, requestCount: () => client.stats().requests, ...(identities === undefined ? {} : { identities }) }).catch((error: unknown) => {
    throw identities === undefined ? error : identityGone(error, identities);
  });
  const { live } = observation;
  const checked = checkSteps(plan.steps, live);
  // A step that the planner no longer derives is refused as edited; one it derives writing the
  // same values, while its object changed in other fields, is stale like those checkSteps found.
  const { steps: derived } = diffAll(observation.kinds, observation.desired, live);
  const stale = [...checked.stale, ...refuseUnfounded(checked.runnable, derived)];
  if (stale.length > 0) return { stale };
  // A topic taken off its model since the plan would fail a create after other steps were
  // written: the topics of the routines this apply creates are read again, before any write.
  for (const kind of observation.kinds) {
    const desired = observation.desired[kind.kind];
    if (kind.checkPlanned !== undefined && desired !== undefined) await kind.checkPlanned({ api, steps: checked.runnable.filter((step) => step.kind === kind.kind), desired, loaded });
  }
  // Judged again here, on the steps about to run: the config's policies may be newer than the plan,
  // and who a routine's output reaches is looked up again (the file's classification proves nothing).
  // The impacts and the exposure are the plan's, as reviewed: the steps about to run are judged with theirs.
  const { steps: judged } = await classifyRecipients(checked.runnable, (kind) => REGISTRY.get(kind)?.audience, observation.directory);
  const running = new Set(checked.runnable.map((step) => step.id));
  const impacts = (plan.impacts ?? []).filter((impact) => running.has(impact.step));
  const overridden = enforcePolicies(evaluatePolicies(judged, loaded, { impacts, exposure: plan.exposure }), options.overrides);
  return { runnable: checked.runnable, alreadyApplied: checked.alreadyApplied, live, reread: rereader(observation, api), overridden };
}

/** A plan made to be applied at once, with what running it needs. */
export interface FreshPlan {
  plan: Plan;
  models: PlanModel[];
  live: LiveState;
  reread: Rereader;
}

/**
 * No plan file: plans now (resolved ids are not recorded: the plan is applied here, not saved).
 * Under `strict`, a warning that the config names something missing throws. The policy verdict is
 * left to `enforcePolicies`, so that the caller can show the plan first.
 */
export async function planToApply(request: Omit<PlanRequest, 'recordIdentities'>, options: { strict: boolean }): Promise<FreshPlan> {
  const { plan, live, models, ...observation } = await makePlan({ ...request, recordIdentities: false });
  if (options.strict) refuseUnderStrict(plan.warnings, request.loaded);
  return { plan, models, live, reread: rereader(observation, request.api) };
}

/**
 * Apply's verdict on a plan's violations: throws the refusal (nothing written yet) when one breaks
 * a rule nobody named; returns those the person overrode.
 */
export function enforcePolicies(violations: readonly PolicyViolation[], overrides: readonly PolicyRuleName[]): PolicyViolation[] {
  const { refusing, overridden } = judge(violations, overrides);
  if (refusing.length > 0) throw policyRefusal(refusing);
  return overridden;
}

/** What running steps needs besides them. */
export interface StepRun {
  client: ApiClient;
  api: PlatformApi;
  live: LiveState;
  reread: Rereader;
  stop: ApplyStop;
  /** Installs the listener that hears the client's events from now on (the run's own, below). */
  hear: (listener: (event: ClientEvent) => void) => void;
  /** Told of every client event after the run's own listener (progress). */
  onEvent?: (event: ClientEvent) => void;
  observer?: ApplyObserver;
}

/** The outcome of each step, and the requests spent reading before the writes and writing. */
export interface AppliedSteps {
  results: StepResult[];
  requests: { reading: number; writing: number };
}

/**
 * Runs the steps. A stop asked for before the step being written has changed anything drops its
 * writes still waiting to be sent (a minute-long 429 wait, say) rather than sending them after
 * all; once a write of the step was answered (other than 429), the step is finished, so that it is
 * never left half done.
 */
export async function applySteps(steps: readonly PlanStep[], run: StepRun): Promise<AppliedSteps> {
  const { client, stop } = run;
  const reading = client.stats().requests;
  let touched = false;
  run.hear((event) => {
    if (event.type === 'response' && event.method !== 'GET' && event.status !== 429) {
      touched = true;
      // Stopped while this write was on the wire: the rest of its step is sent after all.
      client.sendUnsentWrites();
    }
    run.onEvent?.(event);
  });
  stop.onStop(() => {
    if (!touched) client.dropUnsentWrites();
  });
  stop.beginWriting();
  let results: StepResult[];
  try {
    results = await runSteps(
      steps,
      {
        api: run.api,
        live: run.live,
        reread: run.reread,
        stop,
        observer: {
          started: (started) => {
            touched = false;
            run.observer?.started?.(started);
          },
          settled: (result) => run.observer?.settled?.(result),
        },
      },
      REGISTRY,
    );
  } finally {
    stop.endWriting();
  }
  return { results, requests: { reading, writing: client.stats().requests - reading } };
}

/**
 * An entry whose `until` passed after the plan was made: the plan still writes it as in force,
 * and applying it would undo what the expiry undid, so it is stale.
 */
function refuseExpiredSince(plan: Plan, loaded: LoadedConfig, now: Date): void {
  const passed = expiriesBetween(loaded.config, new Date(plan.createdAt), now);
  if (passed.length === 0) return;
  // At each entry's `until`: the config is the one the plan was made from (its digest matched).
  throw locateDeclared(
    new StewardError(
      'plan.stale',
      `the plan is stale: ${passed.map((entry) => `${entry.entry} expired on ${entry.day}`).join(', ')}, after the plan was made (${plan.createdAt}); nothing was applied`,
      'user',
      { hint: 'make a new plan, which undoes what expired, review it, and apply that one', details: { configPaths: passed.map((entry) => entry.path) } },
    ),
    loaded,
  );
}

/**
 * A read by an id the saved plan resolved that answers 404 (a user's routines, whoami's models):
 * the object was deleted, or deleted and created again under a new id, since the plan. That is
 * the plan being stale, said as such; any other error is left as it is.
 */
function identityGone(error: unknown, identities: IdentityBook): unknown {
  // The ids the failed read named: a request's, or the models whoami was asked about.
  const named = error instanceof ApiError ? error.subjects : error instanceof StewardError && error.code === 'preflight.model' ? textList(error.details?.modelIds) : undefined;
  const notFound = isNotFound(error) || (error instanceof StewardError && error.code === 'preflight.model');
  if (!notFound || named === undefined || !identities.namesSavedId(named)) return error;
  return new StewardError('plan.stale-identity', `${(error as Error).message}; an id this plan resolved no longer exists, so nothing was applied`, 'user', {
    cause: error,
    hint: 'a user, group or model the plan names was deleted (or deleted and created again) since it was made: make a new plan, review it, and apply that one',
  });
}

/** Reads one kind's live state again (and the kinds its reading needs first), to judge a write whose answer was lost. */
function rereader(observation: Pick<Observation, 'directory' | 'desired'>, api: PlatformApi): Rereader {
  return async (kind) => {
    const needed = withReadDependencies(REGISTRY, [REGISTRY.get(kind)!]);
    const live = await readLive(needed, { api, directory: observation.directory }, observation.desired);
    return live[kind];
  };
}

function textList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
