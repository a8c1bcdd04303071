// An organization key tied to no user (gaps.md, OPEN: whoami answers no `user`, `null`, or a user
// whose id and e-mail are null). steward then relies on no "own" routines: every routine names its
// owner and is listed, created and changed with `userId`; one without `owner:` is an error at its
// position that says what to add. Plan, apply, re-plan, drift, export and promotion all work.
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDiff } from '../../src/cli/diff.js';
import { runDrift } from '../../src/cli/drift.js';
import { EXIT, runPlan } from '../../src/cli/plan.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { Deployments, planDirectory } from './deployments.js';
import { captureIo, copyExample, KEY_CREATOR, PROFILES, Steward } from './helpers.js';

const FORMS = ['absent', 'null', 'null-fields'] as const;

let deployments: Deployments | undefined;
afterEach(async () => {
  await deployments?.close();
  deployments = undefined;
});

/** Both deployments whose organization keys whoami ties to no user, in the given form. */
async function start(form: (typeof FORMS)[number], profile: (typeof PROFILES)[number] = 'other'): Promise<Deployments> {
  deployments = await Deployments.start({ profile, orgKeyUser: form });
  return deployments;
}

describe.each(FORMS)('an organization key whose whoami user is %s', (form) => {
  it.each(PROFILES)('plans, applies, re-plans to nothing and finds no drift, passing userId for every owner (%s profile)', async (profile) => {
    const both = await start(form, profile);
    const first = await both.plan('production');
    // (stderr may carry a retry notice on a loaded machine; errors are what must not be there)
    expect(first.err).not.toContain('Error');
    expect(first.code).toBe(EXIT.destructive);
    expect(first.out).toContain(`routine "${KEY_CREATOR}/Old experiment" (pruned: not in the config)`);
    const applied = await both.apply('production');
    expect(applied.err).not.toContain('Error');
    expect(applied.code).toBe(0);
    const again = await both.plan('production');
    expect(again.code).toBe(EXIT.ok);
    expect(again.out).toContain('No changes. The live state matches the configuration.');
    const io = captureIo(both.env, both.gitops);
    expect(await runDrift({ config: both.gitops, env: 'production', baseUrl: both.production.url }, io)).toBe(EXIT.ok);
    // Nothing was refused: every routine request named its user.
    expect(both.production.stats().byStatus['400']).toBeUndefined();
    const routines = both.production.state.routines(KEY_CREATOR).map((routine) => routine.name).sort();
    expect(routines).toEqual(['Daily pipeline check', 'Monthly marketing recap', 'Weekly revenue digest']);
    expect(both.production.state.routines('grace@acme.example').map((routine) => routine.name)).toEqual(["Grace's weekly KPIs"]);
  });

  it('says which routines lack an owner, where, and what to add, before reading any routine, user or label', async () => {
    const both = await start(form);
    const ownerless = await copyExample('gitops');
    const io = captureIo(both.env, ownerless);
    const code = await runPlan({ config: ownerless, env: 'production', baseUrl: both.production.url }, io);
    const { err } = io.result(code);
    expect(code).toBe(EXIT.error);
    const file = join(ownerless, 'routines.yaml');
    // Each routine's position is its `name:` key, in its list item.
    const lines = (await readFile(file, 'utf8')).split('\n');
    const at = (name: string) => `${file}:${lines.indexOf(`  - name: ${name}`) + 1}:5`;
    expect(err).toBe(
      `Error: ${at('Weekly revenue digest')}: 3 routines have no \`owner:\`, and this organization API key is tied to no user (whoami names none), so steward cannot tell whose they are:\n` +
        `  ${at('Weekly revenue digest')}: routine "Weekly revenue digest"\n` +
        `  ${at('Daily pipeline check')}: routine "Daily pipeline check"\n` +
        `  ${at('Monthly marketing recap')}: routine "Monthly marketing recap"\n` +
        'Hint: add `owner: <e-mail of the user whose routine it is>` to each, or use a personal token of that user\n',
    );
    expect(both.production.stats().byRoute['GET /api/v1/whoami']).toBe(1);
    expect(Object.keys(both.production.stats().byRoute).filter((route) => /routines|scim|labels|documents|credit/.test(route))).toEqual([]);
  });

  it('gives the positions in the --json error envelope as well', async () => {
    const both = await start(form);
    const ownerless = await copyExample('gitops');
    const text = await readFile(join(ownerless, 'routines.yaml'), 'utf8');
    // Only the digest lacks an owner now.
    await writeFile(join(ownerless, 'routines.yaml'), text.replace(/^ {2}- name: (?!Weekly revenue digest).*\n(?! {4}owner:)/gm, (line) => `${line}    owner: ${KEY_CREATOR}\n`));
    const io = captureIo(both.env, ownerless);
    const code = await runPlan({ config: ownerless, env: 'production', baseUrl: both.production.url, json: true }, io);
    const envelope = JSON.parse(io.result(code).out) as { error: Record<string, unknown> };
    const file = join(ownerless, 'routines.yaml');
    const position = { file, line: (await readFile(file, 'utf8')).split('\n').indexOf('  - name: Weekly revenue digest') + 1, col: 5 };
    expect(envelope.error).toMatchObject({ code: 'plan.routine-owner', position, positions: [position], routines: ['Weekly revenue digest'] });
    expect(envelope.error.message).toMatch(/^routine "Weekly revenue digest" has no `owner:`/);
  });

  it('says so for the source of a promotion too, naming it, before reading its routines', async () => {
    const both = await start(form);
    const ownerless = await copyExample('gitops');
    const io = captureIo(both.env, ownerless);
    const code = await runDiff({ config: ownerless, env: 'production', against: 'playground', baseUrl: both.production.url, againstBaseUrl: both.playground.url }, io);
    expect(code).toBe(EXIT.error);
    expect(io.result(code).err).toMatch(
      /^Error: \S+routines\.yaml:\d+:5: 3 routines have no `owner:`, and the organization API key of playground is tied to no user \(whoami names none\)/,
    );
    expect(both.playground.stats().byRoute['GET /api/v1/ai/routines']).toBeUndefined();
  });

  it('refuses to prune routines when the config names no owner: the key has no routines of its own', async () => {
    const both = await start(form);
    const directory = await mkdtemp(join(tmpdir(), 'steward-prune-'));
    await copyFile(join(both.gitops, 'environments.yaml'), join(directory, 'environments.yaml'));
    await writeFile(join(directory, 'routines.yaml'), 'version: 1\nprune:\n  routines: true\n');
    const result = await planDirectory(both, directory, 'production');
    expect(result.code).toBe(EXIT.error);
    expect(result.err).toContain('`prune: routines: true` deletes the undeclared routines of the owners the config names, and it names none');
    expect(both.production.stats().byRoute['GET /api/v1/ai/routines']).toBeUndefined();
  });

  it('exports the routines of the owners the config names, each with owner:, and the export plans to no changes', async () => {
    const both = await start(form);
    const exported = await both.export('production');
    expect(exported.code).toBe(0);
    expect(exported.out.split('\n').filter((line) => line.startsWith('# ')).join(' ')).toContain(`the routines of ${KEY_CREATOR}, grace@acme.example,`);
    expect(exported.out).toContain(`  - name: Old experiment\n    owner: ${KEY_CREATOR}\n`);
    expect(exported.out).not.toMatch(/^ {2}- name: .*\n(?! {4}owner:)(?= {4}description:)/m);
    const directory = await both.besideEnvironments(exported.out);
    const plan = await planDirectory(both, directory, 'production');
    expect(plan.err).toBe('');
    expect(plan.out).toContain('No changes. The live state matches the configuration.');
  });

  it('exports no routines, and says why, when nobody is named as owner', async () => {
    const both = await start(form);
    const directory = await mkdtemp(join(tmpdir(), 'steward-bare-'));
    await copyFile(join(both.gitops, 'environments.yaml'), join(directory, 'environments.yaml'));
    const exported = await both.export('production', { config: directory });
    expect(exported.code).toBe(0);
    expect(exported.err).toContain(
      'Warning: routines are not exported: this organization API key is tied to no user (whoami names none), so it has no routines of its own, and no routine owner was named; name whose routines to export with --owner EMAIL (repeatable)',
    );
    expect(exported.out).not.toContain('\nroutines:');
    const withOwner = await both.export('production', { config: directory, kind: ['routines'], owner: ['grace@acme.example'] });
    expect(withOwner.out).toContain("  - name: Grace's weekly KPIs\n    owner: grace@acme.example\n");
    expect(withOwner.out).not.toContain('Old experiment');
  });

  it('promotes playground to production, and the promotion converges', async () => {
    const both = await start(form);
    expect((await both.apply('playground')).code).toBe(0);
    const planFile = join(both.gitops, 'promote.json');
    const made = await both.diff({ out: planFile });
    expect(made.err).toContain('Saved the promotion plan');
    const plan = JSON.parse(await readFile(planFile, 'utf8')) as Plan;
    // The promotion replaces "Daily pipeline check" (its topic changed in playground): said once;
    // what the playground has and the config does not declare is left to production's own plan.
    expect(plan.warnings.map((warning) => warning.code)).toEqual(['promote.undeclared', 'routines.replacement']);
    expect(plan.steps.filter((step) => step.kind === 'routines').every((step) => step.ref.ownerId !== undefined)).toBe(true);
    const applied = await both.apply('production', planFile);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    const again = await both.diff();
    expect(again.code).toBe(0);
    expect(again.out).toContain('No changes. production matches the live state of playground.');
  });
});

describe.each(PROFILES)('a personal token (%s profile)', (profile) => {
  it('keeps managing its own routines without owner: and without userId', async () => {
    const emulator = await startEmulator({ dataset: 'demo', profile });
    try {
      const directory = await copyExample('gitops');
      // A personal token acts only as its user, and resolves no e-mails: routines and labels only.
      const text = await readFile(join(directory, 'routines.yaml'), 'utf8');
      await writeFile(join(directory, 'routines.yaml'), text.slice(0, text.indexOf('  # Owned by Grace')) + 'prune:\n  routines: true\n');
      await writeFile(join(directory, 'credit.yaml'), 'version: 1\n');
      const steward = new Steward(emulator, directory, 'production', { STEWARD_PRODUCTION_TOKEN: 'demo-ada-personal-token' });
      const applied = await steward.apply();
      expect(applied.err).toBe('');
      expect(applied.code).toBe(0);
      expect((await steward.plan()).code).toBe(EXIT.ok);
      expect(emulator.state.routines(KEY_CREATOR).map((routine) => routine.name).sort()).toEqual(['Daily pipeline check', 'Monthly marketing recap', 'Weekly revenue digest']);
    } finally {
      await emulator.close();
    }
  });
});
