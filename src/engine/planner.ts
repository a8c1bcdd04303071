// Making a plan: preflight → resolve (e-mails → ids) → read the live state of the declared kinds
// in parallel → diff (pure) → order. Only kinds the config declares are read.
import type { PlatformApi } from '../api/platform.js';
import { locateDeclared } from '../config/declared.js';
import type { Kind, LoadedConfig } from '../config/types.js';
import type { ResourceKind } from '../model/kind.js';
import { orderSteps } from './order.js';
import { assessImpacts } from './impacts.js';
import { assessExposure } from './exposure.js';
import { REGISTRY } from '../kinds/registry.js';
import { evaluatePolicies } from '../policy/evaluate.js';
import { effectivePolicies } from '../policy/settings.js';
import { Directory } from '../resolve/directory.js';
import { IdentityBook, type PlanModel } from '../resolve/identities.js';
import { recordIdentities } from './recordIdentities.js';
import { classifyRecipients } from './recipients.js';
import { runWeek, sharedZone } from '../domain/runWeek.js';
import { keyUser, preflight, refuseUnplannable } from '../resolve/preflight.js';
import { filterSteps, targetedKinds, type Targeting } from './targeting.js';
import { PLAN_FORMAT_VERSION, summarize, type Plan, type PlanStep, type PlanWarning, type StepKind } from '../model/plan.js';

export type LiveState = Partial<Record<Kind, unknown>>;
export type DesiredState = Partial<Record<Kind, unknown>>;

/** Told when a kind's live state is read, before the other kinds are done (makePlan starts checks early). */
export type ReadListener = (kind: ResourceKind, live: LiveState, desired: DesiredState) => void;

export interface PlanRequest {
  loaded: LoadedConfig;
  api: PlatformApi;
  baseUrl: string;
  /** The request budget the live state is read at, recorded so that `apply FILE` paces the same. */
  requestsPerMinute?: number;
  stewardVersion: string;
  /** Restrict the plan to these kinds (default: every declared kind). */
  kinds?: readonly Kind[];
  /** `--target` / `--exclude`: restricts the kinds read and the steps kept. */
  targeting?: Targeting;
  /** Requests made so far by the client (for the plan's cost line). */
  requestCount: () => number;
  registry?: ReadonlyMap<StepKind, ResourceKind>;
  now?: () => Date;
  /** Ids reused from a saved plan (apply PLANFILE), and where the ids this plan resolves are recorded. */
  identities?: IdentityBook;
  /**
   * Whether the plan carries the ids it resolved (`plan.identities`), for a plan file or JSON;
   * default true. Listing them costs a pass over every user a plan names.
   */
  recordIdentities?: boolean;
  /** Told as each kind's read completes. */
  onRead?: ReadListener;
  /** Aborted when the plan has failed elsewhere: reads begun early stop asking for pages. */
  signal?: AbortSignal;
}

export interface PlanResult extends Observation {
  plan: Plan;
  /** The models (and branches) the config names, as resolved: a plan's text shows them by name, even when `plan.identities` is not recorded. */
  models: PlanModel[];
}

export interface Observation {
  /** The kinds the plan covers. */
  kinds: ResourceKind[];
  desired: DesiredState;
  live: LiveState;
  directory: Directory;
}

/** Preflight, resolve identities and read the live state of the kinds a plan covers. */
export async function observe(request: Omit<PlanRequest, 'stewardVersion' | 'baseUrl' | 'now'> & { now?: Date }): Promise<Observation> {
  const registry = request.registry ?? REGISTRY;
  const { environment } = request.loaded;
  // Entries with `until:` are in force or expired as of this instant.
  const now = request.now ?? new Date();
  const only = request.targeting ? targetedKinds(request.targeting) : undefined;
  const kinds = selectKinds(registry, request.loaded, request.kinds).filter((kind) => only === undefined || only.includes(kind.kind));
  const readKinds = withReadDependencies(registry, kinds);
  // Model and branch names become this deployment's ids before whoami checks the models.
  let config = request.loaded.config;
  for (const kind of readKinds) {
    if (kind.resolveNames !== undefined) config = await kind.resolveNames({ api: request.api, loaded: { config, locate: request.loaded.locate }, ...(request.identities === undefined ? {} : { identities: request.identities }) });
  }
  const emails = readKinds.flatMap((kind) => kind.emails(config));
  const whoami = await preflight(request.api, config, readKinds, emails).catch((error: unknown) => {
    throw locateDeclared(error, request.loaded);
  });
  refuseUnplannable(readKinds, whoami, request.loaded);
  const directory = new Directory(whoami.keyScope === 'organization' ? request.api : undefined, keyUser(whoami), whoami.keyScope);
  request.identities?.seedDirectory(directory);
  // Kinds that name no user and no group are read while users and groups are being resolved.
  const early = independentKinds(readKinds, config);
  const desired: DesiredState = {};
  for (const kind of early) desired[kind.kind] = kind.desired({ config, environment, directory, now });
  const earlyLive = readLive(early, { api: request.api, directory, onRead: request.onRead }, desired);
  earlyLive.catch(() => undefined); // awaited below; a resolution error may come first
  // The other kinds begin what of their read needs no identity (src/model/kind.ts `start`).
  const stopping = new AbortController();
  const signal = request.signal === undefined ? stopping.signal : AbortSignal.any([stopping.signal, request.signal]);
  const started = startReads(readKinds.filter((kind) => !early.includes(kind)), request.api, signal);
  // Errors about declared users point at the config (file:line:col); see locateDeclared.
  const located = (error: unknown) => {
    throw locateDeclared(error, request.loaded, directory);
  };
  let withGroups: typeof config;
  try {
    // A plan that prunes user limits names the users of the undeclared ones after this: when more
    // limits are live than the config declares, some are undeclared (the live listing begun
    // early tells), and even one e-mail is looked up by the listing's page 1, which may name them
    // too. A listing that failed says no here: its error is its own read's, and an unknown e-mail
    // is still told as such.
    const listingAhead = async () =>
      (
        await Promise.all(
          readKinds.map((kind) => {
            const listing = started.get(kind.kind);
            return kind.namesUndeclaredUsers === undefined || listing === undefined ? false : kind.namesUndeclaredUsers(config, listing);
          }),
        )
      ).some(Boolean);
    await directory.resolveEmails(emails, { listingAhead }).catch(located);
    if (whoami.keyScope === 'organization') await directory.requireIds(readKinds.flatMap((kind) => kind.userIds?.(config) ?? [])).catch(located);
    for (const kind of readKinds) kind.checkResolved?.(request.loaded, directory);
    // Group display names become this deployment's user group ids (SCIM), each unknown one at its position.
    withGroups = config;
    for (const kind of readKinds) {
      if (kind.resolveGroups === undefined) continue;
      const listing = started.get(kind.kind);
      withGroups = await kind.resolveGroups({
        api: request.api,
        loaded: { config: withGroups, locate: request.loaded.locate },
        keyScope: whoami.keyScope,
        ...(request.identities === undefined ? {} : { identities: request.identities }),
        groups: directory.groups(request.api),
        ...(listing === undefined ? {} : { started: listing }),
      });
    }
  } catch (error) {
    // No read left running behind the error; a listing begun early stops at its next page.
    stopping.abort();
    await Promise.allSettled([earlyLive, ...started.values()]);
    throw error;
  }
  const rest = readKinds.filter((kind) => !early.includes(kind));
  for (const kind of rest) desired[kind.kind] = kind.desired({ config: withGroups, environment, directory, now });
  // A kind that reads after an early one waits for the early reads (none does today).
  const needsEarly = rest.some((kind) => kind.readAfter.some((dependency) => early.some((other) => other.kind === dependency)));
  const known = needsEarly ? await earlyLive : {};
  const [readEarly, readRest] = await Promise.all([earlyLive, readLive(rest, { api: request.api, directory, onRead: request.onRead }, desired, known, started)]);
  return { kinds, desired, live: { ...readEarly, ...readRest }, directory };
}

/**
 * The kinds whose desired state and reads need no user or group resolved: they name no e-mail
 * and no user id, are not user group limits (named by group), and read after such kinds only.
 */
function independentKinds(kinds: readonly ResourceKind[], config: LoadedConfig['config']): ResourceKind[] {
  let independent = kinds.filter(
    (kind) => kind.resolveGroups === undefined && kind.emails(config).length === 0 && (kind.userIds?.(config) ?? []).length === 0,
  );
  for (;;) {
    const kept = independent.filter((kind) => kind.readAfter.every((dependency) => independent.some((other) => other.kind === dependency)));
    if (kept.length === independent.length) return kept;
    independent = kept;
  }
}

/** Reads what the config manages and returns the plan that would make live match it. */
export async function makePlan(request: PlanRequest): Promise<PlanResult> {
  const identities = request.identities ?? new IdentityBook();
  // A kind's checks of what it would write against the deployment (a new routine's topic) begin
  // as soon as its live state is read, while the other kinds are still being read. A failed check
  // stops the reads begun early (the others end on their own).
  const reading = new AbortController();
  const checks: Promise<void>[] = [];
  let checkError: unknown;
  const onRead: ReadListener = (kind, live, desired) => {
    request.onRead?.(kind, live, desired);
    if (kind.checkPlanned === undefined) return;
    let steps: PlanStep[];
    try {
      steps = kind.diff(desired[kind.kind], live[kind.kind], live).steps;
    } catch {
      return; // diffAll below reports it, at its position
    }
    const check = kind.checkPlanned({ api: request.api, steps, desired: desired[kind.kind], loaded: request.loaded, identities });
    check.catch((error: unknown) => {
      checkError ??= error;
      reading.abort();
    });
    checks.push(check);
  };
  const createdAt = request.now?.() ?? new Date();
  let observation: Observation;
  try {
    observation = await observe({ ...request, identities, onRead, signal: reading.signal, now: createdAt });
  } catch (error) {
    await Promise.allSettled(checks);
    // Reads stopped because a check failed fail too: the check's problem is the one to tell.
    throw locateDeclared(checkError ?? error, request.loaded);
  }
  let diffed: ReturnType<typeof diffAll>;
  try {
    diffed = diffAll(observation.kinds, observation.desired, observation.live, request.registry);
  } catch (error) {
    await Promise.allSettled(checks);
    throw locateDeclared(error, request.loaded);
  }
  await Promise.all(checks).catch((error: unknown) => {
    throw locateDeclared(error, request.loaded);
  });
  const targeted = request.targeting ? filterSteps(diffed.steps, request.targeting) : { steps: diffed.steps, warnings: [] };
  // What each kind adds to its planned steps (a routine's next runs), and warns of.
  let steps = targeted.steps;
  const scheduleWarnings: PlanWarning[] = [];
  for (const kind of observation.kinds) {
    if (kind.annotate === undefined) continue;
    const annotated = kind.annotate(steps, createdAt);
    steps = annotated.steps;
    scheduleWarnings.push(...annotated.warnings);
  }
  // Who the output of the routines it writes reaches: the recipients they add and remove, looked up.
  const registry = request.registry ?? REGISTRY;
  const reached = await classifyRecipients(steps, (kind) => registry.get(kind)?.audience, observation.directory);
  steps = reached.steps;
  // What lowered limits do to this period's usage: read only when a step lowers one.
  const assessed = await assessImpacts(steps, registry, observation.live, request.api);
  const warnings = [...diffed.warnings, ...targeted.warnings, ...scheduleWarnings, ...reached.warnings, ...assessed.warnings];
  // The most the configuration allows per period: stated when the plan changes a credit value.
  const exposure = await assessExposure(steps, observation.kinds, observation.live, observation.directory, request.api);
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    stewardVersion: request.stewardVersion,
    environment: request.loaded.environmentName,
    baseUrl: request.baseUrl,
    ...(request.requestsPerMinute === undefined ? {} : { requestsPerMinute: request.requestsPerMinute }),
    configDigest: request.loaded.digest,
    createdAt: createdAt.toISOString(),
    kinds: observation.kinds.map((kind) => kind.kind),
    steps,
    summary: summarize(steps),
    warnings,
    requests: request.requestCount(),
    ...(assessed.impacts.length === 0 ? {} : { impacts: assessed.impacts }),
    ...(exposure === undefined ? {} : { exposure }),
    policyViolations: evaluatePolicies(steps, request.loaded, { impacts: assessed.impacts, exposure }, registry, undefined, createdAt),
    ...routineRuns(observation.kinds, steps, request.loaded, createdAt),
    ...(request.recordIdentities === false
      ? {}
      : { identities: recordIdentities(identities, { ...observation, kinds: withReadDependencies(request.registry ?? REGISTRY, observation.kinds), config: request.loaded.config, steps: diffed.steps }) }),
  };
  return { plan, models: identities.recordedModels, ...observation };
}

/** A plan that changes what runs on a schedule carries the week of runs of what the config schedules. Pure. */
function routineRuns(kinds: readonly ResourceKind[], steps: readonly PlanStep[], config: Pick<LoadedConfig, 'config' | 'environmentName'>, now: Date): Pick<Plan, 'routineRuns'> {
  const scheduling = kinds.filter((kind) => kind.runs !== undefined);
  if (!steps.some((step) => scheduling.some((kind) => kind.kind === step.kind))) return {};
  const scheduled = scheduling.flatMap((kind) => kind.runs!(config.config));
  const limit = effectivePolicies(config.config, config.environmentName).policies.routines?.maxRunsPerHour;
  return { routineRuns: { ...runWeek(scheduled, now, sharedZone(scheduled)), ...(typeof limit === 'number' ? { maxRunsPerHour: limit } : {}) } };
}

/** Starts the identity-free part of each kind's read that has one; failures surface in `read`. */
function startReads(kinds: readonly ResourceKind[], api: PlatformApi, signal: AbortSignal): Map<Kind, Promise<unknown>> {
  const started = new Map<Kind, Promise<unknown>>();
  for (const kind of kinds) {
    if (kind.start === undefined) continue;
    const promise = kind.start(api, signal);
    promise.catch(() => undefined); // awaited by the kind's read, or settled before an error is thrown
    started.set(kind.kind, promise);
  }
  return started;
}

/** Reads the live state of kinds, in waves that respect `readAfter`, each wave in parallel. */
export async function readLive(
  kinds: readonly ResourceKind[],
  { onRead, ...context }: { api: PlatformApi; directory: Directory; onRead?: ReadListener | undefined },
  desired: DesiredState,
  /** Live state already read, which `kinds` may read after. */
  known: LiveState = {},
  /** Reads begun before identities were resolved, by kind. */
  started: ReadonlyMap<Kind, Promise<unknown>> = new Map(),
): Promise<LiveState> {
  const live: LiveState = { ...known };
  const pending = new Map(kinds.map((kind) => [kind.kind, kind]));
  while (pending.size > 0) {
    const ready = [...pending.values()].filter((kind) => kind.readAfter.every((dependency) => !pending.has(dependency)));
    if (ready.length === 0) throw new Error(`read dependencies form a cycle among ${[...pending.keys()].join(', ')}`);
    await Promise.all(
      ready.map(async (kind) => {
        live[kind.kind] = await kind.read({ ...context, live, started: started.get(kind.kind) }, desired[kind.kind]);
        onRead?.(kind, live, desired);
      }),
    );
    for (const kind of ready) pending.delete(kind.kind);
  }
  return live;
}

/** Diffs every kind, links cross-kind dependencies and orders the steps (in `registry`'s order). Pure. */
export function diffAll(
  kinds: readonly ResourceKind[],
  desired: DesiredState,
  live: LiveState,
  registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY,
): { steps: PlanStep[]; warnings: PlanWarning[] } {
  const steps: PlanStep[] = [];
  const warnings: PlanWarning[] = [];
  const extra: { step: string; on: string }[] = [];
  for (const kind of kinds) {
    const result = kind.diff(desired[kind.kind], live[kind.kind], live);
    steps.push(...result.steps);
    warnings.push(...result.warnings);
    extra.push(...(result.dependencies ?? []));
  }
  const ids = new Set(steps.map((step) => step.id));
  const added = new Map<string, string[]>();
  for (const link of extra) added.set(link.step, [...(added.get(link.step) ?? []), link.on]);
  const linked = steps.map((step) => {
    const more = added.get(step.id);
    // Most steps (thousands of user limits) depend on nothing: they are kept as they are.
    if (more === undefined && step.dependsOn.length === 0) return step;
    const dependsOn = [...step.dependsOn, ...(more ?? [])];
    return { ...step, dependsOn: [...new Set(dependsOn)].filter((id) => ids.has(id)) };
  });
  return { steps: orderSteps(linked, registry), warnings };
}

/** The kinds a plan covers: declared by the config, restricted to `only` when given. */
export function selectKinds(registry: ReadonlyMap<StepKind, ResourceKind>, loaded: LoadedConfig, only?: readonly Kind[]): ResourceKind[] {
  return [...registry.values()].filter((kind) => kind.declared(loaded.config) && (only === undefined || only.includes(kind.kind)));
}

/** Adds the kinds whose live state the selected ones need to read first. */
export function withReadDependencies(registry: ReadonlyMap<StepKind, ResourceKind>, kinds: readonly ResourceKind[]): ResourceKind[] {
  const selected = new Map(kinds.map((kind) => [kind.kind, kind]));
  const queue = [...kinds];
  while (queue.length > 0) {
    for (const dependency of queue.shift()!.readAfter) {
      if (selected.has(dependency)) continue;
      const module = registry.get(dependency)!;
      selected.set(dependency, module);
      queue.push(module);
    }
  }
  return [...registry.values()].filter((kind) => selected.has(kind.kind));
}
