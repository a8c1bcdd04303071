// Builds the commander program: one file per command in this folder, each registered with one
// line below. Kept apart from main.ts so tests can build the program without running it.
import { Command } from 'commander';
import { registerApply } from './apply.js';
import { registerCompletion } from './completion.js';
import { processIo, STEWARD_VERSION, type CommandIo } from './context.js';
import { registerDemo } from './demo.js';
import { registerDiff } from './diff.js';
import { registerDrift } from './drift.js';
import { registerEmulator } from './emulator.js';
import { registerExport } from './export.js';
import { registerInit } from './init.js';
import { registerPlan } from './plan.js';
import { registerSchema } from './schema.js';
import { registerValidate } from './validate.js';
import { inertJson } from '../render/inert.js';

/** The program; `io` is where commands read and write (tests pass their own). */
export function buildProgram(io: () => CommandIo = processIo): Command {
  const program = new Command('steward')
    .description(
      'Declarative configuration for an analytics platform: AI credit controls, per-user ' +
        'credit limits, AI routines and labels, kept in git and applied through the REST API.',
    )
    .version(STEWARD_VERSION)
    .showHelpAfterError();
  // Commands: one registration line each.
  registerInit(program, io);
  registerValidate(program, io);
  registerPlan(program, io);
  registerApply(program, io);
  registerDrift(program, io);
  registerExport(program, io);
  registerDiff(program, io);
  registerEmulator(program, { io });
  registerDemo(program, io);
  registerSchema(program, io);
  registerCompletion(program, io);
  // A usage error (unknown option, missing --against) under --json is a JSON error too: stdout
  // carries exactly one JSON document whatever went wrong; the text still goes to stderr.
  for (const command of [program, ...program.commands]) {
    command.configureOutput({
      outputError: (text, write) => {
        write(text);
        // rawArgs: what parse() was given (commander keeps it; its typings do not declare it).
        if ((program as unknown as { rawArgs: string[] }).rawArgs.includes('--json')) {
          const envelope = { error: { code: 'cli.usage', fault: 'user', message: text.replace(/^error: /, '').trim() } };
          io().stdout(`${inertJson(JSON.stringify(envelope, null, 2))}\n`);
        }
      },
    });
  }
  return program;
}
