// Every response is checked against its shape before anyone reads it: a misfit is one sentence
// naming where it is, identities must be there, extra fields pass, absent nullable fields read as
// null, and whoami's "no user" has one form. The schemas are kept in step with the wire types by
// running every endpoint of PlatformApi against the emulator (which serves those types) in both
// profiles: a schema stricter than the types fails there.

import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { collect } from '../../src/api/pagination.js';
import { PlatformApi } from '../../src/api/platform.js';
import { checkShape, type ShapeName } from '../../src/api/shapes.js';
import { datasetTokens, EMULATOR_PROFILES, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiKeyRecord, documentRecord, labelRecord, LAST_PAGE, routineRecord, scimUser, whoamiBody } from './wire.js';

const misfit = (result: ReturnType<typeof checkShape>) => (result.ok ? 'fits' : result.misfit);

describe('misfits, in one sentence', () => {
  const routines = (...records: unknown[]) => ({ records, pageInfo: LAST_PAGE });

  it('names the record (1-based) and the missing identity', () => {
    const { name: _dropped, ...nameless } = routineRecord('r3');
    expect(misfit(checkShape('routineList', routines(routineRecord('r1'), routineRecord('r2'), nameless)))).toBe('record 3 has no name');
    expect(misfit(checkShape('routineList', routines(routineRecord('r1', { name: '  ' }))))).toBe('record 1 has a blank name');
    expect(misfit(checkShape('routineList', routines(routineRecord('r1', { id: 7 as unknown as string }))))).toBe(
      'record 1: id is a whole number, not a string',
    );
  });

  it('names the page past the first', () => {
    const { id: _dropped, ...idless } = routineRecord('r1');
    expect(misfit(checkShape('routineList', routines(idless), { page: 3 }))).toBe('record 1 of page 3 has no id');
  });

  it('says when a list is not a list, or a field has another type', () => {
    expect(misfit(checkShape('routineList', { records: { r1: routineRecord('r1') }, pageInfo: LAST_PAGE }))).toBe('records is an object, not a list');
    expect(misfit(checkShape('routineList', routines(routineRecord('r1'), { ...routineRecord('r2'), disabled: 'no' })))).toBe(
      'record 2: disabled is a string, not a boolean',
    );
    expect(misfit(checkShape('labelList', [labelRecord('finance')]))).toBe('the response is a list, not an object');
    expect(misfit(checkShape('labelList', undefined))).toBe('the response body is empty');
  });

  it('refuses values outside the documented enums, quoting them inertly', () => {
    expect(misfit(checkShape('whoami', whoamiBody({ keyScope: 'team\u001b[31m' as 'user' })))).toBe(
      'keyScope is "team\\u001b[31m", not one of "user", "organization"',
    );
    expect(misfit(checkShape('routine', routineRecord('r1', { destination: { type: 'fax' } as never })))).toBe(
      'destination.type is "fax", not one of "email", "slack"',
    );
    expect(misfit(checkShape('routine', routineRecord('r1', { destination: { type: 'slack', recipientId: 'C1', slackRecipientType: 'dm' } as never })))).toBe(
      'destination.slackRecipientType is "dm", not one of "channel", "users"',
    );
    expect(misfit(checkShape('apiKeyList', { records: [apiKeyRecord('k1', { type: 'robot' as 'mcp' })], pageInfo: LAST_PAGE }))).toBe(
      'record 1: type is "robot", not one of "organization", "personal", "mcp"',
    );
  });

  it('quotes a key the server chose when it names the place', () => {
    const rolesByModel = { 'model\u001b[2J': { baseRole: 'QUERIER', permissions: 'USE_AI' } };
    expect(misfit(checkShape('whoami', whoamiBody({ rolesByModel: rolesByModel as never })))).toBe(
      'rolesByModel."model\\u001b[2J".permissions is a string, not a list',
    );
  });

  it('requires the identity of every record kind', () => {
    expect(misfit(checkShape('userCreditLimitList', { records: [{ userId: '', creditLimit: 5 }], pageInfo: LAST_PAGE }))).toBe('record 1 has a blank userId');
    expect(misfit(checkShape('labelList', { labels: [labelRecord('finance'), { ...labelRecord('x'), name: null }] }))).toBe(
      'label 2: name is null, not a string',
    );
    expect(misfit(checkShape('documentList', { records: [{ ...documentRecord('d1'), identifier: undefined }], pageInfo: LAST_PAGE }))).toBe(
      'record 1 has no identifier',
    );
    expect(misfit(checkShape('scimUserList', { Resources: [{ ...scimUser('u1'), userName: '' }], totalResults: 1 }))).toBe('resource 1 has a blank userName');
    expect(misfit(checkShape('documentList', { records: [documentRecord('d1', { labels: ['finance', ''] })], pageInfo: LAST_PAGE }))).toBe(
      'record 1: labels.1 is blank',
    );
  });

  it('keeps null meaningful where it means "unlimited": a credit limit must be there', () => {
    expect(misfit(checkShape('userCreditLimitList', { records: [{ userId: 'u1' }], pageInfo: LAST_PAGE }))).toBe('record 1 has no creditLimit');
  });
});

describe('the schemas themselves', () => {
  it('all compile in strict mode (an unknown keyword would throw here, not in a user run)', () => {
    const names: ShapeName[] = [
      'whoami', 'creditControls', 'userCreditLimitList', 'userCreditLimitPatchResult', 'entityGroupCreditLimitList',
      'entityGroupCreditLimitPatchResult', 'routineList', 'routine', 'createdRoutine', 'deletedRoutine', 'routineRun',
      'labelList', 'label', 'documentList', 'documentLabels', 'scimUserList', 'scimGroupList', 'apiKeyList',
    ];
    for (const name of names) expect(() => checkShape(name, {})).not.toThrow();
  });
});

describe('what passes', () => {
  it('lets unknown extra fields through untouched (a newer server)', () => {
    const result = checkShape('label', { ...labelRecord('finance'), archived: false, owner: { id: 'u1' } });
    expect(result).toEqual({ ok: true, value: { ...labelRecord('finance'), archived: false, owner: { id: 'u1' } } });
  });

  it('reads an absent nullable field as null and an absent SCIM list as empty', () => {
    const { description: _d, branchId: _b, topicName: _t, ...sparse } = routineRecord('r1');
    expect(checkShape('routine', sparse)).toEqual({ ok: true, value: routineRecord('r1') });
    // Server-managed fields steward never reads pass in any form, or none.
    const { lastRun: _l, systemDisabledReason: _s, recipientCount: _r, updatedAt: _u, createdAt: _c, ...unread } = routineRecord('r1');
    expect(checkShape('routine', { ...unread, systemDisabled: 'no' })).toEqual({ ok: true, value: { ...unread, systemDisabled: 'no', createdAt: null } });
    const { groups: _g, emails: _e, ...bare } = scimUser('u1');
    expect(checkShape('scimUserList', { Resources: [bare], totalResults: 1 })).toMatchObject({
      ok: true,
      value: { schemas: [], Resources: [{ ...bare, groups: [], emails: [] }] },
    });
  });

  it('reads an e-mail destination without one of its lists as an empty list', () => {
    const destination = { type: 'email', recipientEmails: ['ops@acme.example.com'] };
    expect(checkShape('routine', routineRecord('r1', { destination: destination as never }))).toEqual({
      ok: true,
      value: routineRecord('r1', { destination: { type: 'email', recipientEmails: ['ops@acme.example.com'], userGroupIds: [] } }),
    });
    // A Slack destination gains no e-mail fields.
    const slack = { type: 'slack', recipientId: 'C0123', slackRecipientType: 'channel' } as const;
    expect(checkShape('routine', routineRecord('r1', { destination: slack }))).toEqual({ ok: true, value: routineRecord('r1', { destination: slack }) });
    expect(misfit(checkShape('routine', routineRecord('r1', { destination: { type: 'slack', slackRecipientType: 'users' } as never })))).toBe(
      'destination has no recipientId',
    );
  });

  it('reads a routine delete answered with nothing as done', () => {
    expect(checkShape('deletedRoutine', undefined)).toEqual({ ok: true, value: null });
    expect(misfit(checkShape('deletedRoutine', { deleted: 'yes' }))).toBe('deleted is a string, not a boolean');
  });
});

describe('whoami without a user', () => {
  const withUser = (user: unknown) => ({ ...whoamiBody(), user });

  it.each([
    ['absent', (() => { const { user: _u, ...rest } = whoamiBody(); return rest; })()],
    ['null', withUser(null)],
    ['a user whose ids are null', withUser({ id: null, membershipId: null })],
    ['a user whose ids are blank', withUser({ id: ' ', membershipId: '' })],
    ['a user without ids', withUser({})],
  ])('reads %s as no user', (_case, body) => {
    expect(checkShape('whoami', body)).toEqual({ ok: true, value: { ...whoamiBody(), user: null } });
  });

  it('keeps a user with a membership id, whatever its user id', () => {
    expect(checkShape('whoami', withUser({ membershipId: 'm-1' }))).toEqual({ ok: true, value: { ...whoamiBody(), user: { id: null, membershipId: 'm-1' } } });
    expect(checkShape('whoami', withUser({ id: 'u-1', membershipId: 'm-1', email: 'ada@acme.example' }))).toMatchObject({ ok: true, value: { user: { id: 'u-1', membershipId: 'm-1' } } });
  });

  it('refuses a user it knows only by a user id, naming the membership id it lacks', () => {
    expect(misfit(checkShape('whoami', withUser({ id: 'u-1' })))).toBe('user has no membershipId');
    expect(misfit(checkShape('whoami', withUser({ id: 'u-1', membershipId: null })))).toBe('user.membershipId is null, not a string');
  });

  it('refuses a membership id of another type rather than guessing', () => {
    expect(misfit(checkShape('whoami', withUser({ id: 'u-1', membershipId: 42 })))).toBe('user.membershipId is a whole number, not a string');
  });
});

describe('whoami as the vendor documents it, and more', () => {
  it('reads custom role names, extra fields and permissions it does not know', () => {
    const body = {
      keyScope: 'user',
      orgRole: 'ORG_ADMIN',
      rolesByModel: { m1: { baseRole: 'QUERIER', roleName: 'Sales analysts (custom)', connectionId: 'c1', permissions: ['USE_AI', 'SOMETHING_NEW'], extra: 1 } },
      user: { id: 'u-1', membershipId: 'm-1', email: 'ada@acme.example' },
      organization: { name: 'Acme' },
    };
    expect(checkShape('whoami', body)).toMatchObject({ ok: true, value: { rolesByModel: { m1: { permissions: ['USE_AI', 'SOMETHING_NEW'] } }, user: { membershipId: 'm-1' } } });
  });

  it('reads an organization role the documents do not name yet as text (only ORG_ADMIN is an admin)', () => {
    expect(checkShape('whoami', { ...whoamiBody(), orgRole: 'ORG_OWNER' })).toMatchObject({ ok: true, value: { orgRole: 'ORG_OWNER' } });
  });
});

describe.each(EMULATOR_PROFILES)('the schemas fit every response of the emulator (%s profile)', (profile) => {
  let emulator: RunningEmulator | undefined;
  let client: ApiClient | undefined;
  afterEach(async () => {
    await client?.close();
    await emulator?.close();
  });

  it('reads and writes every endpoint steward uses without a misfit', async () => {
    emulator = await startEmulator({ profile });
    const token = datasetTokens('demo').find((one) => one.type === 'organization' && one.role === 'ORG_ADMIN')?.token ?? '';
    client = new ApiClient({ baseUrl: emulator.url, token, requestsPerMinute: 6000 });
    const api = new PlatformApi(client);
    const ada = emulator.state.userId('ada@acme.example');
    const whoami = await api.whoami();
    expect(whoami.user === null || typeof whoami.user.membershipId === 'string').toBe(true);
    await api.patchCreditControls({ userDefaultCredits: (await api.getCreditControls()).userDefaultCredits });
    const limits = await collect(api.listUserCreditLimits());
    await api.patchUserCreditLimits({ users: [{ userId: ada, creditLimit: 250 }] });
    await collect(api.listEntityGroupCreditLimits());
    const routines = await collect(api.listRoutines({ userId: ada }));
    expect(routines.length).toBeGreaterThan(0);
    const [first] = routines;
    if (first === undefined) throw new Error('the demo dataset has routines');
    await api.getRoutine(first.id, { userId: ada });
    const { id } = await api.createRoutine(
      { name: 'Shape check', prompt: 'p', schedule: first.schedule, timezone: first.timezone, modelId: first.modelId, destination: first.destination },
      { userId: ada },
    );
    const update = { name: 'Shape check 2', prompt: 'p2', schedule: first.schedule };
    // Both profiles take the documented PUT; the other one also the generated client's PATCH.
    if (emulator.description.knobs.routineUpdateMethod === 'patch') await api.patchRoutine(id, { timezone: first.timezone }, { userId: ada });
    await api.triggerRoutine(id, { userId: ada });
    await api.putRoutine(id, { ...update, isActive: false }, { userId: ada });
    await api.deleteRoutine(id, { userId: ada });
    const labels = await api.listLabels();
    await api.getLabel(labels[0]?.name ?? 'finance');
    await api.createLabel({ name: 'shape-check', color: '#00aa00' });
    await api.updateLabel('shape-check', { description: 'checked' });
    const documents = await collect(api.listDocuments({ include: ['labels'] }));
    const document = documents[0];
    if (document === undefined) throw new Error('the demo dataset has documents');
    await api.patchDocumentLabels(document.identifier, { add: ['shape-check'] });
    await collect(api.listScimUsers());
    await collect(api.listScimGroups());
    await collect(api.listApiKeys());
    expect(limits.every((limit) => typeof limit.userId === 'string')).toBe(true);
    expect(documents.every((one) => Array.isArray(one.labels))).toBe(true);
  });
});
