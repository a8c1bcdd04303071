// CLI conventions a Terraform user reaches for: `steward version` and -v, and exit codes that
// Terraform's wrappers read as 0/1/2: plan and diff without --detailed-exitcode exit 0 or 1 only
// (a plan that breaks a policy rule is 1, as apply would fail), with it 0/2/3 and 4 for a policy.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEWARD_VERSION } from '../../src/cli/io.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { copyExample } from '../e2e/helpers.js';
import { steward } from './run.js';

describe('steward version', () => {
  it.each([['-v'], ['--version'], ['-V']])('%s prints the version and exits 0', async (flag) => {
    expect(await steward([flag])).toEqual({ code: 0, out: `${STEWARD_VERSION}\n`, err: '' });
  });

  it('is a command too, in words and as JSON', async () => {
    expect(await steward(['version'])).toEqual({ code: 0, out: `steward ${STEWARD_VERSION} (Node ${process.version})\n`, err: '' });
    const json = await steward(['version', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({ version: STEWARD_VERSION, node: process.version });
  });

  it('help shows -v, not -V', async () => {
    const help = await steward(['--help']);
    expect(help.out).toContain("-v, --version               print steward's version");
    expect(help.out).not.toContain('-V');
    expect(help.out).toMatch(/^ {2}version \[options\] +print steward's version/m);
  });
});

describe('exit codes of plan and diff', () => {
  let production: RunningEmulator;
  let playground: RunningEmulator;
  let clean: string;
  let refused: string;
  beforeAll(async () => {
    [production, playground] = await Promise.all([startEmulator({ dataset: 'demo' }), startEmulator({ dataset: 'demo-playground' })]);
    clean = await copyExample('gitops');
    refused = await copyExample('gitops');
    // No change at all is allowed: every plan with a step breaks this rule.
    await writeFile(join(refused, 'policies.yaml'), 'version: 1\npolicies:\n  maxChanges: 0\n');
  });
  afterAll(async () => {
    await Promise.all([production.close(), playground.close()]);
    await Promise.all([clean, refused].map((directory) => rm(directory, { recursive: true, force: true })));
  });

  const plan = (...extra: string[]) => ['plan', '--config', '.', '--env', 'production', '--base-url', production.url, ...extra];
  const diff = (...extra: string[]) => ['diff', '--config', '.', '--env', 'production', '--against', 'playground', '--base-url', production.url, '--against-base-url', playground.url, ...extra];

  it('plan: 0 with changes, 1 when a policy rule is broken; with --detailed-exitcode 3 and 4', async () => {
    expect((await steward(plan(), clean)).code).toBe(0);
    const broken = await steward(plan(), refused);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain('Policy violations (1): apply refuses this plan');
    expect((await steward(plan('--json'), refused)).code).toBe(1);
    expect((await steward(plan('--detailed-exitcode'), clean)).code).toBe(3);
    expect((await steward(plan('--detailed-exitcode'), refused)).code).toBe(4);
  });

  it('diff: 0 with differences, 1 when a policy rule is broken; with --detailed-exitcode 2 or 3, and 4', async () => {
    // The playground gets the example's changes, so production differs from it.
    const applied = await steward(['apply', '--config', '.', '--env', 'playground', '--base-url', playground.url, '--auto-approve'], clean);
    expect(applied.code, applied.err).toBe(0);
    expect((await steward(diff(), clean)).code).toBe(0);
    expect([2, 3]).toContain((await steward(diff('--detailed-exitcode'), clean)).code);
    expect((await steward(diff(), refused)).code).toBe(1);
    expect((await steward(diff('--detailed-exitcode'), refused)).code).toBe(4);
  });

  it('drift keeps its codes: 2 for drift, also when its reconciling plan breaks a policy rule', async () => {
    expect((await steward(['drift', '--config', '.', '--env', 'production', '--base-url', production.url], refused)).code).toBe(2);
  });
});
