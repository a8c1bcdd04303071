// `steward version`: the version as Terraform and kubectl users ask for it (`terraform version`),
// beside `--version`/`-v`; `--json` for scripts that record which steward made a plan.
import type { Command } from 'commander';
import { processIo, STEWARD_VERSION, type CommandIo } from './io.js';

/** Prints `steward 0.1.0 (Node v20.19.0)`, or `{"version", "node"}` with --json; exits 0. */
export function runVersion(options: { json?: boolean }, io: CommandIo): number {
  if (options.json === true) io.stdout(`${JSON.stringify({ version: STEWARD_VERSION, node: process.version }, null, 2)}\n`);
  else io.stdout(`steward ${STEWARD_VERSION} (Node ${process.version})\n`);
  return 0;
}

/** Registers `steward version`. */
export function registerVersion(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('version')
    .description("print steward's version (the same as --version and -v)")
    .option('--json', 'print it as JSON: {"version", "node"}')
    .action((options: { json?: boolean }) => {
      process.exitCode = runVersion(options, io());
    });
}
