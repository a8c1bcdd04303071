// `steward show PLANFILE`: a saved plan, as `steward plan` showed it (text, --json or --markdown),
// for a reviewer or a CI step that holds the file but no token and no network. It reads the file
// as `apply FILE` does (an unreadable or edited file gets the same error) and needs no config.
// Exit codes: 0, or with --detailed-exitcode those of `steward plan` for the same plan; 1 error.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { StewardError } from '../errors.js';
import { loadPlan } from '../engine/planFile.js';
import type { ApplyCost } from '../engine/cost.js';
import type { Plan } from '../model/plan.js';
import { processIo, reportError, type CommandIo } from './io.js';
import { emitPlan, planExitCode, type PlanOptions } from './plan.js';

export type ShowOptions = Pick<PlanOptions, 'json' | 'markdown' | 'detailedExitcode' | 'showAll' | 'color'>;

/** Runs `steward show PLANFILE`; returns the exit code. Reads nothing but the file. */
export async function runShow(planFile: string, options: ShowOptions, io: CommandIo): Promise<number> {
  try {
    if (options.json && options.markdown !== undefined && options.markdown !== false) {
      throw new StewardError('cli.options', 'choose one of --json and --markdown', 'user');
    }
    const plan = asPlanned(await loadPlan(resolve(io.cwd, planFile)));
    const cost = applyCostOf(plan);
    await emitPlan(plan, { ...options, ...(cost === undefined ? {} : { applyCost: cost }) }, io);
    return options.detailedExitcode === true ? planExitCode(plan, true) : 0;
  } catch (error) {
    return reportError(io, error, options.json === true);
  }
}

/**
 * The plan as `steward plan --json` printed it: the file adds only the seal of the identities,
 * which proves to apply which key made them and means nothing to a reader.
 */
function asPlanned(plan: Plan): Plan {
  if (plan.identities?.seal === undefined) return plan;
  const { seal: _seal, ...identities } = plan.identities;
  return { ...plan, identities };
}

/** The cost line `steward plan` printed, from what the plan recorded (absent from older files, and from promotions). */
function applyCostOf(plan: Plan): ApplyCost | undefined {
  if (plan.applyCost === undefined || plan.requestsPerMinute === undefined) return undefined;
  return { ...plan.applyCost, requestsPerMinute: plan.requestsPerMinute };
}

export function registerShow(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('show')
    .argument('<planfile>', 'a plan saved with `steward plan --out FILE` (or `diff --out`, `drift --out`)')
    .description('show a saved plan as `steward plan` did, offline: no config, token or network needed')
    .option('--json', 'print the plan as JSON (as `steward plan --json`)')
    .option('--markdown [file]', 'print the plan as Markdown (or append it to FILE, e.g. $GITHUB_STEP_SUMMARY)')
    .option('--detailed-exitcode', "exit as `steward plan --detailed-exitcode` would for this plan: 0 no changes, 2 changes, 3 something deleted or replaced, 4 a policy rule broken")
    .option('--show-all', 'list every step of large bulk changes')
    .option('--no-color', 'never colour the output')
    .action(async (planFile: string, options: ShowOptions) => {
      process.exitCode = await runShow(planFile, options, io());
    });
}
