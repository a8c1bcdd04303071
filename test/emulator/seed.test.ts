// Seeds and built-in datasets: the demo datasets hold what the examples rely on, seed files
// load from YAML or JSON, and bad seeds or options fail with every problem named.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { datasetSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { seedToState } from '../../src/emulator/seed.js';
import { Api, aSeed } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'steward-seed-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function using<T>(emulator: Promise<RunningEmulator>, body: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const running = await emulator;
  try {
    return await body(running);
  } finally {
    await running.close();
  }
}

describe('built-in datasets', () => {
  it('demo holds the documented organization, users, models, documents, labels, limits and routines', () => {
    const state = seedToState(datasetSeed('demo'), 'demo');
    expect(state.organization.name).toBe('Acme Analytics');
    expect(state.users).toHaveLength(36);
    expect(state.users.filter((user) => user.role === 'ORG_ADMIN').map((user) => user.email)).toEqual(['ada@acme.example']);
    expect(state.users.find((user) => user.email === 'analyst30@acme.example')?.displayName).toBe('Analyst 30');
    expect(state.models.map((model) => [model.name, model.id, model.topics])).toEqual([
      ['Sales', '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30', ['orders', 'pipeline']],
      ['Marketing', 'a3d9c1e7-2f4b-4e8a-b6c5-0d1e2f3a4b5c', ['campaigns']],
    ]);
    expect(state.models[0]!.branches.map((branch) => branch.id)).toEqual(['0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f']);
    expect(state.groups.map((group) => [group.displayName, group.id, group.memberIds.length])).toEqual([
      ['Finance', 'fin7q2k', 2],
      ['Sales Ops', 'ops3m8x', 2],
      ['Analysts', 'ana4r6d', 30],
    ]);
    expect(state.documents).toHaveLength(126);
    expect(state.labels.map((label) => label.name)).toEqual(['finance', 'marketing', 'legacy-kpis', 'draft', 'obsolete']);
    expect(state.creditControls).toEqual({
      downgradeCredits: 8000, shutoffCredits: 10000, userDefaultCredits: 200, entityGroupDefaultCredits: null,
      accountCreditLimit: 12000, creditsUsed: 3120.5,
    });
    expect(Object.values(state.userCreditLimits).sort()).toEqual([100, 50, 500, null].sort());
    expect(state.userGroupCreditLimits).toEqual({ ops3m8x: 400, ana4r6d: 100 });
    expect(state.entityGroupCreditLimits).toEqual({ 'embed-partners': 1000, 'embed-trial': 50 });
    expect(state.routines.map((routine) => [routine.name, routine.disabled])).toEqual([
      ['Weekly revenue digest', false], ['Daily pipeline check', false], ['Old experiment', true], ["Grace's weekly KPIs", false],
    ]);
  });

  it('demo-playground has the same names and e-mails but different ids', () => {
    const demo = seedToState(datasetSeed('demo'), 'demo');
    const playground = seedToState(datasetSeed('demo-playground'), 'demo-playground');
    expect(playground.users.map((user) => user.email)).toEqual(demo.users.map((user) => user.email));
    expect(playground.documents.map((d) => d.identifier)).toEqual(demo.documents.map((d) => d.identifier));
    const overlap = (a: { id: string }[], b: { id: string }[]) => a.filter((x) => b.some((y) => y.id === x.id));
    expect(overlap(playground.users, demo.users)).toEqual([]);
    expect(overlap(playground.models, demo.models)).toEqual([]);
    expect(overlap(playground.groups, demo.groups)).toEqual([]);
    expect(playground.models.map((model) => model.id)).toEqual(['c7e2b4a1-9d3f-4a6b-8e1c-2f5d7a9b0c3e', 'e4f6a8b0-1c3d-4e5f-9a7b-6c8d0e2f4a61']);
  });

  it('answers the playground tokens on demo-playground and not the demo ones', async () => {
    await using(startEmulator({ dataset: 'demo-playground' }), async (emulator) => {
      for (const token of ['playground-org-admin-token', 'playground-org-member-token', 'playground-ada-personal-token', 'playground-grace-personal-token']) {
        expect((await new Api(emulator.url, token).get('/api/v1/whoami')).status).toBe(200);
      }
      expect((await new Api(emulator.url, 'demo-org-admin-token').get('/api/v1/whoami')).status).toBe(401);
      expect(emulator.description.tokens.map((token) => token.demoToken)).toContain('playground-org-admin-token');
    });
  });

  it('yields the same ids on every start', () => {
    const a = seedToState(datasetSeed('demo'), 'demo');
    const b = seedToState(datasetSeed('demo'), 'demo');
    expect(b).toEqual(a);
  });
});

describe('seed files', () => {
  it('loads a YAML seed and describes its tokens by name only', async () => {
    const path = join(directory, 'tiny.yaml');
    writeFileSync(path, stringify(aSeed()));
    await using(startEmulator({ data: path }), async (emulator) => {
      expect((await new Api(emulator.url, 'tiny-org-admin').get('/api/v1/whoami')).body.user.membershipId).toBe(emulator.state.userId('ada@tiny.example'));
      expect(emulator.description).toMatchObject({ source: { kind: 'file', path }, organization: 'Tiny Co', users: 2 });
      expect(emulator.description.tokens).toEqual([
        { name: 'admin key', type: 'organization', role: 'ORG_ADMIN', summary: 'organization token, ORG_ADMIN' },
        { name: 'bob token', type: 'personal', role: 'MEMBER', summary: 'personal token, MEMBER' },
      ]);
      expect(JSON.stringify(emulator.description)).not.toContain('tiny-org-admin');
    });
  });

  it('loads the seed example of docs/emulator.md, with every field it shows', async () => {
    const page = readFileSync(fileURLToPath(new URL('../../docs/emulator.md', import.meta.url)), 'utf8');
    const example = /## Seed files[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)?.[1];
    expect(example).toBeDefined();
    const path = join(directory, 'docs-example.yaml');
    writeFileSync(path, example!);
    await using(startEmulator({ data: path }), async (emulator) => {
      const digest = emulator.state.routines('admin@example.org')[0]!;
      expect(digest).toMatchObject({ name: 'Weekly revenue digest', recipientCount: 2, topicName: 'orders' });
      expect(emulator.state.routines('mo@example.org')[0]).toMatchObject({ disabled: true, recipientCount: 1 });
      expect(emulator.state.documentLabels('d0c00001')).toEqual(['finance']);
      const admin = new Api(emulator.url, 'example-org-admin-token');
      const entities = await admin.patch('/api/v1/ai/credit-controls/entity-groups', { entityGroups: [{ entity: 'partners-eu', creditLimit: 5 }] });
      expect(entities.status).toBe(200);
      const scim = await admin.get('/api/scim/v2/embed/users', { filter: 'embedExternalId co "partner"' });
      expect(scim.body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['partner@example.org']);
      expect((await new Api(emulator.url, 'example-mo-personal-token').get('/api/v1/whoami')).body.orgRole).toBe('MEMBER');
    });
  });

  it('loads a JSON seed', async () => {
    const path = join(directory, 'tiny.json');
    writeFileSync(path, JSON.stringify(aSeed()));
    await using(startEmulator({ data: path }), async (emulator) => {
      expect(emulator.description.users).toBe(2);
    });
  });

  it('lists every structural problem with its path', () => {
    const broken = {
      ...aSeed(),
      colour: 'blue',
      users: [{ id: 'not-a-uuid', email: 'ada@tiny.example', displayName: 'Ada', role: 'OWNER' }],
      apiTokens: [
        { name: 'k', token: 'tiny-personal-1', type: 'personal', role: 'ORG_ADMIN', owner: 'ada@tiny.example' },
        { name: 'o', token: 'tiny-organization', type: 'organization', owner: 'ada@tiny.example' },
      ],
    };
    expect(() => seedToState(broken, 'broken.yaml')).toThrow(
      [
        'seed broken.yaml is invalid:',
        '  - (top level): unknown field `colour`',
        '  - /users/0/id: must match format "uuid"',
        '  - /users/0/role: must be one of "MEMBER", "ORG_ADMIN"',
        "  - /apiTokens/0/role: is only allowed for organization keys (user-scoped tokens carry their user's role)",
        '  - /apiTokens/1: missing required field `role`',
      ].join('\n'),
    );
  });

  it('lists every cross-reference problem at once', () => {
    const broken = aSeed({
      groups: [{ id: 'g1', displayName: 'G', members: ['nobody@tiny.example'] }],
      labels: [{ name: 'finance' }, { name: 'Finance' }],
      documents: [{ identifier: 'd1', name: 'D', labels: ['missing'] }],
      routines: [
        {
          owner: 'bob@tiny.example',
          name: 'R',
          prompt: 'P',
          schedule: '* * ? * * *',
          timezone: 'Nowhere/City',
          modelId: '33333333-3333-4333-8333-333333333333',
          topicName: 'nope',
          destination: { type: 'slack', recipientId: 'U0USER0001', slackRecipientType: 'channel' },
        },
      ],
      userCreditLimits: [{ user: 'ghost@tiny.example', creditLimit: 5 }],
      creditControls: { downgradeCredits: 10, shutoffCredits: 5 },
    });
    expect(() => seedToState(broken, 'broken.yaml')).toThrow(
      [
        'seed broken.yaml is invalid:',
        '  - /groups/0/members/0: no user with e-mail `nobody@tiny.example`',
        '  - /labels/1/name: duplicate label name `finance` (first at /labels/0/name)',
        '  - /documents/0/labels/0: no label named `missing` in /labels',
        '  - /routines/0/schedule: runs more often than hourly (the minute field must name a single minute)',
        '  - /routines/0/timezone: unknown timezone `Nowhere/City`',
        '  - /routines/0/owner: bob@tiny.example has no role with USE_AI on model Core',
        '  - /routines/0/topicName: model Core has no topic `nope`',
        '  - /routines/0/destination/recipientId: not a Slack channel id (C or G followed by at least 6 upper-case letters or digits)',
        '  - /creditControls/downgradeCredits: must be less than or equal to shutoffCredits',
        '  - /userCreditLimits/0/user: no user with e-mail `ghost@tiny.example`',
      ].join('\n'),
    );
  });

  it('rejects a routine whose schedule never runs, as the API does', () => {
    const routine = {
      owner: 'ada@tiny.example',
      name: 'Leap day report',
      prompt: 'P',
      timezone: 'UTC',
      modelId: '33333333-3333-4333-8333-333333333333',
      destination: { type: 'email' as const, recipientEmails: ['ada@tiny.example'] },
    };
    const seed = aSeed({
      routines: [
        { ...routine, schedule: '0 8 30 2 ? *' },
        { ...routine, name: 'Last century', schedule: '0 8 ? * MON 1999' },
      ],
    });
    expect(() => seedToState(seed, 'dead.yaml')).toThrow(
      [
        'seed dead.yaml is invalid:',
        '  - /routines/0/schedule: never runs (no date matches it)',
        '  - /routines/1/schedule: never runs again (every date it matches is in the past)',
      ].join('\n'),
    );
  });

  it('names a missing file and a file that is not YAML', async () => {
    await expect(startEmulator({ data: join(directory, 'absent.yaml') })).rejects.toThrow(`seed file ${join(directory, 'absent.yaml')} does not exist`);
    const path = join(directory, 'bad.yaml');
    writeFileSync(path, 'users: [unclosed');
    await expect(startEmulator({ data: path })).rejects.toThrow(/is not valid YAML or JSON/);
  });
});

describe('options', () => {
  it.each([
    [{ port: 70000 }, 'port must be a whole number from 0 to 65535, got 70000'],
    [{ latencyMs: -1 }, 'latency must be a number of milliseconds >= 0, got -1'],
    [{ requestsPerMinute: 0 }, 'requests per minute must be a whole number >= 1, got 0'],
    [{ routineUpdateMethod: 'post' as never }, 'routineUpdateMethod must be put or patch, got post'],
    [{ dataset: 'prod' as never }, 'unknown dataset prod (built-in datasets: demo, demo-playground)'],
    [{ dataset: 'demo' as const, data: aSeed() }, 'give either data (a seed) or dataset (a built-in one), not both'],
    [{ faults: ['write:1=boom'] }, 'invalid fault `write:1=boom`: not in the fault syntax'],
  ])('rejects %j', async (options, message) => {
    await expect(startEmulator(options)).rejects.toThrow(message);
  });

  it('explains a port that is taken', async () => {
    await using(startEmulator(), async (first) => {
      await expect(startEmulator({ port: first.port })).rejects.toThrow(`cannot listen on 127.0.0.1:${first.port}: the address is already in use`);
    });
  });
});
