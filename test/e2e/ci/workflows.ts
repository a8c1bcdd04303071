// Reads the GitHub Actions workflows of examples/ci/ as data: jobs, steps, their environment with
// `${{ secrets.X }}`-style values resolved from test values, and the `steward ...` commands of a
// step's `run:` script, expanded the way the runner's bash would expand them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { expandWord, simpleCommands } from './shellWords.js';

export const CI_EXAMPLES = fileURLToPath(new URL('../../../examples/ci/', import.meta.url));
export const WORKFLOW_FILES = ['plan.yml', 'apply.yml', 'drift.yml', 'promote.yml'] as const;
/** The steward GitHub Action's script, which composes the command each action step runs. */
export const ACTION_SCRIPT = fileURLToPath(new URL('../../../action/steward-action.sh', import.meta.url));
/** How the recipes refer to the steward Action. */
export const STEWARD_ACTION = /^acme\/steward@v\d+$/;

export type Env = Record<string, string>;

/** The repository secrets, as the recipes' README asks for them (the emulators' demo tokens). */
export const SECRETS: Env = {
  STEWARD_PRODUCTION_TOKEN: 'demo-org-admin-token',
  STEWARD_PLAYGROUND_TOKEN: 'playground-org-admin-token',
};
/** What `github.token` reads as in the tests. */
export const GITHUB_TOKEN = 'ghs_test-workflow-token';

export interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Env;
  with?: Record<string, string | number | boolean>;
  'continue-on-error'?: boolean;
}

export interface Job {
  name?: string;
  if?: string;
  needs?: string | string[];
  environment?: string | { name: string; url?: string };
  permissions?: Record<string, string> | string;
  concurrency?: Concurrency;
  outputs?: Env;
  env?: Env;
  'runs-on': string;
  'timeout-minutes'?: number;
  steps: Step[];
}

export type Concurrency = string | { group: string; 'cancel-in-progress'?: boolean };

export interface Workflow {
  file: string;
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string> | string;
  concurrency?: Concurrency;
  defaults?: { run?: { shell?: string } };
  env?: Env;
  jobs: Record<string, Job>;
}

/** The workflow file examples/ci/NAME, parsed. */
export function loadWorkflow(file: string): Workflow {
  const text = readFileSync(`${CI_EXAMPLES}${file}`, 'utf8');
  return { file, ...(parse(text) as Omit<Workflow, 'file'>) };
}

/** The step of `job` whose id (or else name) is `ref`; throws when there is none. */
export function stepOf(workflow: Workflow, job: string, ref: string): Step {
  const steps = jobOf(workflow, job).steps;
  const step = steps.find((candidate) => candidate.id === ref) ?? steps.find((candidate) => candidate.name === ref);
  if (step === undefined) throw new Error(`${workflow.file}: job ${job} has no step ${ref}`);
  return step;
}

/** The job `id`; throws when there is none. */
export function jobOf(workflow: Workflow, id: string): Job {
  const job = workflow.jobs[id];
  if (job === undefined) throw new Error(`${workflow.file}: no job ${id}`);
  return job;
}

/** A context value as an expression reads it: a string, or an object of them (`github.event...`). */
export type ContextValue = string | { [name: string]: ContextValue };

/** Values for the expression contexts a workflow's `env:` may use. */
export interface ExpressionContext {
  secrets: Env;
  vars: Env;
  github: { [name: string]: ContextValue };
  /** `steps.<id>.outputs.<name>` of the steps that ran before. */
  steps?: { [name: string]: ContextValue };
  /** `needs.<job>.result` and `needs.<job>.outputs.<name>`. */
  needs?: { [name: string]: ContextValue };
}

const CONTEXTS = ['secrets', 'vars', 'github', 'steps', 'needs'] as const;

/**
 * Replaces every `${{ context.path }}` in `value` (a plain property path, no operators); throws
 * for anything else or another context. Unset values read as empty strings, as on GitHub.
 */
export function evaluate(value: string, context: ExpressionContext): string {
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const path = /^([a-z]+)((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)$/.exec(expression);
    const root = path?.[1] as (typeof CONTEXTS)[number] | undefined;
    if (path === null || root === undefined || !CONTEXTS.includes(root)) throw new Error(`unsupported expression in env: \${{ ${expression} }}`);
    let resolved: ContextValue | undefined = context[root];
    for (const name of path[2]!.slice(1).split('.')) resolved = typeof resolved === 'object' ? resolved[name] : undefined;
    if (typeof resolved === 'object') throw new Error(`\${{ ${expression} }} is an object, not a value`);
    return resolved ?? '';
  });
}

/** The environment a step's script sees from the workflow: workflow, job, then step `env:`. */
export function stepEnv(workflow: Workflow, job: string, step: Step, context: ExpressionContext): Env {
  const layers = [workflow.env ?? {}, jobOf(workflow, job).env ?? {}, step.env ?? {}];
  const env: Env = {};
  for (const layer of layers) for (const [name, value] of Object.entries(layer)) env[name] = evaluate(String(value), context);
  return env;
}

/** A `steward ...` command of a script: its source text and arguments after expansion. */
export interface StewardCommand {
  source: string;
  args: string[];
}

/** Every command of `script` that runs steward, in order, with its words expanded from `env`. */
export function stewardCommands(script: string, env: Env): StewardCommand[] {
  return simpleCommands(script)
    .filter((command) => command.words[0]?.source === 'steward')
    .map((command) => {
      const scoped: Env = { ...env };
      for (const assignment of command.assignments) scoped[assignment.name] = expandWord(assignment.value, env);
      const args = command.words.slice(1).map((word) => expandWord(word.parts, scoped));
      return { source: command.words.map((word) => word.source).join(' '), args };
    });
}

/** Every `run:` script of the workflow, with where it is. */
export function runScripts(workflow: Workflow): { job: string; step: Step; script: string }[] {
  return Object.entries(workflow.jobs).flatMap(([job, { steps }]) =>
    steps.filter((step) => step.run !== undefined).map((step) => ({ job, step, script: step.run! })),
  );
}

/** Every string in the workflow with its path (`jobs.plan.steps.3.env.TOKEN`). */
export function stringsOf(value: unknown, path: string[] = []): { path: string[]; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsOf(item, [...path, String(index)]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => stringsOf(item, [...path, key]));
  }
  return [];
}

/** Whether a step uses the steward Action. */
export function isStewardAction(step: Step): boolean {
  return step.uses !== undefined && STEWARD_ACTION.test(step.uses);
}

/** The INPUT_* variables the Action's script gets for a step's `with:`, expressions evaluated. */
export function actionInputs(step: Step, context: ExpressionContext): Env {
  const inputs: Env = {};
  for (const [name, value] of Object.entries(step.with ?? {})) {
    if (name === 'github-token') continue;
    inputs[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] = evaluate(String(value), context);
  }
  return inputs;
}

/** Runs a part of the Action's script (argv, token-variable, prepare, report CODE) in bash. */
export function actionScript(args: string[], env: Env): string {
  return execFileSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', ACTION_SCRIPT, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
  });
}

/**
 * The steward command a step of the steward Action runs, exactly as its script composes it, and
 * the variable its `token` input is exported under; none for `command: install`.
 */
export function actionCommand(step: Step, inputs: Env, runnerTemp: string): (StewardCommand & { tokenVariable: string }) | undefined {
  if (inputs.INPUT_COMMAND === 'install') return undefined;
  const env = { ...inputs, RUNNER_TEMP: runnerTemp };
  const args = actionScript(['argv'], env).split('\0').slice(0, -1);
  return { source: `${step.uses} (${inputs.INPUT_COMMAND ?? 'plan'})`, args, tokenVariable: actionScript(['token-variable'], env) };
}

/** Every step that uses the steward Action, with where it is. */
export function actionSteps(workflow: Workflow): { job: string; step: Step }[] {
  return Object.entries(workflow.jobs).flatMap(([job, { steps }]) => steps.filter(isStewardAction).map((step) => ({ job, step })));
}
