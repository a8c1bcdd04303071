// Builds the commander program: one file per command in this folder, each registered with one
// line below. Kept apart from main.ts so tests can build the program without running it.
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { registerApply } from './apply.js';
import { registerDemo } from './demo.js';
import { registerEmulator } from './emulator.js';
import { registerPlan } from './plan.js';
import { registerValidate } from './validate.js';

const packageJson = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'),
) as { version: string };

export function buildProgram(): Command {
  const program = new Command('steward')
    .description(
      'Declarative configuration for an analytics platform: AI credit controls, per-user ' +
        'credit limits, AI routines and labels, kept in git and applied through the REST API.',
    )
    .version(packageJson.version)
    .showHelpAfterError();
  // Commands: one registration line each.
  registerValidate(program);
  registerPlan(program);
  registerApply(program);
  registerEmulator(program);
  registerDemo(program);
  return program;
}
