// Each typed endpoint sends the method, path, query and body the platform documents, encodes
// names that go into paths, and names what it was doing when it fails.

import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { collect } from '../../src/api/pagination.js';
import { PlatformApi } from '../../src/api/platform.js';
import { CREDIT_LIMIT_BATCH_MAX as CREDIT_LIMIT_BATCH } from '../../src/domain/rules.js';
import type { RoutineCreate, UserCreditLimitWrite } from '../../src/api/types.js';
import { StewardError } from '../../src/errors.js';
import { ORIGIN, rejectionOf, testClient, type TestClient } from './helpers.js';
import { apiKeyRecord, creditControlsBody, documentRecord, routineRecord, scimGroup, scimUser, whoamiBody } from './wire.js';

let setup: TestClient;
let api: PlatformApi;
const lastPage = { hasNextPage: false, nextCursor: null, pageSize: 100 };

beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
  setup = testClient({ maxRetries: 0 });
  api = new PlatformApi(setup.client);
});
afterEach(async () => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  await setup.client.close();
  expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

const routineBody: RoutineCreate = {
  name: 'Weekly digest',
  prompt: 'Summarise last week',
  schedule: '0 9 ? * MON *',
  timezone: 'Europe/Berlin',
  modelId: '6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f',
  destination: { type: 'email', recipientEmails: ['ops@acme.example.com'], userGroupIds: [] },
};

describe('whoami and credit controls', () => {
  it('reads whoami, filtered to models when asked', async () => {
    const personal = whoamiBody({ keyScope: 'user', orgRole: 'MEMBER' });
    nock(ORIGIN).get('/api/v1/whoami').reply(200, whoamiBody());
    nock(ORIGIN).get('/api/v1/whoami').query({ modelId: 'm1,m2' }).reply(200, personal);
    expect(await api.whoami()).toEqual(whoamiBody());
    expect(await api.whoami(['m1', 'm2'])).toEqual(personal);
  });

  it('reads and patches credit controls', async () => {
    nock(ORIGIN).get('/api/v1/ai/credit-controls').reply(200, creditControlsBody({ downgradeCredits: 10 }));
    nock(ORIGIN).patch('/api/v1/ai/credit-controls', { shutoffCredits: null }).reply(200, creditControlsBody({ shutoffCredits: null }));
    expect(await api.getCreditControls()).toEqual(creditControlsBody({ downgradeCredits: 10 }));
    expect(await api.patchCreditControls({ shutoffCredits: null })).toEqual(creditControlsBody({ shutoffCredits: null }));
    expect(setup.client.stats().byRoute).toEqual({
      'GET /api/v1/ai/credit-controls': 1,
      'PATCH /api/v1/ai/credit-controls': 1,
    });
  });

  it('sends user credit limits in batches of at most 1000 and merges the results', async () => {
    const users: UserCreditLimitWrite[] = Array.from({ length: CREDIT_LIMIT_BATCH + 2 }, (_, i) =>
      i % 2 === 0 ? { userId: `u${i}`, creditLimit: i } : { userId: `u${i}`, useDefaultLimit: true },
    );
    const sizes: number[] = [];
    nock(ORIGIN)
      .patch('/api/v1/ai/credit-controls/users')
      .times(2)
      .reply(200, (_uri, body) => {
        const sent = (body as { users: { userId: string }[] }).users;
        sizes.push(sent.length);
        return { users: sent.map(({ userId }) => ({ userId, creditLimit: null, usesDefaultLimit: true })) };
      });
    const result = await api.patchUserCreditLimits({ users });
    expect(sizes).toEqual([1000, 2]);
    expect(result.users.map((u) => u.userId)).toEqual(users.map((u) => u.userId));
  });

  it('sends nothing for an empty batch', async () => {
    expect(await api.patchUserCreditLimits({ users: [] })).toEqual({ users: [] });
    expect(await api.patchEntityGroupCreditLimits({ entityGroups: [] })).toEqual({ entityGroups: [] });
    expect(setup.client.stats().requests).toBe(0);
  });

  it('lists and patches entity group limits', async () => {
    nock(ORIGIN)
      .get('/api/v1/ai/credit-controls/entity-groups')
      .query({ pageSize: '100' })
      .reply(200, { records: [{ entity: 'acme-eu', creditLimit: 100 }], pageInfo: lastPage });
    nock(ORIGIN)
      .patch('/api/v1/ai/credit-controls/entity-groups', { entityGroups: [{ entity: 'acme-eu', useDefaultLimit: true }] })
      .reply(200, { entityGroups: [{ entity: 'acme-eu', creditLimit: null, usesDefaultLimit: true }] });
    expect(await collect(api.listEntityGroupCreditLimits())).toEqual([{ entity: 'acme-eu', creditLimit: 100 }]);
    expect(await api.patchEntityGroupCreditLimits({ entityGroups: [{ entity: 'acme-eu', useDefaultLimit: true }] })).toEqual({
      entityGroups: [{ entity: 'acme-eu', creditLimit: null, usesDefaultLimit: true }],
    });
  });
});

describe('routines', () => {
  it('lists routines for a user with an organization key', async () => {
    nock(ORIGIN)
      .get('/api/v1/ai/routines')
      .query({ pageSize: '100', userId: 'member-1' })
      .reply(200, { records: [routineRecord('r1')], pageInfo: lastPage });
    expect(await collect(api.listRoutines({ userId: 'member-1' }))).toEqual([routineRecord('r1')]);
  });

  it('creates, reads, patches, puts, triggers and deletes by id', async () => {
    nock(ORIGIN).post('/api/v1/ai/routines', routineBody as unknown as nock.RequestBodyMatcher).query({ userId: 'm-7' }).reply(200, { id: 'r1' });
    nock(ORIGIN).get('/api/v1/ai/routines/r1').reply(200, routineRecord('r1'));
    nock(ORIGIN).patch('/api/v1/ai/routines/r1', { prompt: 'new' }).reply(200, routineRecord('r1', { prompt: 'new' }));
    nock(ORIGIN)
      .put('/api/v1/ai/routines/r1', { name: 'n', prompt: 'p', schedule: 's', isActive: false })
      .reply(200, routineRecord('r1', { name: 'n', prompt: 'p', schedule: 's', disabled: true }));
    nock(ORIGIN).post('/api/v1/ai/routines/r1/trigger').reply(200, { id: 'run-1' });
    nock(ORIGIN).delete('/api/v1/ai/routines/r1').reply(200, { deleted: true, id: 'r1' });
    expect(await api.createRoutine(routineBody, { userId: 'm-7' })).toEqual({ id: 'r1' });
    expect(await api.getRoutine('r1')).toEqual(routineRecord('r1'));
    expect(await api.patchRoutine('r1', { prompt: 'new' })).toEqual(routineRecord('r1', { prompt: 'new' }));
    expect((await api.putRoutine('r1', { name: 'n', prompt: 'p', schedule: 's', isActive: false })).disabled).toBe(true);
    expect(await api.triggerRoutine('r1')).toEqual({ id: 'run-1' });
    await expect(api.deleteRoutine('r1')).resolves.toBeUndefined();
    expect(setup.client.stats().byRoute).toEqual({
      'POST /api/v1/ai/routines': 1,
      'GET /api/v1/ai/routines/{routineId}': 1,
      'PATCH /api/v1/ai/routines/{routineId}': 1,
      'PUT /api/v1/ai/routines/{routineId}': 1,
      'POST /api/v1/ai/routines/{routineId}/trigger': 1,
      'DELETE /api/v1/ai/routines/{routineId}': 1,
    });
  });

  it('names the routine in errors, and reports 405 on PATCH for the PUT fallback', async () => {
    nock(ORIGIN).patch('/api/v1/ai/routines/r1').reply(405, { error: 'Method Not Allowed', message: 'Method not allowed' });
    const error = (await rejectionOf(api.patchRoutine('r1', { prompt: 'x' }, { name: 'Weekly digest' }))) as ApiError;
    expect(error.status).toBe(405);
    expect(error.route).toBe('PATCH /api/v1/ai/routines/{routineId}');
    expect(error.message).toBe('updating routine "Weekly digest" (r1): 405 Method not allowed');
  });
});

describe('labels and documents', () => {
  it('lists, reads, creates, updates and deletes labels, encoding names in paths', async () => {
    const label = { name: 'Q3 / EMEA', color: '#ff0000', description: null, homepage: false, verified: false, usage_count: 0 };
    nock(ORIGIN).get('/api/v1/labels').reply(200, { labels: [label] });
    nock(ORIGIN).get('/api/v1/labels/Q3%20%2F%20EMEA').reply(200, label);
    nock(ORIGIN).post('/api/v1/labels', { name: 'Q3 / EMEA', color: '#ff0000' }).reply(201, label);
    nock(ORIGIN).put('/api/v1/labels/Q3%20%2F%20EMEA', { name: 'Q3 EMEA' }).reply(200, { ...label, name: 'Q3 EMEA' });
    nock(ORIGIN).delete('/api/v1/labels/Q3%20EMEA').reply(204);
    expect(await api.listLabels()).toEqual([label]);
    expect(await api.getLabel('Q3 / EMEA')).toEqual(label);
    expect(await api.createLabel({ name: 'Q3 / EMEA', color: '#ff0000' })).toEqual(label);
    expect((await api.updateLabel('Q3 / EMEA', { name: 'Q3 EMEA' })).name).toBe('Q3 EMEA');
    await expect(api.deleteLabel('Q3 EMEA')).resolves.toBeUndefined();
  });

  it('says which label could not be deleted and why', async () => {
    nock(ORIGIN).delete('/api/v1/labels/finance').reply(409, { error: 'Conflict', message: 'Cannot delete label that is applied to documents' });
    const error = (await rejectionOf(api.deleteLabel('finance'))) as ApiError;
    expect(error.message).toBe('deleting label "finance": 409 Cannot delete label that is applied to documents');
    expect(error.code).toBe('api.conflict');
  });

  it('refuses a label name that cannot be a path segment before sending anything', async () => {
    const error = await rejectionOf(api.getLabel('..'));
    expect((error as StewardError).code).toBe('api.invalid-path-segment');
    expect((error as StewardError).message).toBe('The label name ".." cannot be used in a request path.');
    expect(setup.client.stats().requests).toBe(0);
  });

  it('lists documents with labels included, filtered by label', async () => {
    nock(ORIGIN)
      .get('/api/v1/documents')
      .query({ include: 'labels', labels: 'finance', pageSize: '100' })
      .reply(200, { records: [documentRecord('doc-1', { labels: ['finance'] })], pageInfo: lastPage });
    expect(await collect(api.listDocuments({ labels: ['finance'], include: ['labels'] }))).toEqual([
      documentRecord('doc-1', { labels: ['finance'] }),
    ]);
  });

  it('applies, removes and patches document labels', async () => {
    nock(ORIGIN).put('/api/v1/documents/doc%2F1/labels/Q3%20EMEA').reply(204);
    nock(ORIGIN).delete('/api/v1/documents/doc-1/labels/finance').reply(204);
    nock(ORIGIN).patch('/api/v1/documents/doc-1/labels', { add: ['a'], remove: ['b'] }).reply(200, { labels: ['a'] });
    await api.putDocumentLabel('doc/1', 'Q3 EMEA');
    await api.deleteDocumentLabel('doc-1', 'finance');
    expect(await api.patchDocumentLabels('doc-1', { add: ['a'], remove: ['b'] })).toEqual({ labels: ['a'] });
  });
});

describe('the vendor contract, on the client', () => {
  it('sends nothing the vendor does not document: an undocumented body key is refused before any request', async () => {
    const error = await api.putRoutine('6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f', { name: 'n', prompt: 'p', schedule: 's', timezone: 'UTC' } as never).catch((thrown: unknown) => thrown as StewardError);
    expect(error).toMatchObject({ code: 'internal.undocumented-request', fault: 'tool' });
    expect((error as StewardError).message).toBe('updating routine "n" (6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f): PUT /api/v1/ai/routines/{routineId} would send the body key timezone, which the vendor does not document');
  });

  it('sends the entity-group default by the generated client\'s PATCH, the documented PATCH otherwise', async () => {
    nock(ORIGIN).patch('/api/v1/ai/credit-controls', { entityGroupDefaultCredits: 5 }).reply(200, creditControlsBody({ entityGroupDefaultCredits: 5 }));
    expect((await api.patchCreditControls({ entityGroupDefaultCredits: 5 })).entityGroupDefaultCredits).toBe(5);
  });
});

describe('SCIM and API keys', () => {
  it('lists SCIM users page by page with a filter', async () => {
    const user = (id: string) => scimUser(id);
    nock(ORIGIN)
      .get('/api/scim/v2/users')
      .query({ filter: 'userName co "acme"', startIndex: '1', count: '100' })
      .reply(200, { schemas: [], Resources: [user('a'), user('b')], totalResults: 3, startIndex: 1, itemsPerPage: 2 })
      .get('/api/scim/v2/users')
      .query({ filter: 'userName co "acme"', startIndex: '3', count: '100' })
      .reply(200, { schemas: [], Resources: [user('c')], totalResults: 3, startIndex: 3, itemsPerPage: 1 });
    const users = await collect(api.listScimUsers({ filter: 'userName co "acme"' }));
    expect(users.map((u) => u.id)).toEqual(['a', 'b', 'c']);
  });

  it('reads one SCIM user by id, at the documented lowercase path', async () => {
    nock(ORIGIN).get('/api/scim/v2/users/a').reply(200, scimUser('a'));
    expect((await api.getScimUser('a')).id).toBe('a');
  });

  it('lists SCIM groups', async () => {
    nock(ORIGIN)
      .get('/api/scim/v2/groups')
      .query({ startIndex: '1', count: '100' })
      .reply(200, { schemas: [], Resources: [scimGroup('g1', { displayName: 'Ops' })], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(await collect(api.listScimGroups())).toEqual([scimGroup('g1', { displayName: 'Ops' })]);
  });

  it('lists API keys with type and sort', async () => {
    nock(ORIGIN)
      .get('/api/v1/api-keys')
      .query({ type: 'personal', sortField: 'name', sortDirection: 'asc', pageSize: '100' })
      .reply(200, { records: [apiKeyRecord('k1')], pageInfo: lastPage });
    expect(await collect(api.listApiKeys({ type: 'personal', sortField: 'name', sortDirection: 'asc' }))).toEqual([apiKeyRecord('k1')]);
  });
});
