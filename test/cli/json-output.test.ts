// Machine output is pure: with --json, whatever happens (a valid or invalid config, a wrong
// --env, a missing token, a refused plan file, a target that names nothing), stdout is exactly
// one JSON document, also under GitHub Actions, whose workflow commands go to stderr instead.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { copyExample, type Result } from '../e2e/helpers.js';
import { runProgram, TOKENS } from './run.js';

let production: RunningEmulator;
let playground: RunningEmulator;
let good: string;
let broken: string;

beforeAll(async () => {
  [production, playground] = await Promise.all([startEmulator({ dataset: 'demo' }), startEmulator({ dataset: 'demo-playground' })]);
  good = await copyExample('gitops');
  broken = await copyExample('gitops');
  await writeFile(join(broken, 'labels.yaml'), 'version: 1\nlabels:\n  - name: finance\n    colour: "#ff0000"\n');
});
afterAll(async () => {
  await Promise.all([production.close(), playground.close()]);
  await Promise.all([good, broken].map((directory) => rm(directory, { recursive: true, force: true })));
});

/** `steward ARGS` through the real program, under GitHub Actions, in `cwd`. */
async function steward(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Result> {
  return runProgram(args, { GITHUB_ACTIONS: 'true', CI: 'true', ...TOKENS, ...options.env }, options.cwd ?? good);
}

/** Exactly one JSON document on stdout (JSON.parse refuses anything before or after it). */
function document(result: Result): Record<string, unknown> {
  expect(result.out.trim().startsWith('{'), result.out).toBe(true);
  return JSON.parse(result.out) as Record<string, unknown>;
}

const target = () => ['--base-url', production.url];
const promotion = () => ['--env', 'production', '--against', 'playground', '--base-url', production.url, '--against-base-url', playground.url];

describe('with --json and GITHUB_ACTIONS=true, stdout is one JSON document', () => {
  it.each([
    ['validate', () => ['validate', '--config', '.', '--json'], 0],
    ['plan', () => ['plan', '--config', '.', '--env', 'production', '--json', '--detailed-exitcode', ...target()], 3],
    ['drift', () => ['drift', '--config', '.', '--env', 'production', '--json', ...target()], 2],
    ['diff', () => ['diff', '--config', '.', ...promotion(), '--json'], 0],
    ['apply --dry-run', () => ['apply', '--config', '.', '--env', 'production', '--dry-run', '--json', ...target()], 0],
  ])('%s on a valid config', async (_, args, code) => {
    const result = await steward(args());
    expect(result.code, result.err).toBe(code);
    document(result);
  });

  it('apply of a saved plan, and a second apply of it', async () => {
    const directory = await copyExample('gitops');
    const instance = await startEmulator({ dataset: 'demo' });
    try {
      const at = ['--config', '.', '--base-url', instance.url];
      expect((await steward(['plan', ...at, '--env', 'production', '--out', 'plan.json', '--json'], { cwd: directory })).code).toBe(0);
      const applied = await steward(['apply', 'plan.json', ...at, '--json'], { cwd: directory });
      expect(applied.code, applied.err).toBe(0);
      expect(document(applied)).toHaveProperty('results');
      const again = await steward(['apply', 'plan.json', ...at, '--json'], { cwd: directory });
      document(again);
    } finally {
      await instance.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it.each([
    ['validate', () => ['validate', '--config', '.', '--json']],
    ['plan', () => ['plan', '--config', '.', '--env', 'production', '--json', ...target()]],
    ['drift', () => ['drift', '--config', '.', '--env', 'production', '--json', ...target()]],
    ['diff', () => ['diff', '--config', '.', ...promotion(), '--json']],
    ['apply', () => ['apply', '--config', '.', '--env', 'production', '--auto-approve', '--json', ...target()]],
  ])('%s on an invalid config: the annotations go to stderr', async (_, args) => {
    const result = await steward(args(), { cwd: broken });
    expect(result.code).toBe(1);
    const parsed = document(result);
    expect(result.err).toMatch(/^::error file=[^,]*labels\.yaml,line=4,col=5,title=steward /m);
    const message = JSON.stringify(parsed);
    expect(message).not.toContain('above');
    expect(message).not.toContain('::error');
  });

  it('the error of an invalid config speaks JSON: a count and the diagnostics, not "(1 error above)"', async () => {
    const result = await steward(['plan', '--config', '.', '--env', 'production', '--json', ...target()], { cwd: broken });
    const { error } = document(result) as { error: { code: string; message: string; diagnostics: { code: string; line: number }[] } };
    expect(error.code).toBe('config.invalid');
    expect(error.message).toBe(`the configuration at ${broken} is not valid (1 error)`);
    expect(error.diagnostics).toEqual([expect.objectContaining({ line: 4 })]);
  });

  it.each([
    ['a wrong --env', ['plan', '--config', '.', '--env', 'prod', '--json'], {}, 'cli.env-unknown'],
    ['no --env where several are declared', ['drift', '--config', '.', '--json'], {}, 'cli.env-required'],
    ['a missing token', ['plan', '--config', '.', '--env', 'production', '--json'], { STEWARD_PRODUCTION_TOKEN: '' }, 'auth.missing-token'],
    ['a target that names nothing', ['plan', '--config', '.', '--env', 'production', '--json', '--target', 'labels/nope'], {}, 'cli.target'],
    ['a plan file that does not exist', ['apply', 'missing.json', '--config', '.', '--json'], {}, undefined],
    ['no config found', ['validate', '--json'], {}, 'config.not-found'],
    ['a wrong --env for validate', ['validate', '--config', '.', '--env', 'prod', '--json'], {}, 'cli.env-unknown'],
    ['diff without --against (a usage error)', ['diff', '--config', '.', '--env', 'production', '--json'], {}, 'cli.usage'],
    ['an unknown option', ['plan', '--config', '.', '--json', '--colour'], {}, 'cli.usage'],
  ])('%s', async (_, args, env, code) => {
    const result = await steward([...args, ...(args[0] === 'validate' ? [] : target())], { env });
    expect(result.code).toBe(1);
    const { error } = document(result) as { error: { code: string } };
    if (code !== undefined) expect(error.code).toBe(code);
  });
});
