// One config, two deployments whose ids differ; targeting, drift, preflight and request cost;
// each against both emulator profiles (the two sides of gaps.md's open points).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDrift } from '../../src/cli/drift.js';
import { EXIT } from '../../src/cli/plan.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { captureIo, copyExample, creatorRoutineKey, gitopsAgainstDemo, keyHasUser, PRODUCTION_TOKEN, PROFILES, Steward, type EmulatorProfile } from './helpers.js';

const started: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((emulator) => emulator.close()));
});

async function steward(profile: EmulatorProfile): Promise<Steward> {
  const instance = await gitopsAgainstDemo({ profile });
  started.push(instance.emulator);
  return instance;
}

describe.each(PROFILES)('one config, production and playground (%s profile)', (profile) => {
  it('plans and converges against both deployments, whose ids differ', async () => {
    const directory = await copyExample('gitops', { namedOwners: !keyHasUser({ profile }) });
    const production = await startEmulator({ dataset: 'demo', profile });
    const playground = await startEmulator({ dataset: 'demo-playground', profile });
    started.push(production, playground);
    expect(production.state.userId('grace@acme.example')).not.toBe(playground.state.userId('grace@acme.example'));
    const env = { STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN, STEWARD_PLAYGROUND_TOKEN: 'playground-org-admin-token' };
    for (const [name, emulator] of [['production', production], ['playground', playground]] as const) {
      const target = new Steward(emulator, directory, name, env);
      const applied = await target.apply();
      expect(applied.code, applied.err).toBe(0);
      expect((await target.plan()).code).toBe(EXIT.ok);
    }
    // The playground protects its routines: "Old experiment" survives there, not in production.
    expect(playground.state.routines().map((routine) => routine.name)).toContain('Old experiment');
    expect(production.state.routines().map((routine) => routine.name)).not.toContain('Old experiment');
  });
});

describe.each(PROFILES)('targeting (%s profile)', (profile) => {
  it('reads and writes nothing of excluded kinds', async () => {
    const target = await steward(profile);
    const result = await target.apply(undefined, { target: ['labels'] });
    expect(result.code, result.err).toBe(0);
    const routes = Object.keys(target.emulator.stats().byRoute);
    expect(routes.filter((route) => /routines|credit-controls|scim/.test(route))).toEqual([]);
    expect(routes).toContain('PUT /api/v1/labels/{name}');
    const rest = await target.plan();
    expect(rest.out).not.toMatch(/label "/);
    expect(rest.out).toContain(`routine "${creatorRoutineKey({ profile }, 'Old experiment')}"`);
  });

  it('applies document links alone, creating the labels they need first', async () => {
    const target = await steward(profile);
    const result = await target.apply(undefined, { target: ['documentLabels'] });
    expect(result.code, result.out).toBe(0);
    expect(target.emulator.state.documentLabels('8f2e1d4c')).toContain('certified');
    expect(target.emulator.stats().byRoute['PUT /api/v1/labels/{name}']).toBeUndefined();
  });

  it('targets one object', async () => {
    const target = await steward(profile);
    const plan = await target.plan({ target: ['routines/Weekly revenue digest'] });
    expect(plan.code).toBe(EXIT.changes);
    expect(plan.out).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
  });
});

describe.each(PROFILES)('drift (%s profile)', (profile) => {
  it('exits 2 with a report when live differs, and 0 once it matches', async () => {
    const target = await steward(profile);
    const io = () => captureIo(target.env, target.directory);
    const options = { config: target.directory, env: 'production', baseUrl: target.emulator.url };
    const before = io();
    expect(await runDrift({ ...options, markdown: true }, before)).toBe(EXIT.changes);
    expect(before.result(0).out).toContain('### steward drift check for `production`');
    await target.apply();
    const after = io();
    expect(await runDrift(options, after)).toBe(EXIT.ok);
    expect(after.result(0).out).toContain('No drift. The live state matches the configuration.');
  });
});

describe.each(PROFILES)('preflight (%s profile)', (profile) => {
  it('says what a member key cannot do before reading anything of what the config manages', async () => {
    const target = await steward(profile);
    const member = new Steward(target.emulator, target.directory, 'production', { STEWARD_PRODUCTION_TOKEN: 'demo-org-member-token' });
    const result = await member.plan();
    expect(result.code).toBe(1);
    expect(result.err).toContain('creditControls, userCreditLimits, userGroupCreditLimits and entityGroupCreditLimits need an Organization Admin key; this key\'s organization role is MEMBER');
    // Only whoami and the look-ups of the routines' models by name (whoami checks their ids) come first.
    const routes = Object.keys(target.emulator.stats().byRoute);
    expect(routes).toContain('GET /api/v1/whoami');
    expect(routes.filter((route) => !route.startsWith('GET /api/v1/models') && route !== 'GET /api/v1/whoami')).toEqual([]);
  });

  it('says a personal token cannot resolve e-mails through SCIM', async () => {
    const target = await steward(profile);
    const personal = new Steward(target.emulator, target.directory, 'production', { STEWARD_PRODUCTION_TOKEN: 'demo-ada-personal-token' });
    const result = await personal.plan();
    expect(result.code).toBe(1);
    expect(result.err).toContain('users named by e-mail are resolved through SCIM, which needs an organization API key');
    expect(result.err).not.toContain('demo-ada-personal-token');
  });

  it('names a missing token variable', async () => {
    const target = await steward(profile);
    const result = await new Steward(target.emulator, target.directory, 'production', {}).plan();
    expect(result.err).toContain('the environment variable STEWARD_PRODUCTION_TOKEN is not set');
  });
});

describe.each(PROFILES)('errors a user meets (%s profile)', (profile) => {
  it('names a user id the instance does not know, before anything is written', async () => {
    const target = await steward(profile);
    const limits = join(target.directory, 'limits.yaml');
    await writeFile(limits, 'version: 1\nuserCreditLimits:\n  - userId: 00000000-0000-4000-8000-000000000000\n    creditLimit: 10\n');
    const result = await target.plan({ exclude: ['routines', 'labels', 'creditControls'] });
    expect(result.code).toBe(1);
    expect(result.err).toContain('this user id is not a user of the instance: 00000000-0000-4000-8000-000000000000');
  });

  it('says in the --json error that --env names no environment, and lists the declared ones', async () => {
    const target = await steward(profile);
    const result = await target.plan({ json: true, env: 'staging' });
    const envelope = JSON.parse(result.out) as { error: { code: string; message: string; environments: string[] } };
    expect(envelope.error.code).toBe('cli.env-unknown');
    expect(envelope.error.message).toMatch(/unknown environment `staging`/);
    expect(envelope.error.environments.length).toBeGreaterThan(0);
  });

  it('asks for one output form', async () => {
    const target = await steward(profile);
    const result = await target.plan({ json: true, markdown: true });
    expect(result.out).toContain('choose one of --json and --markdown');
    expect(target.emulator.stats().requests).toBe(0);
  });
});

describe.each(PROFILES)('cost (%s profile)', (profile) => {
  it('reads with list endpoints only, the documents by whichever read costs fewer requests', async () => {
    const target = await steward(profile);
    const plan = await target.plan();
    const { byRoute, requests } = target.emulator.stats();
    expect(plan.out).toContain(`Planning made ${requests} API requests.`);
    // Each routine model's topics are the one read by id (to check topicName).
    expect(Object.keys(byRoute).filter((route) => route.includes('{'))).toEqual(['GET /api/v1/models/{modelId}/topic']);
    // Document links are managed for marketing and draft (in use) and certified (not created yet,
    // so nothing to read); obsolete, about to be deleted, is on no document. A query per label in
    // use would cost two requests and then a listing to check that the three documents links are
    // added to exist; one listing of every document with include=labels (two pages of 100) does both.
    expect(byRoute['GET /api/v1/documents']).toBe(2);
    expect(byRoute['GET /api/v1/whoami']).toBe(1);
    expect(byRoute['GET /api/v1/labels']).toBe(1);
  });
});
