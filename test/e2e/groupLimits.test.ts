// User group and entity group credit limits end to end, against both emulator profiles and both
// answers to the OPEN `userGroupId` form: create, change, unlimited, back to the default, prune;
// every apply converges to an empty plan; sets and resets go in one bulk PATCH per 1000 changes;
// the two demo deployments, whose group ids differ, are the same by name (export, promotion); a
// name the deployment lacks stops the plan at its file:line:col with the candidates.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDiff } from '../../src/cli/diff.js';
import { runExport } from '../../src/cli/export.js';
import { EXIT } from '../../src/cli/plan.js';
import { datasetSeed, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { captureIo, PRODUCTION_TOKEN, PROFILES, Steward } from './helpers.js';

const PLAYGROUND_TOKEN = 'playground-org-admin-token';
const USER_GROUPS = '/api/v1/ai/credit-controls/user-groups';
const ENTITY_GROUPS = '/api/v1/ai/credit-controls/entity-groups';

const ENVIRONMENTS = `version: 1
environments:
  production:
    baseUrl: https://acme.example.com
    tokenEnv: STEWARD_PRODUCTION_TOKEN
    requestsPerMinute: 6000
  playground:
    baseUrl: https://acme-playground.example.com
    tokenEnv: STEWARD_PLAYGROUND_TOKEN
    requestsPerMinute: 6000
`;

// Against the demo dataset: Sales Ops 400 and Analysts 100; embed-partners 1000 and embed-trial 50.
const LIMITS = `version: 1
userGroupCreditLimits:
  - group: Finance
    creditLimit: 1500
  - group: Sales Ops
    creditLimit: null
  - group: Analysts
    creditLimit: default
entityGroupCreditLimits:
  - entity: embed-partners
    creditLimit: 2500
  - entity: embed-resellers
    creditLimit: null
prune:
  entityGroupCreditLimits: true
`;

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()));
});

async function configDirectory(limits: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-group-limits-'));
  await writeFile(join(directory, 'environments.yaml'), ENVIRONMENTS);
  await writeFile(join(directory, 'limits.yaml'), limits);
  return directory;
}

async function stewardAgainst(options: EmulatorOptions, limits: string, environment: 'production' | 'playground' = 'production'): Promise<Steward> {
  const emulator = await startEmulator({ ...(options.data === undefined ? { dataset: environment === 'production' ? 'demo' : 'demo-playground' } : {}), ...options });
  emulators.push(emulator);
  const env = { STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN, STEWARD_PLAYGROUND_TOKEN: PLAYGROUND_TOKEN };
  return new Steward(emulator, await configDirectory(limits), environment, env);
}

function patches(steward: Steward, route: string): number {
  return steward.emulator.stats().byRoute[`PATCH ${route}`] ?? 0;
}

describe.each(PROFILES)('user group and entity group credit limits (%s profile)', (profile) => {
  it('creates, changes, makes unlimited and resets in one bulk PATCH per kind, then plans nothing', async () => {
    const steward = await stewardAgainst({ profile }, LIMITS);
    const planned = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    const groupIds = Object.fromEntries(['Finance', 'Sales Ops', 'Analysts'].map((name) => [name, steward.emulator.state.snapshot().groups.find((group) => group.displayName === name)!.id]));
    // Resets run with the changes of their kind (one PATCH carries both), in the order of the ids.
    expect(planned.steps.map((step) => `${step.action} ${step.id} ${step.key}`)).toEqual([
      `delete userGroupCreditLimits/${groupIds.Analysts} Analysts`,
      `create userGroupCreditLimits/${groupIds.Finance} Finance`,
      `update userGroupCreditLimits/${groupIds['Sales Ops']} Sales Ops`,
      'update entityGroupCreditLimits/embed-partners embed-partners',
      'create entityGroupCreditLimits/embed-resellers embed-resellers',
      'delete entityGroupCreditLimits/embed-trial embed-trial',
    ]);

    const human = await steward.plan();
    expect(human.code).toBe(EXIT.destructive);
    expect(human.out).toContain('+   user group credit limit "Finance": 1,500\n');
    expect(human.out).toContain('~   user group credit limit "Sales Ops": 400 → unlimited\n');
    expect(human.out).toContain('-   user group credit limit "Analysts": 100 → default (reset to the default limit)\n');
    expect(human.out).toContain('-   entity group credit limit "embed-trial": 50 → default (pruned: not in the config; resets to the default limit)\n');
    // Three names: page 1 of the groups listing, which holds the demo's groups, is one request per
    // plan (three queries by name would be three); one list of each kind of limit.
    const { byRoute } = steward.emulator.stats();
    expect(byRoute['GET /api/scim/v2/groups']).toBe(2 * 1);
    expect(byRoute[`GET ${USER_GROUPS}`]).toBe(2);

    const applied = await steward.apply();
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toContain('Apply: 6 done, 0 already applied, 0 failed, 0 skipped.');
    expect(patches(steward, USER_GROUPS)).toBe(1);
    expect(patches(steward, ENTITY_GROUPS)).toBe(1);
    expect(steward.emulator.state.userGroupCreditLimits()).toEqual(
      [
        { userGroupId: groupIds.Finance, creditLimit: 1500 },
        { userGroupId: groupIds['Sales Ops'], creditLimit: null },
      ].sort((a, b) => (a.userGroupId! < b.userGroupId! ? -1 : 1)),
    );
    expect(steward.emulator.state.entityGroupCreditLimits()).toEqual([
      { entity: 'embed-partners', creditLimit: 2500 },
      { entity: 'embed-resellers', creditLimit: null },
    ]);
    expect((await steward.plan()).code).toBe(EXIT.ok);

    // THEN a change and a prune of a group by name: the pruned group is named in the plan.
    await writeFile(join(steward.directory, 'limits.yaml'), `version: 1
userGroupCreditLimits:
  - group: Finance
    creditLimit: 900
prune:
  userGroupCreditLimits: true
`);
    const scimBefore = steward.emulator.stats().byRoute['GET /api/scim/v2/groups'] ?? 0;
    const pruning = await steward.plan();
    // One name, and more limits live than declared: pruning names the others from the listing,
    // which names Finance too (a query by name first would be one request more).
    expect(steward.emulator.stats().byRoute['GET /api/scim/v2/groups']! - scimBefore).toBe(1);
    expect(pruning.out).toContain('~   user group credit limit "Finance": 1,500 → 900\n');
    expect(pruning.out).toContain('-   user group credit limit "Sales Ops": unlimited → default (pruned: not in the config; resets to the default limit)\n');
    expect((await steward.plan({ target: ['userGroupCreditLimits/Finance'], json: true })).out).not.toContain('Sales Ops');
    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.userGroupCreditLimits()).toEqual([{ userGroupId: groupIds.Finance, creditLimit: 900 }]);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });

  it('applies one config to both demo deployments, whose group ids differ, and promotion finds nothing to change', async () => {
    const production = await stewardAgainst({ profile }, LIMITS, 'production');
    const playground = new Steward(
      await startEmulator({ dataset: 'demo-playground', profile }).then((emulator) => (emulators.push(emulator), emulator)),
      production.directory,
      'playground',
      production.env,
    );
    for (const steward of [production, playground]) {
      expect((await steward.apply()).code).toBe(0);
      expect((await steward.plan()).code).toBe(EXIT.ok);
    }
    const finance = (steward: Steward) => steward.emulator.state.snapshot().groups.find((group) => group.displayName === 'Finance')!.id;
    expect(finance(production)).not.toBe(finance(playground));
    expect(production.emulator.state.userGroupCreditLimits().find((limit) => limit.userGroupId === finance(production))?.creditLimit).toBe(1500);
    expect(playground.emulator.state.userGroupCreditLimits().find((limit) => limit.userGroupId === finance(playground))?.creditLimit).toBe(1500);

    const io = captureIo(production.env, production.directory);
    const connection = { config: production.directory, env: 'production', against: 'playground', baseUrl: production.emulator.url, againstBaseUrl: playground.emulator.url };
    const promotion = io.result(await runDiff({ ...connection, detailedExitcode: true }, io));
    expect(promotion.err).toBe('');
    expect(promotion.code).toBe(EXIT.ok);

    // AND an export of either deployment names the groups, and plans to nothing against the other.
    const exportIo = captureIo(playground.env, playground.directory);
    const exported = exportIo.result(await runExport({ config: playground.directory, env: 'playground', baseUrl: playground.emulator.url, kind: ['userGroupCreditLimits', 'entityGroupCreditLimits'] }, exportIo));
    expect(exported.code).toBe(0);
    expect(exported.out).toContain('userGroupCreditLimits:\n  - group: Finance\n    creditLimit: 1500\n  - group: Sales Ops\n    creditLimit: null\n');
    const roundTrip = await configDirectory(exported.out);
    await writeFile(join(roundTrip, 'limits.yaml'), exported.out);
    for (const steward of [production, playground]) {
      const again = new Steward(steward.emulator, roundTrip, steward.environment, steward.env);
      expect((await again.plan()).code).toBe(EXIT.ok);
    }
  });

  it('stops the plan at the position of a group name the deployment lacks or has twice, listing the groups', async () => {
    const steward = await stewardAgainst({ profile }, `version: 1
userGroupCreditLimits:
  - group: Finance
    creditLimit: 10
  - group: Finanse
    creditLimit: 10
  - group: finance team
    creditLimit: 10
`);
    const unknown = await steward.plan();
    expect(unknown.code).toBe(1);
    const file = join(steward.directory, 'limits.yaml');
    expect(unknown.err).toBe(
      `Error: ${file}:5:12: 2 user group credit limits name groups this deployment cannot resolve:\n` +
        `  ${file}:5:12: user group "Finanse" is not a group of this deployment; its groups: "Analysts", "Finance", "Sales Ops" (did you mean "Finance"?)\n` +
        `  ${file}:7:12: user group "finance team" is not a group of this deployment; its groups: "Analysts", "Finance", "Sales Ops"\n` +
        'Hint: display names are matched exactly, case included; the list above is what this deployment has\n',
    );
    expect(steward.emulator.stats().writes).toBe(0);

    const seed = datasetSeed('demo');
    const twice = await stewardAgainst({ profile, data: { ...seed, groups: [...seed.groups!, { id: 'fin2dup', displayName: 'Finance' }] } }, LIMITS);
    const ambiguous = await twice.plan({ json: true });
    expect(ambiguous.code).toBe(1);
    const envelope = JSON.parse(ambiguous.out) as { error: { code: string; message: string; position: { line: number; col: number } } };
    expect(envelope.error).toMatchObject({ code: 'plan.ambiguous-group', position: { line: 3, col: 12 } });
    expect(envelope.error.message).toBe('user group "Finance" names 2 groups of this deployment (ids fin7q2k, fin2dup)');
  });

  it('writes 2,001 entity group limits in three bulk PATCHes of at most 1000', async () => {
    const entities = Array.from({ length: 2001 }, (_, index) => `embed-${String(index).padStart(4, '0')}`);
    const seed = datasetSeed('demo');
    const many = `version: 1\nentityGroupCreditLimits:\n${entities.map((entity, index) => `  - entity: ${entity}\n    creditLimit: ${index}\n`).join('')}`;
    const steward = await stewardAgainst({ profile, data: { ...seed, entityGroups: [...seed.entityGroups!, ...entities] } }, many);
    const applied = await steward.apply();
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('Apply: 2001 done');
    expect(patches(steward, ENTITY_GROUPS)).toBe(3);
    expect(steward.emulator.state.entityGroupCreditLimits()).toHaveLength(2003);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });
});

describe('a server whose credit-limit API keys user groups by uuid (userGroupIdForm: uuid)', () => {
  it('converges with groups given by userGroupId, and refuses names with the reason, writing nothing for them', async () => {
    const probe = await stewardAgainst({ userGroupIdForm: 'uuid' }, 'version: 1\n');
    const uuidOf = (name: string) => probe.emulator.state.snapshot().groups.find((group) => group.displayName === name)!.uuid;
    const byId = await stewardAgainst({ userGroupIdForm: 'uuid' }, `version: 1
userGroupCreditLimits:
  - userGroupId: ${uuidOf('Finance')}
    creditLimit: 1500
  - userGroupId: ${uuidOf('Analysts')}
    creditLimit: default
`);
    const applied = await byId.apply();
    expect(applied.code, applied.out).toBe(0);
    expect(applied.out).toContain('Apply: 2 done');
    expect((await byId.plan()).code).toBe(EXIT.ok);

    const byName = await stewardAgainst({ userGroupIdForm: 'uuid' }, `version: 1
userGroupCreditLimits:
  - group: Finance
    creditLimit: 1500
`);
    const plan = await byName.plan();
    // The live list shows uuids while SCIM names the group by a short id: the plan warns.
    expect(plan.out).toMatch(/lists user group credit limits under uuids .*"Finance" is fin7q2k.*name them by `userGroupId:` instead/);
    const failed = await byName.apply();
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('User group not found: fin7q2k');
    expect(failed.out).toContain('steward sent the SCIM id of each group named by display name ("Finance" as fin7q2k)');
    expect(byName.emulator.state.userGroupCreditLimits()).toEqual([
      { userGroupId: 'ana4r6d', creditLimit: 100 },
      { userGroupId: 'ops3m8x', creditLimit: 400 },
    ]);
  });
});
