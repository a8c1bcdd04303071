// Profiles: `vendor` (the vendor's documented contract) and `other` answer every OPEN point of
// gaps.md, and every point where the vendor's sources disagree, opposite ways, a knob given
// explicitly overrides its profile, bad values are refused with a message naming the option,
// and everything else (reset, stats, faults, state file, the built-in datasets) works alike in
// both profiles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DATASET_NAMES,
  datasetDocumentIdentifier,
  datasetTokens,
  EMULATOR_PROFILES,
  KNOB_NAMES,
  PROFILE_KNOBS,
  startEmulator,
  type EmulatorOptions,
  type EmulatorProfile,
  type RunningEmulator,
} from '../../src/emulator/index.js';
import { Api, aRoutine, expectDetail, expectError, TOKENS, useEmulator } from './helpers.js';

const ROUTINES = '/api/v1/ai/routines';
const directory = mkdtempSync(join(tmpdir(), 'steward-profiles-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function withEmulator<T>(options: EmulatorOptions, body: (emulator: RunningEmulator, api: Api) => Promise<T>): Promise<T> {
  const emulator = await startEmulator(options);
  try {
    return await body(emulator, new Api(emulator.url, TOKENS.orgAdmin));
  } finally {
    await emulator.close();
  }
}

describe('the profiles', () => {
  it('answer every knob of the server opposite ways; they share the window length and the data', () => {
    expect(EMULATOR_PROFILES).toEqual(['vendor', 'other']);
    // userGroupIdForm: under `uuid` groups cannot be named, so the shared examples pin both to `scim`;
    // scimUserIds: under `user` no e-mail resolves to a membership id, so both pin `membership`;
    // documentLabelsPathId: under `uuid` no document can be labelled, so both pin `identifier`.
    const shared = ['rateLimitWindowMs', 'documentIdentifiers', 'userGroupIdForm', 'scimUserIds', 'documentLabelsPathId'];
    for (const name of KNOB_NAMES) {
      if (shared.includes(name)) expect(PROFILE_KNOBS.other[name], name).toBe(PROFILE_KNOBS.vendor[name]);
      else expect(PROFILE_KNOBS.other[name], name).not.toEqual(PROFILE_KNOBS.vendor[name]);
    }
  });

  it('start as vendor unless told, and describe the answers in force', async () => {
    await withEmulator({}, async (emulator) => {
      expect(emulator.description).toMatchObject({ profile: 'vendor', knobs: PROFILE_KNOBS.vendor, differences: [] });
      // The vendor's documents: update by PUT only, undocumented keys refused, the seven credit-control fields.
      expect(emulator.description.knobs).toMatchObject({ routineUpdateMethod: 'put', unknownKeys: 'refuse', entityGroupDefaultCredits: false });
    });
    await withEmulator({ profile: 'other' }, async (emulator) => {
      expect(emulator.description.profile).toBe('other');
      expect(emulator.description.knobs).toEqual({
        orgKeyUser: 'null-fields',
        routinesRequireUserId: true,
        documentLabelsFilter: 'any',
        rateLimitWindow: 'fixed',
        rateLimitWindowMs: 60_000,
        sendRetryAfter: false,
        routineUpdateMethod: 'patch',
        unknownKeys: 'ignore',
        entityGroupDefaultCredits: true,
        labelDeleteInUse: 'unlink',
        modelNameFilter: 'contains',
        userGroupIdForm: 'scim',
        scimUserIds: 'membership',
        documentLabelsPathId: 'identifier',
        documentIdentifiers: 'shared',
        creditUsage: false,
      });
      // Every knob but the four shared ones, the window's two counted once.
      expect(emulator.description.differences).toHaveLength(11);
    });
  });

  it('let each knob override the profile, in both directions', async () => {
    await withEmulator({ profile: 'other', orgKeyUser: 'creator', labelDeleteInUse: 'conflict' }, async (emulator) => {
      expect(emulator.description.knobs).toEqual({ ...PROFILE_KNOBS.other, orgKeyUser: 'creator', labelDeleteInUse: 'conflict' });
    });
    await withEmulator({ profile: 'vendor', documentLabelsFilter: 'any', rateLimitWindowMs: 2000 }, async (emulator) => {
      expect(emulator.description.knobs).toEqual({ ...PROFILE_KNOBS.vendor, documentLabelsFilter: 'any', rateLimitWindowMs: 2000 });
      expect(emulator.description.differences).toEqual(['documents labels=a,b matches ANY of them', 'sliding 2 s rate-limit windows']);
    });
  });

  it('answer as overridden, and as the profile everywhere else', async () => {
    await withEmulator({ profile: 'other', orgKeyUser: 'creator', routinesRequireUserId: false, labelDeleteInUse: 'conflict' }, async (emulator, api) => {
      expect((await api.get('/api/v1/whoami')).body.user.membershipId).toBe(emulator.state.userId('ada@acme.example'));
      expect((await api.get(ROUTINES)).body.records).toHaveLength(3);
      expectError(await api.delete('/api/v1/labels/draft'), 409, 'Cannot delete label that is applied to documents');
      // Not overridden: profile other's PATCH, and its silence about undocumented keys.
      const digest = emulator.state.routines('ada@acme.example')[0]!;
      expect((await api.patch(`${ROUTINES}/${digest.id}`, { name: 'x' })).body.name).toBe('x');
      expect((await api.get('/api/v1/labels', { sort: 'name' })).status).toBe(200);
      const listed = await api.get('/api/v1/documents', { labels: 'marketing,draft' });
      expect(listed.body.records).toHaveLength(2);
    });
    await withEmulator({ profile: 'vendor', documentLabelsFilter: 'any' }, async (emulator, api) => {
      expect((await api.get('/api/v1/documents', { labels: 'marketing,draft' })).body.records).toHaveLength(2);
      expect((await api.get('/api/v1/whoami')).body.user.membershipId).toBe(emulator.state.userId('ada@acme.example'));
      expectError(await api.delete('/api/v1/labels/draft'), 409, 'Cannot delete label that is applied to documents');
      const digest = emulator.state.routines('ada@acme.example')[0]!;
      expectError(await api.patch(`${ROUTINES}/${digest.id}`, { name: 'x' }), 405, /Method PATCH is not allowed/);
      expectDetail(await api.get('/api/v1/labels', { sort: 'name' }), 400, "Bad Request: formErrors: Unrecognized key(s) in object: 'sort'");
    });
  });

  it.each([
    [{ profile: 'strict' }, 'profile must be vendor or other, got strict'],
    [{ orgKeyUser: 'nobody' }, 'orgKeyUser must be one of creator, absent, null, null-fields, got nobody'],
    [{ routinesRequireUserId: 'yes' }, 'routinesRequireUserId must be true or false, got yes'],
    [{ documentLabelsFilter: 'some' }, 'documentLabelsFilter must be all or any, got some'],
    [{ rateLimitWindow: 'rolling' }, 'rateLimitWindow must be sliding or fixed, got rolling'],
    [{ rateLimitWindowMs: 0 }, 'rateLimitWindowMs must be a whole number of milliseconds >= 1, got 0'],
    [{ rateLimitWindowMs: 2.5 }, 'rateLimitWindowMs must be a whole number of milliseconds >= 1, got 2.5'],
    [{ sendRetryAfter: 'no' }, 'sendRetryAfter must be true or false, got no'],
    [{ routineUpdateMethod: 'post' }, 'routineUpdateMethod must be put or patch, got post'],
    [{ unknownKeys: 'drop' }, 'unknownKeys must be refuse or ignore, got drop'],
    [{ entityGroupDefaultCredits: 'yes' }, 'entityGroupDefaultCredits must be true or false, got yes'],
    [{ scimUserIds: 'email' }, 'scimUserIds must be membership or user, got email'],
    [{ labelDeleteInUse: 'cascade' }, 'labelDeleteInUse must be conflict or unlink, got cascade'],
    [{ documentIdentifiers: 'same' }, 'documentIdentifiers must be shared or per-deployment, got same'],
  ])('refuse %j with a message naming the option', async (options, message) => {
    await expect(startEmulator(options as EmulatorOptions)).rejects.toMatchObject({ code: 'emulator.option.invalid', message });
  });
});

describe('profile other as a whole', () => {
  const other = useEmulator({ profile: 'other', requestsPerMinute: 1000 });
  const grace = () => other.emulator.state.userId('grace@acme.example');
  const digest = () => other.emulator.state.routines('ada@acme.example').find((routine) => routine.name === 'Weekly revenue digest')!;

  it('ties organization keys to no user', async () => {
    expect((await other.api.get('/api/v1/whoami')).body.user).toEqual({ id: null, membershipId: null });
  });

  it('requires userId from organization keys on routine endpoints', async () => {
    expectDetail(await other.api.get(ROUTINES), 400, 'Bad Request: userId: required for organization API keys');
    expect((await other.api.get(ROUTINES, { userId: grace() })).body.records).toHaveLength(1);
  });

  it('reads labels=a,b as ANY of them', async () => {
    const listed = await other.api.get('/api/v1/documents', { labels: 'marketing,draft' });
    expect(listed.body.records.map((document: { identifier: string }) => document.identifier)).toEqual(['5e4d3c2b', '1b2c3d4e']);
  });

  it('updates routines by the generated client\'s PATCH as well as by the documented PUT', async () => {
    const ada = { userId: other.emulator.state.userId('ada@acme.example') };
    const { name, prompt, schedule } = digest();
    expect((await other.api.put(`${ROUTINES}/${digest().id}`, { name, prompt, schedule, isActive: false }, ada)).body.disabled).toBe(true);
    const patched = await other.api.patch(`${ROUTINES}/${digest().id}`, { name: 'x', timezone: 'UTC' }, ada);
    expect(patched.body).toMatchObject({ name: 'x', timezone: 'UTC', disabled: true });
  });

  it('drops undocumented request keys instead of refusing them', async () => {
    const ada = { userId: other.emulator.state.userId('ada@acme.example') };
    const { name, prompt, schedule } = digest();
    // timezone is no field of the documented PUT: dropped, so the routine keeps its own.
    const put = await other.api.put(`${ROUTINES}/${digest().id}`, { name, prompt, schedule, timezone: 'UTC', mood: 'sunny' }, ada);
    expect(put.status).toBe(200);
    expect(put.body.timezone).toBe('Europe/Berlin');
    expect((await other.api.get('/api/v1/labels', { sort: 'name' })).status).toBe(200);
  });

  it('reads and writes entityGroupDefaultCredits in the credit controls', async () => {
    expect((await other.api.get('/api/v1/ai/credit-controls')).body).toHaveProperty('entityGroupDefaultCredits', null);
    expect((await other.api.patch('/api/v1/ai/credit-controls', { entityGroupDefaultCredits: 40 })).body.entityGroupDefaultCredits).toBe(40);
  });

  it('unlinks a label in use when deleting it', async () => {
    expect((await other.api.delete('/api/v1/labels/draft')).status).toBe(204);
    expect(other.emulator.state.documentLabels('1b2c3d4e')).toEqual([]);
  });

  it('counts the budget in fixed windows and answers 429 without Retry-After', async () => {
    await withEmulator({ profile: 'other', requestsPerMinute: 1 }, async (emulator, api) => {
      // Two windows at most: the first request may land at the very end of one.
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await api.get('/api/v1/whoami')).status);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
      const limited = await api.get('/api/v1/whoami');
      expectDetail(limited, 429, 'Too Many Requests');
      expect(limited.headers.get('retry-after')).toBeNull();
      expect(emulator.stats().rateLimited).toBeGreaterThanOrEqual(2);
    });
  });
});

describe.each(EMULATOR_PROFILES)('in profile %s', (profile: EmulatorProfile) => {
  const fixture = useEmulator({ profile });
  const userId = () => ({ userId: fixture.emulator.state.userId('ada@acme.example') });

  it('resets state and counters, and counts requests by route and status', async () => {
    await fixture.api.post('/api/v1/labels', { name: 'fresh' });
    await fixture.api.post(ROUTINES, aRoutine(), userId());
    expect(fixture.emulator.stats()).toMatchObject({
      requests: 2,
      writes: 2,
      byRoute: { 'POST /api/v1/labels': 1, 'POST /api/v1/ai/routines': 1 },
      byStatus: { 201: 2 },
    });
    fixture.emulator.reset();
    expect(fixture.emulator.stats().requests).toBe(0);
    expect(fixture.emulator.state.labels().map((label) => label.name)).not.toContain('fresh');
    expect(fixture.emulator.state.routines('ada@acme.example')).toHaveLength(3);
  });

  it('fires faults: commit-then-drop carries out the write', async () => {
    fixture.emulator.injectFault('write:1=drop-after-commit');
    await expect(fixture.api.post(ROUTINES, aRoutine(), userId())).rejects.toThrow();
    expect(fixture.emulator.state.routines('ada@acme.example').map((routine) => routine.name)).toContain('Monthly margin review');
    expect(fixture.emulator.stats()).toMatchObject({ writes: 1, faultsFired: 1 });
  });

  it('persists writes to a state file that a second emulator loads', async () => {
    const statePath = join(directory, `${profile}.json`);
    await withEmulator({ profile, statePath }, async (_emulator, api) => {
      expect((await api.post(ROUTINES, aRoutine(), userId())).status).toBe(201);
    });
    await withEmulator({ profile, statePath }, async (emulator) => {
      expect(emulator.description.stateLoaded).toBe(true);
      expect(emulator.state.routines('ada@acme.example')).toHaveLength(4);
    });
  });

  it.each(DATASET_NAMES)('serves dataset %s to each of its tokens', async (dataset) => {
    await withEmulator({ profile, dataset }, async (emulator) => {
      const tokens = datasetTokens(dataset);
      const ada = emulator.state.userId('ada@acme.example');
      for (const token of tokens) {
        const api = new Api(emulator.url, token.token);
        const whoami = await api.get('/api/v1/whoami');
        expect(whoami.status, token.name).toBe(200);
        const tiedToUser = token.type === 'personal' || profile === 'vendor';
        expect(whoami.body.user?.membershipId ?? null, token.name).toBe(tiedToUser ? emulator.state.userId(token.owner) : null);
        const query = token.type === 'organization' ? { userId: ada } : {};
        const routines = await api.get(ROUTINES, query);
        expect(routines.status, token.name).toBe(200);
        expect(routines.body.records.length, token.name).toBe(token.owner === 'grace@acme.example' ? 1 : 3);
        expect((await api.get('/api/v1/labels')).body.labels).toHaveLength(5);
      }
    });
  });
});

describe('document identifiers across deployments (documentIdentifiers)', () => {
  const documentIds = (emulator: RunningEmulator) => emulator.state.snapshot().documents.map((document) => document.identifier);

  it('are the same in demo and demo-playground when shared (the default of both profiles)', async () => {
    const demo = await withEmulator({ dataset: 'demo' }, async (emulator) => documentIds(emulator));
    const playground = await withEmulator({ dataset: 'demo-playground', profile: 'other' }, async (emulator) => documentIds(emulator));
    expect(playground).toEqual(demo);
  });

  it('differ everywhere in demo-playground per deployment, with names and labels kept', async () => {
    const demo = await withEmulator({ dataset: 'demo' }, async (emulator) => emulator.state.snapshot().documents);
    await withEmulator({ dataset: 'demo-playground', documentIdentifiers: 'per-deployment' }, async (emulator, api) => {
      const playground = emulator.state.snapshot().documents;
      expect(playground.map((document) => document.name)).toEqual(demo.map((document) => document.name));
      const demoIds = new Set(demo.map((document) => document.identifier));
      expect(playground.filter((document) => demoIds.has(document.identifier))).toEqual([]);
      expect(playground.map((document) => document.identifier)).toEqual(
        demo.map((document) => datasetDocumentIdentifier('demo-playground', document.identifier, 'per-deployment')),
      );
      expect(emulator.state.documentLabels('c4d1e2f8')).toEqual(['finance']);
      const playgroundKey = api.as('playground-org-admin-token');
      expect((await playgroundKey.put('/api/v1/documents/8f2e1d4c/labels/draft')).status).toBe(404);
      expect((await playgroundKey.put('/api/v1/documents/p0001/labels/draft')).status).toBe(204);
    });
  });

  it('leave demo itself unchanged', async () => {
    const shared = await withEmulator({ dataset: 'demo' }, async (emulator) => documentIds(emulator));
    const perDeployment = await withEmulator({ dataset: 'demo', documentIdentifiers: 'per-deployment' }, async (emulator) => documentIds(emulator));
    expect(perDeployment).toEqual(shared);
  });
});
