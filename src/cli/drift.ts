// `steward drift`: the scheduled check that the live state still matches git. It is a plan read
// as a report: exit 0 when nothing drifted, 2 when something did (1 on error), with the same
// JSON and Markdown forms, so a nightly job can fail, comment or open an issue. A reconciling plan
// that breaks a policy rule is still drift (exit 2): the report shows the violations, since
// applying it would need an override, but drift applies nothing.
import type { Command } from 'commander';
import { processIo, type CommandIo } from './context.js';
import { connectionOptions, EXIT, runPlan, strictOption, targetOptions, type PlanOptions } from './plan.js';

export type DriftOptions = Omit<PlanOptions, 'detailedExitcode' | 'purpose'>;

/** Runs the drift check; returns 0 (no drift), 2 (drift, whatever the policies say of its reconciling plan) or 1 (error). */
export async function runDrift(options: DriftOptions, io: CommandIo): Promise<number> {
  const code = await runPlan({ ...options, detailedExitcode: true, purpose: 'drift' }, io);
  return code === EXIT.destructive || code === EXIT.policy ? EXIT.changes : code;
}

export function registerDrift(program: Command, io: () => CommandIo = processIo): void {
  strictOption(targetOptions(connectionOptions(program.command('drift'))))
    .description('report where the live state differs from the configuration (exit 2 when it does)')
    .option('-o, --out <file>', 'save the reconciling plan for `steward apply FILE`')
    .option('--json', 'print the reconciling plan as JSON (the plan-file format)')
    .option('--markdown [file]', 'print the report as Markdown (or append it to FILE, e.g. $GITHUB_STEP_SUMMARY)')
    .option('--show-all', 'list every object of large bulk differences')
    .action(async (options: DriftOptions) => {
      process.exitCode = await runDrift(options, io());
    });
}
