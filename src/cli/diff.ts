// `steward diff --env production --against playground`: promotion. What production would change
// to match playground's live state, named through the config (users by e-mail, routines and
// labels by name, models through each environment's variables), as a plan that
// `steward apply --env production FILE` applies. Exit codes as `steward plan`.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { ApiClient } from '../api/client.js';
import type { LoadedConfig } from '../config/types.js';
import { StewardError } from '../errors.js';
import { PRUNED_REASON, UNLISTED_DOCUMENT_REASON, UNLISTED_FOLDER_REASON } from '../kinds/protection.js';
import { reachableOnPlanWord, savePlan } from '../engine/planFile.js';
import { makePlan } from '../engine/planner.js';
import type { Plan } from '../model/plan.js';
import { readPromotion, sourceEnvironment } from '../promote/source.js';
import { baseUrlOf, connect, loadForEnvironment, processIo, reportError, sameTarget, STEWARD_VERSION, type CommandIo, type ConnectionOptions } from './context.js';
import { connectionOptions, emitPlan, planExitCode, strictOption } from './plan.js';
import { refuseUnderStrict } from '../engine/strict.js';

export interface DiffOptions extends ConnectionOptions {
  /** The source environment, whose live state the target is planned to match. */
  against?: string;
  againstBaseUrl?: string;
  out?: string;
  json?: boolean;
  markdown?: boolean | string;
  detailedExitcode?: boolean;
  showAll?: boolean;
  /** Refuse to promote while a routine carried is disabled by the platform or its last run failed. */
  requireHealthy?: boolean;
  /** Warnings that the config names something missing are an error (refuseUnderStrict). */
  strict?: boolean;
}

/** Runs the promotion diff; returns the exit code of `steward plan` for the same plan. */
export async function runDiff(options: DiffOptions, io: CommandIo): Promise<number> {
  const clients: ApiClient[] = [];
  try {
    if (options.against === undefined) throw new StewardError('cli.against', 'steward diff needs --against ENV: the environment to promote from', 'user');
    const loaded = await loadForEnvironment(io, options);
    const source = connectSource(io, loaded, options.against, { baseUrl: options.againstBaseUrl, debug: options.debug });
    clients.push(source.client);
    const target = connect(io, loaded, options);
    clients.push(target.client);
    const requireHealthy = options.requireHealthy === true;
    const promotion = await readPromotion(loaded, { name: options.against, api: source.api }, { requireHealthy });
    const { plan: targetPlan, models } = await makePlan({
      loaded: promotion.loaded,
      api: target.api,
      baseUrl: baseUrlOf(loaded, options),
      requestsPerMinute: target.client.requestsPerMinute,
      stewardVersion: STEWARD_VERSION,
      requestCount: () => source.client.stats().requests + target.client.stats().requests,
      // The resolved ids go into a plan file and the JSON, as for plan.
      recordIdentities: options.out !== undefined || options.json === true,
    });
    const plan: Plan = {
      ...targetPlan,
      // The desired state here is the source's, so "not in the config" would mislead an approver.
      steps: targetPlan.steps.map((step) => ({ ...step, ...(step.reason === undefined ? {} : { reason: sourceWorded(step.reason, options.against!) }) })),
      warnings: [...promotion.warnings, ...targetPlan.warnings],
      promotion: {
        from: options.against,
        fromBaseUrl: source.baseUrl,
        sourceDigest: promotion.sourceDigest,
        ...(requireHealthy ? { requireHealthy } : {}),
        ...(promotion.held.length === 0 ? {} : { held: promotion.held }),
      },
    };
    if (options.strict === true) refuseUnderStrict(plan.warnings, promotion.loaded);
    if (options.out !== undefined) await savePlan(plan, resolve(io.cwd, options.out), io.env[loaded.environment.tokenEnv]);
    await emitPlan(plan, { ...options, models }, io);
    if (options.out !== undefined && !options.json) {
      io.stderr(`Saved the promotion plan to ${options.out}. Apply it with: steward apply --env ${plan.environment} ${options.out}${sameTarget(options)}\n`);
    }
    return planExitCode(plan, options.detailedExitcode === true);
  } catch (error) {
    return reportError(io, error, options.json === true);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

/**
 * A step's reason as a promotion says it: what the target loses, it loses because the source
 * lacks it, not because the config does not list it.
 */
function sourceWorded(reason: string, source: string): string {
  return reason
    .replace(PRUNED_REASON, `not in ${source}`)
    .replace(UNLISTED_DOCUMENT_REASON, `pruneDocuments: not on this label in ${source}`)
    .replace(UNLISTED_FOLDER_REASON, `pruneFolders: not on this label in ${source}`);
}

/**
 * For `steward apply` of a saved plan: a promotion plan's desired state is rebuilt from its source,
 * which must not have changed since the plan was made (else a StewardError); any other plan's
 * config is returned as it is.
 */
export async function reloadPromotion(io: CommandIo, loaded: LoadedConfig, plan: Plan, options: Pick<ConnectionOptions, 'debug'>): Promise<LoadedConfig> {
  if (plan.promotion === undefined) return loaded;
  const { from, fromBaseUrl, sourceDigest, requireHealthy } = plan.promotion;
  // The source's token goes only where the config sends it, or to this machine: the file's word is not enough.
  const configured = sourceEnvironment(loaded, from).baseUrl;
  if (!reachableOnPlanWord(fromBaseUrl, configured)) {
    throw new StewardError(
      'plan-file.base-url',
      `this promotion plan read ${from} at ${fromBaseUrl}, which is neither ${from}'s baseUrl (${configured}) nor this machine; ${from}'s API token is not sent to an address only the plan file names`,
      'user',
      { hint: `make the promotion plan against ${configured}: steward diff --env ${plan.environment} --against ${from} --out FILE`, details: { planBaseUrl: fromBaseUrl, baseUrl: configured } },
    );
  }
  let source: ReturnType<typeof connectSource>;
  try {
    source = connectSource(io, loaded, from, { baseUrl: fromBaseUrl, debug: options.debug });
  } catch (error) {
    if (!(error instanceof StewardError) || error.code !== 'auth.missing-token') throw error;
    throw new StewardError(error.code, `this is a promotion plan from ${from}, which apply reads again to check it has not changed; ${error.message}`, 'user', { hint: error.hint });
  }
  try {
    // A plan made with --require-healthy is applied under it: a routine that broke since is refused.
    const promotion = await readPromotion(loaded, { name: from, api: source.api }, { requireHealthy: requireHealthy === true });
    if (promotion.sourceDigest !== sourceDigest) {
      throw new StewardError('plan-file.source-changed', `${from} has changed since this promotion plan was made; nothing was applied`, 'user', {
        hint: `make a new one: steward diff --env ${plan.environment} --against ${from} --out FILE`,
      });
    }
    return promotion.loaded;
  } finally {
    await source.client.close();
  }
}

/** A client for the source environment: its own token variable, and its own base URL override. */
function connectSource(io: CommandIo, loaded: LoadedConfig, name: string, options: { baseUrl: string | undefined; debug: boolean | undefined }) {
  const environment = sourceEnvironment(loaded, name);
  const baseUrl = options.baseUrl ?? environment.baseUrl;
  const connection = connect(io, { ...loaded, environmentName: name, environment }, { baseUrl, debug: options.debug });
  return { ...connection, baseUrl };
}

/** Registers `steward diff` (promotion). */
export function registerDiff(program: Command, io: () => CommandIo = processIo): void {
  strictOption(connectionOptions(program.command('diff')))
    .description('promotion: what --env would change to match the live state of --against, as a plan')
    .requiredOption('-a, --against <name>', 'the environment to promote from (e.g. playground)')
    .option('--against-base-url <url>', "override the --against environment's base URL (e.g. a local emulator)")
    .option('-o, --out <file>', 'save the plan for `steward apply --env NAME FILE`')
    .option('--json', 'print the plan as JSON (the plan-file format)')
    .option('--markdown [file]', 'print the plan as Markdown (or append it to FILE, e.g. $GITHUB_STEP_SUMMARY)')
    .option('--detailed-exitcode', 'exit 0 when there are no differences, 2 when there are, 3 when something is deleted or replaced, 4 when a policy rule is broken (without it: 0, or 1 on an error or a broken policy rule)')
    .option('--show-all', 'list every step of large bulk changes')
    .option('--require-healthy', 'refuse to promote while a routine carried is disabled by the platform or its last run failed in --against')
    .action(async (options: DiffOptions) => {
      process.exitCode = await runDiff(options, io());
    });
}
