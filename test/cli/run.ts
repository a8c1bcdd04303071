// The real program run in-process, as a user types a command: its output captured, its exit code
// returned (commander's usage errors included), tokens for the demo datasets in its environment.
import { CommanderError } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { captureIo, PRODUCTION_TOKEN, type Result } from '../e2e/helpers.js';

/** The tokens of the demo datasets, under their environments' variable names. */
export const TOKENS = { STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN, STEWARD_PLAYGROUND_TOKEN: 'playground-org-admin-token' };

/** `steward ARGS` through the real program, in `cwd`, as a user types it, with the demo tokens. */
export async function steward(args: string[], cwd: string = process.cwd()): Promise<Result> {
  return runProgram(args, { ...TOKENS }, cwd);
}

/** `steward ARGS` through the real program, in `cwd`, with exactly the process environment `env`. */
export async function runProgram(args: string[], env: Record<string, string | undefined>, cwd: string): Promise<Result> {
  const io = captureIo(env, cwd);
  const program = buildProgram(() => io);
  for (const command of [program, ...program.commands]) command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'steward', ...args]);
    return io.result(Number(process.exitCode ?? 0));
  } catch (error) {
    if (error instanceof CommanderError) return io.result(error.exitCode);
    throw error;
  } finally {
    process.exitCode = undefined;
  }
}
