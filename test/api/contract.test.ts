// The vendor contract as data, and its checker: every operation names a known source, variants are
// marked; a request with an undocumented operation, query key or body key, or a body of the wrong
// shape misfits, naming the operation; so does an answer with another status or shape; and the
// client's response readers (shapes.ts) read only fields the contract's answers have.
import { describe, expect, it } from 'vitest';
import { checkRequest, checkResponse } from '../../src/api/contract/check.js';
import { contractOperations, operation, operationsAt, SOURCES } from '../../src/api/contract/index.js';
import type { Schema } from '../../src/api/contract/schema.js';
import { shapeSchema, type ShapeName } from '../../src/api/shapes.js';
import { routineRecord, whoamiBody } from './wire.js';

const documentedOnly = () => false;
const request = (method: string, path: string, query: Record<string, string> = {}, body?: unknown) => ({ method, path, query: new URLSearchParams(query), body });
const ROUTINE = '/api/v1/ai/routines/6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f';

describe('the contract data', () => {
  it('cites a known source for every operation, and marks every variant with its kind and note', () => {
    for (const one of contractOperations()) {
      expect(one.sources.length, one.id).toBeGreaterThan(0);
      for (const source of one.sources) expect(Object.keys(SOURCES), one.id).toContain(source);
      if (one.variant !== undefined) expect(one.id).toMatch(new RegExp(`~${one.variant.kind}$`));
    }
    expect(operation('routines.update')).toMatchObject({ method: 'PUT', success: { status: 200 } });
    expect(operation('routines.create').success.status).toBe(201);
  });

  it('finds the documented operation before its variants', () => {
    expect(operationsAt('GET', '/api/v1/ai/credit-controls').map((one) => one.id)).toEqual(['creditControls.get', 'creditControls.get~generated-client']);
    expect(operationsAt('PATCH', ROUTINE).map((one) => one.id)).toEqual(['routines.update~generated-client']);
    expect(operationsAt('GET', '/api/scim/v2/Users')).toEqual([]);
  });
});

describe('checking a request', () => {
  it('passes the documented PUT body and refuses a key it does not document', () => {
    expect(checkRequest(request('PUT', ROUTINE, {}, { name: 'n', prompt: 'p', schedule: '0 9 ? * MON *', isActive: false }), documentedOnly).misfits).toEqual([]);
    expect(checkRequest(request('PUT', ROUTINE, {}, { name: 'n', prompt: 'p', schedule: 's', timezone: 'UTC' }), documentedOnly).misfits).toEqual([
      `routines.update (PUT ${ROUTINE}): body has the undocumented key "timezone"`,
    ]);
  });

  it('refuses an operation only a variant has, unless the server serves that variant', () => {
    const patch = request('PATCH', ROUTINE, {}, { timezone: 'UTC' });
    expect(checkRequest(patch, documentedOnly).misfits).toEqual([expect.stringContaining(`PATCH ${ROUTINE} is not documented by the vendor; only a variant has it (SDK:`)]);
    expect(checkRequest(patch, (one) => one.id === 'routines.update~generated-client')).toMatchObject({ operation: { id: 'routines.update~generated-client' }, misfits: [] });
  });

  it('refuses an undocumented query key and a value outside its limits, reading numbers from text', () => {
    expect(checkRequest(request('GET', '/api/scim/v2/users', { filter: 'id eq "x"' }), documentedOnly).misfits).toEqual([
      'scim.users.list (GET /api/scim/v2/users): query filter must match pattern "^\\s*[Uu][Ss][Ee][Rr][Nn][Aa][Mm][Ee]\\s+([Ee][Qq]|[Cc][Oo])\\s+"(?:[^"\\\\]|\\\\.)*"\\s*$"',
    ]);
    expect(checkRequest(request('GET', '/api/scim/v2/users', { filter: 'userName eq "ada@acme.example"', count: '100', startIndex: '1' }), documentedOnly).misfits).toEqual([]);
    expect(checkRequest(request('GET', '/api/v1/ai/routines', { pageSize: '500', sortBy: 'name' }), documentedOnly).misfits).toEqual([
      'routines.list (GET /api/v1/ai/routines): query key "sortBy" is not documented',
      'routines.list (GET /api/v1/ai/routines): query pageSize must be <= 100',
    ]);
    expect(checkRequest(request('GET', '/api/scim/v2/groups', { filter: 'displayName eq "Finance"' }), documentedOnly).misfits).toEqual([
      'scim.groups.list (GET /api/scim/v2/groups): query key "filter" is not documented',
    ]);
  });

  it('refuses a path parameter of the documented format, and a path no operation has', () => {
    expect(checkRequest(request('GET', '/api/v1/ai/routines/r1'), documentedOnly).misfits).toEqual([
      'routines.get (GET /api/v1/ai/routines/r1): path parameter routineId must match format "uuid"',
    ]);
    expect(checkRequest(request('GET', '/api/v1/ai/routine-templates'), documentedOnly).misfits).toEqual(['GET /api/v1/ai/routine-templates is no operation the vendor documents']);
  });

  it('refuses the entity-group default in a credit-controls PATCH unless the server serves the generated client\'s variant', () => {
    const patch = request('PATCH', '/api/v1/ai/credit-controls', {}, { entityGroupDefaultCredits: 5 });
    expect(checkRequest(patch, documentedOnly).misfits).toEqual([
      'creditControls.update (PATCH /api/v1/ai/credit-controls): body has the undocumented key "entityGroupDefaultCredits"',
    ]);
    expect(checkRequest(patch, (one) => one.id.startsWith('creditControls.')).misfits).toEqual([]);
    expect(checkRequest(request('PATCH', '/api/v1/ai/credit-controls', {}, {}), documentedOnly).misfits).toEqual([
      'creditControls.update (PATCH /api/v1/ai/credit-controls): body must NOT have fewer than 1 properties',
    ]);
  });
});

describe('checking an answer', () => {
  it('holds a success to its documented status and every field, and takes either error form', () => {
    const create = operation('routines.create');
    expect(checkResponse(create, { status: 200, body: { id: '6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f' } })).toEqual(['routines.create answered 200; the vendor documents 201']);
    expect(checkResponse(create, { status: 400, body: { detail: 'Bad Request: name: Required', status: 400 } })).toEqual([]);
    expect(checkResponse(create, { status: 403, body: { error: 'Forbidden', message: 'User does not have USE_AI permission' } })).toEqual([]);
    expect(checkResponse(create, { status: 400, body: { error: 'Invalid JSON' } })).toEqual([]);
    expect(checkResponse(create, { status: 500, body: 'oops' })).toEqual(['routines.create answered 500 with a body in neither error form of the vendor']);
    expect(checkResponse(create, { status: 500, body: { oops: true } })).toEqual(['routines.create answered 500 with a body in neither error form of the vendor']);
    const routine = { ...routineRecord('6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f'), createdAt: '2026-01-01T00:00:00Z' };
    expect(checkResponse(operation('routines.get'), { status: 200, body: routine })).toEqual([]);
    expect(checkResponse(operation('routines.get'), { status: 200, body: { ...routine, owner: 'ada' } })).toEqual([
      'routines.get answered 200: the body has the undocumented key "owner"',
    ]);
  });

  it('holds whoami to the documented user and role shape; the organization-key guesses are a variant', () => {
    const documented = { ...whoamiBody(), rolesByModel: { m1: { baseRole: 'QUERIER', roleName: 'Analyst', connectionId: 'c1', permissions: ['USE_AI'] } } };
    expect(checkResponse(operation('whoami.get'), { status: 200, body: { ...documented, user: { id: 'u1', membershipId: 'm1' } } })).toEqual([]);
    expect(checkResponse(operation('whoami.get'), { status: 200, body: { ...documented, user: null } })).not.toEqual([]);
    expect(checkResponse(operation('whoami.get~guess'), { status: 200, body: { ...documented, user: { id: null, membershipId: null } } })).toEqual([]);
  });
});

/** Every property path a schema describes (objects and array items; anyOf/oneOf/if-then branches merged). */
function paths(schema: Schema, prefix = ''): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown, at: string) => {
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    for (const branch of ['anyOf', 'oneOf', 'allOf'] as const) for (const part of (record[branch] as unknown[] | undefined) ?? []) visit(part, at);
    if (record.then !== undefined) visit(record.then, at);
    if (record.items !== undefined) visit(record.items, `${at}[]`);
    if (record.additionalProperties !== undefined && typeof record.additionalProperties === 'object') visit(record.additionalProperties, `${at}.*`);
    for (const [key, value] of Object.entries((record.properties as Record<string, unknown> | undefined) ?? {})) {
      found.add(`${at}.${key}`);
      visit(value, `${at}.${key}`);
    }
  };
  visit(schema, prefix);
  return found;
}

describe('the client reads a projection of the contract', () => {
  const READERS: [ShapeName, string][] = [
    ['whoami', 'whoami.get'],
    ['creditControls', 'creditControls.get~generated-client'],
    ['userCreditLimitList', 'userCreditLimits.list'],
    ['userCreditLimitPatchResult', 'userCreditLimits.update'],
    ['userGroupCreditLimitList', 'userGroupCreditLimits.list'],
    ['userGroupCreditLimitPatchResult', 'userGroupCreditLimits.update'],
    ['entityGroupCreditLimitList', 'entityGroupCreditLimits.list'],
    ['entityGroupCreditLimitPatchResult', 'entityGroupCreditLimits.update'],
    ['routineList', 'routines.list'],
    ['routine', 'routines.get'],
    ['createdRoutine', 'routines.create'],
    ['deletedRoutine', 'routines.delete'],
    ['routineRun', 'routines.trigger'],
    ['labelList', 'labels.list'],
    ['label', 'labels.get'],
    ['documentList', 'documents.list'],
    ['documentLabels', 'documents.labels.update'],
    ['folderList', 'folders.list'],
    ['folderLabels', 'folders.labels.update'],
    ['modelList', 'models.list'],
    ['modelTopics', 'models.topics.list'],
    ['scimUserList', 'scim.users.list'],
    ['scimUser', 'scim.users.get'],
    ['scimGroupList', 'scim.groups.list'],
    ['apiKeyList', 'apiKeys.list'],
  ];

  it.each(READERS)('%s reads only fields that %s answers', (shape, id) => {
    const documented = paths(operation(id).success.body as Schema);
    const read = [...paths(shapeSchema(shape))];
    expect(read.filter((path) => !documented.has(path))).toEqual([]);
  });
});
