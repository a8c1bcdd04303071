// `steward plan`: what apply would change, as text, JSON or Markdown; optionally saved to a file.
// Exit codes with --detailed-exitcode: 0 no changes, 2 changes, 3 changes that delete or
// replace something, 4 the plan breaks a policy rule (src/policy/: apply would refuse it), 1
// error. Without it, 0 or 1 only, as Terraform's wrappers expect: a plan that breaks a policy
// rule exits 1, since applying it would fail.
import { InvalidArgumentError, type Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { StewardError } from '../errors.js';
import { makePlan } from '../engine/planner.js';
import { savePlan } from '../engine/planFile.js';
import { checkTargets, parseSelectors, type Targeting } from '../engine/targeting.js';
import { isDestructive, type Plan, type PlanModel } from '../model/plan.js';
import { applyCost } from '../engine/cost.js';
import { RESOLUTION_ROUTES } from '../resolve/identities.js';
import { POLICY_EXIT_CODE, violationDiagnostics } from '../policy/evaluate.js';
import { renderPlan } from '../render/human.js';
import { refuseUnderStrict } from '../engine/strict.js';
import type { ApplyCost } from '../engine/cost.js';
import { ReadProgress } from '../render/progress.js';
import { inertJson } from '../render/inert.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { annotate, baseUrlOf, connect, loadForEnvironment, processIo, reportError, sameTarget, STEWARD_VERSION, useColor, type CommandIo, type ConnectionOptions } from './context.js';

export interface TargetOptions {
  target?: string[];
  exclude?: string[];
}

export interface PlanOptions extends ConnectionOptions, TargetOptions {
  out?: string;
  json?: boolean;
  markdown?: boolean | string;
  detailedExitcode?: boolean;
  showAll?: boolean;
  /** `drift` reports the same plan as drift (steward drift). */
  purpose?: 'plan' | 'drift';
  /** Warnings that the config names something missing are an error (refuseUnderStrict). */
  strict?: boolean;
}

/** `changes`, `destructive` and `policy` only with --detailed-exitcode (a policy violation is `error` without it). */
export const EXIT = { ok: 0, error: 1, changes: 2, destructive: 3, policy: POLICY_EXIT_CODE } as const;

/** Runs `steward plan`; returns the exit code. */
export async function runPlan(options: PlanOptions, io: CommandIo): Promise<number> {
  try {
    if (options.json && options.markdown !== undefined && options.markdown !== false) {
      throw new StewardError('cli.options', 'choose one of --json and --markdown', 'user');
    }
    const parsed = targetingOf(options);
    const loaded = await loadForEnvironment(io, options);
    const targeting = checkTargets(parsed, loaded.config);
    // Long reads are told on stderr after ~2 s; stdout stays the plan.
    const progress = new ReadProgress({ write: io.stderr, live: io.isTTY && !options.json, color: useColor(io, options.color) });
    const { client, api } = connect(io, loaded, options, (event) => progress.clientEvent(event));
    let plan: Plan;
    let models: PlanModel[];
    let cost: ApplyCost;
    progress.start();
    try {
      ({ plan, models } = await makePlan({
        loaded,
        api,
        baseUrl: baseUrlOf(loaded, options),
        requestsPerMinute: client.requestsPerMinute,
        stewardVersion: STEWARD_VERSION,
        requestCount: () => client.stats().requests,
        targeting,
        // The resolved ids go into a plan file and the JSON; the text of a plan does not show them.
        recordIdentities: options.out !== undefined || options.json === true,
        ...(io.now === undefined ? {} : { now: io.now }),
      }));
      // Applying reads the live state again (a saved plan is checked against it), then writes;
      // applying the saved file skips the name lookups whose ids it holds.
      const { byRoute } = client.stats();
      const spared = options.out === undefined ? 0 : RESOLUTION_ROUTES.reduce((sum, route) => sum + (byRoute[route] ?? 0), 0);
      cost = applyCost(plan.steps, client, plan.requests - spared);
      // Kept with the plan, so that `steward show FILE` says what this run says (identities last, as a plan file reads).
      const { identities, ...made } = plan;
      plan = { ...made, applyCost: { requests: cost.requests, ms: cost.ms }, ...(identities === undefined ? {} : { identities }) };
    } finally {
      progress.stop();
      await client.close();
    }
    if (options.strict === true) refuseUnderStrict(plan.warnings, loaded);
    if (options.out !== undefined) await savePlan(plan, resolve(io.cwd, options.out), io.env[loaded.environment.tokenEnv]);
    await emitPlan(plan, { ...options, applyCost: cost, models }, io);
    if (options.out !== undefined && !options.json) io.stderr(`Saved the plan to ${options.out}. Apply it with: steward apply ${options.out}${sameTarget(options)}\n`);
    return planExitCode(plan, options.detailedExitcode === true);
  } catch (error) {
    return reportError(io, error, options.json === true);
  }
}

/** Prints the plan in the chosen form; `--markdown FILE` also writes it (e.g. a CI job summary). */
export async function emitPlan(
  plan: Plan,
  /** `models`: what the plan resolved, shown by name in text and Markdown (the JSON keeps the ids). */
  options: Pick<PlanOptions, 'json' | 'markdown' | 'color' | 'showAll' | 'purpose'> & { applyCost?: ApplyCost; models?: readonly PlanModel[] },
  io: CommandIo,
): Promise<void> {
  // On GitHub Actions each violation is also an annotation at the rule in the config (stderr when stdout is data).
  annotate(io, violationDiagnostics(plan.policyViolations), options.json === true || options.markdown === true);
  if (options.json) {
    io.stdout(`${inertJson(JSON.stringify(plan, null, 2))}\n`);
    return;
  }
  if (typeof options.markdown === 'string') {
    const markdown = renderPlanMarkdown(plan, options.purpose, options.models ?? plan.identities?.models);
    await writeFile(resolve(io.cwd, options.markdown), io.redact === undefined ? markdown : io.redact(markdown), { flag: 'a' });
  } else if (options.markdown) {
    io.stdout(renderPlanMarkdown(plan, options.purpose, options.models ?? plan.identities?.models));
    return;
  }
  io.stdout(
    renderPlan(plan, {
      color: useColor(io, options.color),
      showAll: options.showAll === true,
      purpose: options.purpose ?? 'plan',
      ...(options.applyCost === undefined ? {} : { applyCost: options.applyCost }),
      ...(options.models === undefined ? {} : { models: options.models }),
    }),
  );
}

/**
 * Without detailed codes 0, or 1 when the plan breaks a policy rule (apply would refuse it); with
 * them 0 no changes, 2 changes, 3 destructive changes, 4 a policy rule broken.
 */
export function planExitCode(plan: Plan, detailed: boolean): number {
  if ((plan.policyViolations?.length ?? 0) > 0) return detailed ? EXIT.policy : EXIT.error;
  if (!detailed || plan.steps.length === 0) return EXIT.ok;
  return isDestructive(plan) ? EXIT.destructive : EXIT.changes;
}

/** The parsed `--target` and `--exclude` selectors (errors before anything is read). */
export function targetingOf(options: TargetOptions): Targeting {
  return {
    include: parseSelectors(options.target ?? [], '--target'),
    exclude: parseSelectors(options.exclude ?? [], '--exclude'),
  };
}

/** `--target` and `--exclude`, repeatable. */
export function targetOptions(command: Command): Command {
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  return command
    .option('-t, --target <kind[/name]>', 'only this kind or object, and what it depends on (repeatable)', collect)
    .option('-x, --exclude <kind[/name]>', 'leave this kind or object out (repeatable); excluded kinds are not read', collect);
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return number;
}

function positiveSeconds(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('expected a number of seconds above 0');
  return number;
}

/** `--strict`, for plan, apply, diff and drift (validate has its own words for it). */
export function strictOption(command: Command): Command {
  return command.option('--strict', 'fail (exit 1) when the config names something this deployment does not have, e.g. a label\'s missing document, instead of warning');
}

/** Options every plan-like command takes. */
export function connectionOptions(command: Command): Command {
  return command
    .option('-c, --config <path>', 'config file or directory (default: ./steward.yaml, else ./steward/; --config . for this directory)')
    .option('-e, --env <name>', 'environment to act on (required when the config declares several)')
    .option('--base-url <url>', "override the environment's base URL (e.g. a local emulator)")
    .option('--requests-per-minute <n>', "override the environment's request budget (default 60)", positiveInteger)
    .option('--request-timeout <seconds>', 'give up on one request after this long, retries included (default 120; env STEWARD_REQUEST_TIMEOUT)', positiveSeconds)
    .option('--debug', 'log every API request (method, path, status, duration; tokens redacted) to stderr')
    .option('--no-color', 'never colour the output');
}

export function registerPlan(program: Command, io: () => CommandIo = processIo): void {
  strictOption(targetOptions(connectionOptions(program.command('plan'))))
    .description('show what apply would change, without changing anything')
    .option('-o, --out <file>', 'save the plan for `steward apply FILE`')
    .option('--json', 'print the plan as JSON (the plan-file format)')
    .option('--markdown [file]', 'print the plan as Markdown (or append it to FILE, e.g. $GITHUB_STEP_SUMMARY)')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 3 when something is deleted or replaced, 4 when a policy rule is broken (without it: 0, or 1 on an error or a broken policy rule)')
    .option('--show-all', 'list every step of large bulk changes')
    .action(async (options: PlanOptions) => {
      process.exitCode = await runPlan(options, io());
    });
}
