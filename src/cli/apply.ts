// `steward apply`: make the live state match the config. With a saved plan it applies exactly
// that plan's steps where and at the pace the plan was made, refusing a plan for another
// environment or an edited config, and refusing stale steps; without one it plans, shows the plan and asks (or needs --auto-approve).
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { checkSteps, runSteps, type StepResult } from '../engine/executor.js';
import type { Kind, LoadedConfig } from '../config/types.js';
import { StewardError } from '../errors.js';
import { ApiError, isNotFound } from '../api/errors.js';
import { DEFAULT_REQUESTS_PER_MINUTE, type ApiClient, type ClientEvent } from '../api/client.js';
import { applyCost, writeRequests } from '../engine/cost.js';
import { ApplyStop, SIGNAL_EXIT_CODE } from '../engine/stop.js';
import { stopOnSignals } from './signals.js';
import type { PlatformApi } from '../api/platform.js';
import { REGISTRY } from '../kinds/registry.js';
import { checkTargets } from '../engine/targeting.js';
import { checkPlanFits, loadPlan, trustedIdentities, type ApplyingHere } from '../engine/planFile.js';
import { IdentityBook } from '../resolve/identities.js';
import { diffAll, makePlan, observe, readLive, withReadDependencies, type LiveState, type Observation } from '../engine/planner.js';
import { refuseUnfounded } from '../engine/planFile.js';
import { locateDeclared } from '../config/declared.js';
import { expiriesBetween } from '../config/expiry.js';
import { classifyRecipients } from '../engine/recipients.js';
import type { Plan, PlanStep } from '../model/plan.js';
import { applyCostLine, foldedStepCount, renderApplyReport, renderDryRun, renderPlan, renderStale } from '../render/human.js';
import { ApplyProgress, ReadProgress, type ProgressOutput } from '../render/progress.js';
import { baseUrlOf, connect, loadForEnvironment, processIo, reportError, sameTarget, STEWARD_VERSION, useColor, type CommandIo, type ConnectionOptions } from './context.js';
import { connectionOptions, strictOption, targetingOf, targetOptions, type TargetOptions } from './plan.js';
import { refuseUnderStrict } from '../engine/strict.js';
import { reloadPromotion } from './diff.js';
import { evaluatePolicies, judge, parseOverrides, policyRefusal, POLICY_EXIT_CODE } from '../policy/evaluate.js';
import type { PolicyRuleName, PolicyViolation } from '../model/policy.js';
import { renderViolations } from '../render/policy.js';
import { inertJson, terminalText } from '../render/inert.js';
import { grouped } from '../domain/numbers.js';

export interface ApplyOptions extends ConnectionOptions, TargetOptions {
  autoApprove?: boolean;
  dryRun?: boolean;
  json?: boolean;
  showAll?: boolean;
  /** Warnings that the config names something missing are an error, before anything is written (refuseUnderStrict). */
  strict?: boolean;
  /** Policy rules this apply may break, by name (`--override-policy maxDestroy`, repeatable). */
  overridePolicy?: string[];
}

/** What the command line (or a test) hands an apply besides its options. */
export interface ApplyHooks {
  /** Stops the run between writes; the CLI entry wires SIGINT and SIGTERM to it. */
  stop?: ApplyStop;
  /** Hears the client's events as well (a test stops the run after write N). */
  observe?: (event: ClientEvent) => void;
  /** Progress timing, for tests: heartbeat interval and clock. */
  progress?: Pick<ProgressOutput, 'heartbeatMs' | 'tickMs' | 'now'>;
  /** Told as steps start and settle, so an exit before the report can still say where it was. */
  ledger?: ApplyLedger;
}

/** The steps of a running apply that have settled, and those in flight. */
export class ApplyLedger {
  readonly settled: StepResult[] = [];
  readonly inFlight = new Set<PlanStep>();

  started(steps: readonly PlanStep[]): void {
    for (const step of steps) this.inFlight.add(step);
  }

  settle(result: StepResult): void {
    this.inFlight.delete(result.step);
    this.settled.push(result);
  }
}

/**
 * Runs `steward apply [PLANFILE]`; returns the exit code: 0 when every step is done, 1 when a step
 * failed or was refused, 4 when the plan breaks a policy rule nobody overrode (nothing written),
 * 130 or 143 when interrupted by SIGINT or SIGTERM.
 */
export async function runApply(planFile: string | undefined, options: ApplyOptions, io: CommandIo, hooks: ApplyHooks = {}): Promise<number> {
  let client: ApiClient | undefined;
  const stop = hooks.stop ?? new ApplyStop();
  const session: Session = { stop, hooks, listener: undefined, overrides: [], rerun: rerunCommand(options, planFile) };
  try {
    session.overrides = parseOverrides(options.overridePolicy);
    const saved = planFile === undefined ? undefined : await loadPlan(resolve(io.cwd, planFile));
    if (saved !== undefined && options.strict === true) refuseUnderStrict(saved.warnings);
    if (saved !== undefined && (options.target?.length || options.exclude?.length)) {
      throw new StewardError('cli.target', '--target and --exclude shape a new plan; a saved plan is applied exactly as it was made', 'user', {
        hint: 'pass them to `steward plan --out FILE` instead',
      });
    }
    const loaded = await loadForEnvironment(io, { ...options, env: options.env ?? saved?.environment });
    // A saved plan is applied where it was made, at the pace it was made at (checkPlanFits says when the file's word is enough).
    const target = saved === undefined ? undefined : checkPlanFits(saved, applyingHere(loaded, options));
    const connection = connect(io, loaded, target === undefined ? options : { ...options, baseUrl: target.baseUrl, requestsPerMinute: target.requestsPerMinute }, (event) => {
      // Apply's own listener first: it must know a write was answered before anyone stops the run on it.
      session.listener?.(event);
      hooks.observe?.(event);
    });
    client = connection.client;
    if (target?.fromPlan) io.stderr(`Applying where the plan was made: ${terminalText(target.baseUrl)}, at ${grouped(target.requestsPerMinute)} requests/minute.\n`);
    const reading = readProgress(io, options, session);
    try {
      return saved === undefined
        ? await applyFresh(loaded, { ...connection, session, reading }, options, io)
        : await applySaved(saved, await reloadPromotion(io, loaded, saved, options), { ...connection, session, reading }, options, io, savedIdentities(saved, io, io.env[loaded.environment.tokenEnv]));
    } finally {
      reading.stop();
    }
  } catch (error) {
    if (error instanceof StewardError && error.code === 'policy.violated') {
      if (!options.json) io.stderr(renderViolations(error.details?.violations as PolicyViolation[], useColor(io, options.color), 'Policy violations:').join('\n'));
      reportError(io, error, options.json === true);
      return POLICY_EXIT_CODE;
    }
    return reportError(io, error, options.json === true);
  } finally {
    await client?.close();
  }
}

/** The plan's environment as the config and the command line describe it, for checkPlanFits. */
function applyingHere(loaded: LoadedConfig, options: ApplyOptions): ApplyingHere {
  return {
    environment: loaded.environmentName,
    configDigest: loaded.digest,
    configBaseUrl: loaded.environment.baseUrl,
    configRequestsPerMinute: loaded.environment.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.requestsPerMinute === undefined ? {} : { requestsPerMinute: options.requestsPerMinute }),
  };
}

/** One apply's shared parts: the stop, the hooks, and who hears the client's events now. */
interface Session {
  stop: ApplyStop;
  hooks: ApplyHooks;
  listener: ((event: ClientEvent) => void) | undefined;
  /** Rules named with --override-policy. */
  overrides: PolicyRuleName[];
  /** The command that finishes this apply if it is interrupted: the same plan file, if any. */
  rerun: string;
}

interface Connection {
  client: ApiClient;
  api: PlatformApi;
  session: Session;
  /** Progress of reading the live state, stopped once the writes begin. */
  reading: ReadProgress;
}

/** Long reads are told on stderr (after ~2 s), so stdout stays the plan, the report or the JSON. */
function readProgress(io: CommandIo, options: ApplyOptions, session: Session): ReadProgress {
  const progress = new ReadProgress({ write: io.stderr, live: io.isTTY && !options.json, color: useColor(io, options.color), ...session.hooks.progress });
  session.listener = (event) => progress.clientEvent(event);
  progress.start();
  return progress;
}

/**
 * The ids a saved plan resolved, to reuse when their seal verifies under this apply's token; else
 * (made with another key, edited) every name is resolved again, as for a file without them.
 */
function savedIdentities(plan: Plan, io: CommandIo, token: string | undefined): IdentityBook | undefined {
  const trusted = token === undefined ? undefined : trustedIdentities(plan, token);
  if (trusted === undefined) return undefined;
  if ('identities' in trusted) return new IdentityBook(trusted.identities);
  io.stderr(`The plan file's resolved ids are not reused: ${trusted.untrusted}. Users, groups and models are resolved again.\n`);
  return undefined;
}

/**
 * A saved plan (already checked to fit): read the live state again, refuse stale steps, run the
 * rest. The names the plan resolved are not resolved again (`identities`): the live state is read
 * by those ids, so an object that changed since is stale, and one deleted since fails its write.
 * The topics of routines to create are checked again (a topic is not an identity the file holds).
 */
async function applySaved(plan: Plan, loaded: LoadedConfig, connection: Connection, options: ApplyOptions, io: CommandIo, identities: IdentityBook | undefined): Promise<number> {
  refuseExpiredSince(plan, loaded);
  const { client, api } = connection;
  const observation = await observe({ loaded, api, kinds: plan.kinds, requestCount: () => client.stats().requests, ...(identities === undefined ? {} : { identities }) }).catch((error: unknown) => {
    throw identities === undefined ? error : identityGone(error, identities);
  });
  const { live } = observation;
  const checked = checkSteps(plan.steps, live);
  const color = useColor(io, options.color);
  // A step that the planner no longer derives is refused as edited; one it derives writing the
  // same values, while its object changed in other fields, is stale like those checkSteps found.
  const { steps: derived } = diffAll(observation.kinds, observation.desired, live);
  const stale = [...checked.stale, ...refuseUnfounded(checked.runnable, derived)];
  if (stale.length > 0) {
    if (!options.json) {
      io.stderr(renderStale(stale, { color }));
      return 1;
    }
    throw new StewardError('plan.stale', `the plan is stale: ${stale.length} object${stale.length === 1 ? '' : 's'} changed since it was made; nothing was applied`, 'user', {
      hint: 'make a new plan, review it, and apply that one',
      details: { stale: stale.map(({ step, detail }) => ({ id: step.id, detail })) },
    });
  }
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
  const overridden = enforcePolicies(evaluatePolicies(judged, loaded, { impacts, exposure: plan.exposure }), connection.session.overrides);
  // Nobody saw this plan's violations yet in this run: they are shown before anything is written.
  if (!options.json && overridden.length > 0) io.stdout(renderViolations(overridden, color, `${overrideLine(overridden)} Applying anyway:`).join('\n'));
  if (options.dryRun) {
    io.stdout(options.json ? dryRunJson(checked, client.stats().requests) : renderDryRun(checked, client.stats().requests, { color }));
    return 0;
  }
  if (!options.json && checked.runnable.length > 0) io.stdout(`${applyCostLine(applyCost(checked.runnable, client))}\n`);
  return execute(checked.runnable, checked.alreadyApplied, { ...connection, live, reread: rereader(observation, api), overridden }, options, io);
}

/**
 * An entry whose `until` passed after the plan was made: the plan still writes it as in force,
 * and applying it would undo what the expiry undid, so it is stale.
 */
function refuseExpiredSince(plan: Plan, loaded: LoadedConfig): void {
  const passed = expiriesBetween(loaded.config, new Date(plan.createdAt), new Date());
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

/** No plan file: plan now, show it, get approval, apply. */
async function applyFresh(loaded: LoadedConfig, connection: Connection, options: ApplyOptions, io: CommandIo): Promise<number> {
  const { client, api } = connection;
  if (!options.autoApprove && !options.dryRun && io.confirm === undefined) {
    // Refused before reading anything: no request is spent on a plan nobody can approve.
    throw new StewardError('apply.needs-approval', 'apply changes nothing without approval, and there is no terminal to ask on', 'user', {
      hint: 'pass --auto-approve, or apply a reviewed plan file: steward plan --out plan.json && steward apply plan.json',
    });
  }
  const { plan, live, ...observation } = await makePlan({
    loaded,
    api,
    baseUrl: baseUrlOf(loaded, options),
    requestsPerMinute: client.requestsPerMinute,
    stewardVersion: STEWARD_VERSION,
    requestCount: () => client.stats().requests,
    targeting: checkTargets(targetingOf(options), loaded.config),
    recordIdentities: false, // applied here, not saved: neither the report nor its JSON shows them
  });
  if (options.strict === true) refuseUnderStrict(plan.warnings, loaded);
  const color = useColor(io, options.color);
  connection.reading.stop();
  if (!options.json) io.stdout(renderPlan(plan, { color, showAll: options.showAll === true, models: observation.models }));
  if (plan.steps.length === 0) return 0;
  const overridden = enforcePolicies(plan.policyViolations ?? [], connection.session.overrides);
  // The violations are listed above the plan; the approver is told they are overridden before approving.
  if (!options.json && overridden.length > 0) io.stdout(`${overrideLine(overridden)} Applying anyway.\n`);
  if (options.dryRun) {
    const checked = { runnable: plan.steps, alreadyApplied: [], stale: [] };
    io.stdout(options.json ? dryRunJson(checked, client.stats().requests) : renderDryRun(checked, client.stats().requests, { color }));
    return 0;
  }
  if (!options.autoApprove && io.confirm !== undefined) {
    const folded = foldedStepCount(plan, options.showAll === true);
    const listAll = folded === 0 ? '' : `${folded.toLocaleString('en-US')} step${folded === 1 ? ' is' : 's are'} folded above; \`steward apply --show-all\` (or \`steward plan --show-all\`) lists every one.\n`;
    const cost = applyCostLine(applyCost(plan.steps, client));
    let approved: boolean;
    try {
      approved = await io.confirm(`\n${cost}\n${listAll}Apply these changes to ${plan.environment}? Only 'yes' is accepted: `);
    } catch (error) {
      // Ctrl-C at the prompt (the terminal's line editor turns it into an abort, not a signal).
      if ((error as Error).name !== 'AbortError') throw error;
      io.stdout('\nApply cancelled (interrupted at the prompt). Nothing was changed.\n');
      return SIGNAL_EXIT_CODE.SIGINT;
    }
    if (!approved) {
      io.stdout('Apply cancelled. Nothing was changed.\n');
      return 1;
    }
  } else if (!options.json) {
    io.stdout(`${applyCostLine(applyCost(plan.steps, client))}\n`);
  }
  return execute(plan.steps, [], { ...connection, live, reread: rereader({ ...observation, live }, api), overridden }, options, io);
}

async function execute(
  steps: PlanStep[],
  alreadyApplied: PlanStep[],
  context: Connection & { live: LiveState; reread: (kind: Kind) => Promise<unknown>; overridden: PolicyViolation[] },
  options: ApplyOptions,
  io: CommandIo,
): Promise<number> {
  const { client, session } = context;
  context.reading.stop();
  // Stopped already (before any write): runSteps starts nothing and the report says so.
  const stop = session.stop;
  const color = useColor(io, options.color);
  // Human output: the step lines on stdout as they happen; with --json they go to stderr.
  const progress = new ApplyProgress(steps, (remaining) => client.estimateMs(writeRequests(remaining)), {
    write: options.json ? io.stderr : io.stdout,
    live: io.isTTY && !options.json,
    color,
    ...session.hooks.progress,
  });
  const reading = client.stats().requests;
  // Whether the step being written may have changed something yet: a write answered other
  // than 429 (a refused or lost one counts too). Until then, a stop drops its writes still
  // waiting to be sent (a minute-long 429 wait, say) rather than sending them after all; after,
  // the step is finished, so that it is never left half done.
  let touched = false;
  session.listener = (event) => {
    if (event.type === 'response' && event.method !== 'GET' && event.status !== 429) {
      touched = true;
      // Stopped while this write was on the wire: the rest of its step is sent after all.
      client.sendUnsentWrites();
    }
    progress.clientEvent(event);
  };
  stop.onStop(() => {
    if (!touched) client.dropUnsentWrites();
  });
  stop.beginWriting();
  progress.start();
  let results: StepResult[];
  try {
    results = await runSteps(
      steps,
      {
        api: context.api,
        live: context.live,
        reread: context.reread,
        stop,
        observer: {
          started: (started) => {
            touched = false;
            session.hooks.ledger?.started(started);
            progress.started(started);
          },
          settled: (result) => {
            session.hooks.ledger?.settle(result);
            progress.settledStep(result);
          },
        },
      },
      REGISTRY,
    );
  } finally {
    progress.stop();
    stop.endWriting();
  }
  const requests = { reading, writing: client.stats().requests - reading };
  const report = { results, alreadyApplied, requests };
  if (options.json) {
    const steps = results.map(({ step, outcome }) => ({ id: step.id, action: step.action, ...outcome }));
    const stopped = stop.cause === undefined ? {} : { stopped: stop.cause.kind === 'interrupt' ? { signal: stop.cause.signal } : { refused: stop.cause.error } };
    const policy = context.overridden.length === 0 ? {} : { policy: { overridden: overriddenRules(context.overridden), violations: context.overridden } };
    io.stdout(`${inertJson(JSON.stringify({ results: steps, alreadyApplied: alreadyApplied.map((step) => step.id), requests, ...stopped, ...policy }, null, 2))}\n`);
  } else {
    io.stdout(renderApplyReport(report, { color, streamed: true, ...(stop.cause === undefined ? {} : { stopped: stop.cause }), rerun: session.rerun }));
    if (context.overridden.length > 0) io.stdout(`${overrideLine(context.overridden)}\n`);
  }
  if (stop.cause?.kind === 'interrupt') return SIGNAL_EXIT_CODE[stop.cause.signal];
  return results.every((result) => result.outcome.status === 'done' || result.outcome.status === 'already-applied') ? 0 : 1;
}

/**
 * Apply's verdict on a plan's violations: throws the refusal (nothing written yet) when one breaks
 * a rule nobody named; returns those the person overrode.
 */
function enforcePolicies(violations: readonly PolicyViolation[], overrides: readonly PolicyRuleName[]): PolicyViolation[] {
  const { refusing, overridden } = judge(violations, overrides);
  if (refusing.length > 0) throw policyRefusal(refusing);
  return overridden;
}

function overriddenRules(violations: readonly PolicyViolation[]): PolicyRuleName[] {
  return [...new Set(violations.map((violation) => violation.rule))];
}

/** `Policy overridden (--override-policy): maxDestroy (1 violation).`, for the report. */
function overrideLine(violations: readonly PolicyViolation[]): string {
  const rules = overriddenRules(violations).map((rule) => {
    const count = violations.filter((violation) => violation.rule === rule).length;
    return `${rule} (${count} violation${count === 1 ? '' : 's'})`;
  });
  return `Policy overridden with --override-policy: ${rules.join(', ')}.`;
}

/**
 * The command that finishes an interrupted apply, as the user would type it: a saved plan is
 * finished by applying the same file again (its done steps are then already applied).
 */
function rerunCommand(options: ApplyOptions, planFile: string | undefined): string {
  const file = planFile === undefined ? '' : ` ${/^[\w@%+=:,./-]+$/.test(planFile) ? planFile : `'${planFile.replace(/'/g, "'\\''")}'`}`;
  return `steward apply${options.env === undefined ? '' : ` --env ${options.env}`}${sameTarget(options)}${file}`;
}

/** Reads one kind's live state again (and the kinds its reading needs first), to judge a write whose answer was lost. */
function rereader(observation: Observation, api: PlatformApi): (kind: Kind) => Promise<unknown> {
  return async (kind) => {
    const needed = withReadDependencies(REGISTRY, [REGISTRY.get(kind)!]);
    const live = await readLive(needed, { api, directory: observation.directory }, observation.desired);
    return live[kind];
  };
}

/** The dry run as JSON: the steps that would run and those already applied, by id. */
function dryRunJson(checked: { runnable: PlanStep[]; alreadyApplied: PlanStep[] }, requests: number): string {
  const ids = (steps: PlanStep[]) => steps.map((step) => step.id);
  return `${JSON.stringify({ dryRun: true, wouldApply: ids(checked.runnable), alreadyApplied: ids(checked.alreadyApplied), requests }, null, 2)}\n`;
}

/** An apply ended by a signal before its report: what had settled, and what was in flight. */
function interruptedError(message: string, signal: string, ledger: ApplyLedger): StewardError {
  return new StewardError('apply.interrupted', message, 'user', {
    details: {
      signal,
      results: ledger.settled.map(({ step, outcome }) => ({ id: step.id, action: step.action, ...outcome })),
      inDoubt: [...ledger.inFlight].map((step) => step.id),
    },
  });
}

export function registerApply(program: Command, io: () => CommandIo = processIo): void {
  strictOption(targetOptions(connectionOptions(program.command('apply'))))
    .argument('[planfile]', 'a plan saved with `steward plan --out FILE`; applies exactly its steps')
    .description('make the live state match the configuration')
    .option('--auto-approve', 'apply without asking (needed when there is no terminal)')
    .option('--dry-run', 'do everything but the writes: show which steps would run')
    .option('--json', 'print the apply report as JSON')
    .option('--show-all', 'list every step of large bulk changes')
    .option('--override-policy <rule>', 'apply although the plan breaks this policy rule, e.g. maxDestroy (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .action(async (planFile: string | undefined, options: ApplyOptions) => {
      const commandIo = io();
      const stop = new ApplyStop();
      const ledger = new ApplyLedger();
      // With --json, stdout is one JSON document even when a signal ends the process at once.
      const lastWords = options.json ? (message: string, signal: string) => reportError(commandIo, interruptedError(message, signal, ledger), true) : undefined;
      const detach = stopOnSignals(stop, commandIo, undefined, lastWords);
      try {
        process.exitCode = await runApply(planFile, options, commandIo, { stop, ledger });
      } finally {
        detach();
      }
    });
}

function textList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
