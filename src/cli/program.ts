// Builds the commander program: one file per command in this folder, each registered with one
// line below (and in launch.ts, which imports only the command being run). Kept apart from
// main.ts so tests can build the program without running it.
import type { Command } from 'commander';
import { registerApply } from './apply.js';
import { registerCompletion } from './completion.js';
import { processIo, type CommandIo } from './io.js';
import { newProgram, withJsonUsageErrors } from './programBase.js';
import { registerDemo } from './demo.js';
import { registerDiff } from './diff.js';
import { registerDrift } from './drift.js';
import { registerEmulator } from './emulator.js';
import { registerExport } from './export.js';
import { registerInit } from './init.js';
import { registerPlan } from './plan.js';
import { registerSchedule } from './schedule.js';
import { registerSchema } from './schema.js';
import { registerShow } from './show.js';
import { registerValidate } from './validate.js';
import { registerVersion } from './version.js';

/** The program; `io` is where commands read and write (tests pass their own). */
export function buildProgram(io: () => CommandIo = processIo): Command {
  const program = newProgram();
  // Commands: one registration line each.
  registerInit(program, io);
  registerValidate(program, io);
  registerPlan(program, io);
  registerShow(program, io);
  registerSchedule(program, io);
  registerApply(program, io);
  registerDrift(program, io);
  registerExport(program, io);
  registerDiff(program, io);
  registerEmulator(program, { io });
  registerDemo(program, io);
  registerSchema(program, io);
  registerVersion(program, io);
  registerCompletion(program, io);
  return withJsonUsageErrors(program, io);
}
