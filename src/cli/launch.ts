// Start-up: `steward validate` should not pay for importing plan, apply, export and the
// emulator. When the first argument names a command, only that command's module is imported
// and registered; anything else (no command, --help, --version, help, an unknown word, and
// `completion`, which lists every command) builds the whole program, so help lists them all. test/cli/launch.test.ts keeps COMMANDS and
// program.ts in step.
import type { Command } from 'commander';
import { processIo, type CommandIo } from './io.js';
import { newProgram, withJsonUsageErrors } from './programBase.js';

type Register = (program: Command, io: () => CommandIo) => void;

/** Every command that can be registered alone, in help order, with how to import its registration. */
export const COMMANDS: readonly (readonly [string, () => Promise<Register>])[] = [
  ['init', async () => (await import('./init.js')).registerInit],
  ['validate', async () => (await import('./validate.js')).registerValidate],
  ['plan', async () => (await import('./plan.js')).registerPlan],
  ['show', async () => (await import('./show.js')).registerShow],
  ['schedule', async () => (await import('./schedule.js')).registerSchedule],
  ['apply', async () => (await import('./apply.js')).registerApply],
  ['drift', async () => (await import('./drift.js')).registerDrift],
  ['export', async () => (await import('./export.js')).registerExport],
  ['diff', async () => (await import('./diff.js')).registerDiff],
  ['emulator', async () => {
    const { registerEmulator } = await import('./emulator.js');
    return (program, io) => registerEmulator(program, { io });
  }],
  ['demo', async () => (await import('./demo.js')).registerDemo],
  ['schema', async () => (await import('./schema.js')).registerSchema],
  ['version', async () => (await import('./version.js')).registerVersion],
];

/** Commands that read the whole program (completion scripts list every command): built in full. */
const WHOLE_PROGRAM = new Set(['completion']);

/** The program for these arguments: one command when `argv[2]` names one, else all of them. */
export async function programFor(argv: readonly string[], io: () => CommandIo = processIo): Promise<Command> {
  const named = WHOLE_PROGRAM.has(argv[2] ?? '') ? undefined : COMMANDS.find(([name]) => name === argv[2]);
  if (named === undefined) return (await import('./program.js')).buildProgram(io);
  const program = newProgram();
  (await named[1]())(program, io);
  return withJsonUsageErrors(program, io);
}
