// The auth matrix and the generic answers every endpoint shares: 401 for a missing or unknown
// token, 403 for scope or role, 404 for an unknown path, 405 for a wrong method.
import { describe, expect, it } from 'vitest';
import { aSeed, expectDetail, expectError, TOKENS, useEmulator } from './helpers.js';
import { startEmulator } from '../../src/emulator/index.js';
import { Api } from './helpers.js';

const fixture = useEmulator();

const ENDPOINTS: [string, string][] = [
  ['GET', '/api/v1/whoami'],
  ['GET', '/api/v1/ai/credit-controls'],
  ['PATCH', '/api/v1/ai/credit-controls'],
  ['GET', '/api/v1/ai/credit-controls/users'],
  ['PATCH', '/api/v1/ai/credit-controls/users'],
  ['GET', '/api/v1/ai/credit-controls/entity-groups'],
  ['PATCH', '/api/v1/ai/credit-controls/entity-groups'],
  ['GET', '/api/v1/ai/routines'],
  ['POST', '/api/v1/ai/routines'],
  ['GET', '/api/v1/ai/routines/00000000-0000-4000-8000-000000000000'],
  ['PATCH', '/api/v1/ai/routines/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/api/v1/ai/routines/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/v1/ai/routines/00000000-0000-4000-8000-000000000000/trigger'],
  ['GET', '/api/v1/labels'],
  ['POST', '/api/v1/labels'],
  ['GET', '/api/v1/labels/finance'],
  ['PUT', '/api/v1/labels/finance'],
  ['DELETE', '/api/v1/labels/finance'],
  ['GET', '/api/v1/documents'],
  ['PATCH', '/api/v1/documents/8f2e1d4c/labels'],
  ['PUT', '/api/v1/documents/8f2e1d4c/labels/finance'],
  ['DELETE', '/api/v1/documents/8f2e1d4c/labels/finance'],
  ['GET', '/api/scim/v2/users'],
  ['GET', '/api/scim/v2/groups'],
  ['GET', '/api/v1/api-keys'],
];

describe('authentication', () => {
  it.each(ENDPOINTS)('%s %s without a token answers 401 Missing or invalid API key', async (method, path) => {
    const response = await fixture.api.as(undefined).request(method, path, method === 'GET' ? {} : { body: {} });
    const scim = path.startsWith('/api/scim');
    if (scim) expect(response.body).toMatchObject({ detail: 'Missing or invalid API key', status: 401 });
    else expectError(response, 401, 'Missing or invalid API key');
  });

  it.each(ENDPOINTS)('%s %s with an unknown token answers 401', async (method, path) => {
    const response = await fixture.api.as('not-a-real-token').request(method, path, method === 'GET' ? {} : { body: {} });
    expect(response.status).toBe(401);
  });

  it('rejects a malformed Authorization header and a disabled token', async () => {
    const raw = await fetch(`${fixture.emulator.url}/api/v1/whoami`, { headers: { authorization: TOKENS.orgAdmin } });
    expect(raw.status).toBe(401);
    const seeded = await startEmulator({
      data: aSeed({
        apiTokens: [
          { name: 'admin key', token: 'tiny-org-admin', type: 'organization', role: 'ORG_ADMIN', owner: 'ada@tiny.example' },
          { name: 'old key', token: 'tiny-disabled-key', type: 'organization', role: 'ORG_ADMIN', owner: 'ada@tiny.example', enabled: false },
        ],
      }),
    });
    try {
      expectError(await new Api(seeded.url, 'tiny-disabled-key').get('/api/v1/whoami'), 401, 'Missing or invalid API key');
      expect((await new Api(seeded.url, 'tiny-org-admin').get('/api/v1/whoami')).status).toBe(200);
    } finally {
      await seeded.close();
    }
  });
});

describe('authorisation matrix', () => {
  const callers = [
    ['ORG_ADMIN organization key', TOKENS.orgAdmin],
    ['MEMBER organization key', TOKENS.orgMember],
    ['personal token of an ORG_ADMIN', TOKENS.adaPersonal],
    ['personal token of a MEMBER', TOKENS.gracePersonal],
  ] as const;

  const expected: Record<string, Record<(typeof callers)[number][1], number>> = {
    'GET /api/v1/whoami': { [TOKENS.orgAdmin]: 200, [TOKENS.orgMember]: 200, [TOKENS.adaPersonal]: 200, [TOKENS.gracePersonal]: 200 },
    'GET /api/v1/ai/credit-controls': { [TOKENS.orgAdmin]: 200, [TOKENS.orgMember]: 403, [TOKENS.adaPersonal]: 200, [TOKENS.gracePersonal]: 403 },
    'GET /api/v1/ai/credit-controls/users': { [TOKENS.orgAdmin]: 200, [TOKENS.orgMember]: 403, [TOKENS.adaPersonal]: 200, [TOKENS.gracePersonal]: 403 },
    'GET /api/v1/api-keys': { [TOKENS.orgAdmin]: 200, [TOKENS.orgMember]: 403, [TOKENS.adaPersonal]: 200, [TOKENS.gracePersonal]: 403 },
    'GET /api/scim/v2/users': { [TOKENS.orgAdmin]: 200, [TOKENS.orgMember]: 200, [TOKENS.adaPersonal]: 403, [TOKENS.gracePersonal]: 403 },
    'GET /api/v1/ai/routines?userId=3f1c9a7e-5b2d-4e8f-9a6c-1d0e2f3a4b02': { [TOKENS.orgAdmin]: 200, [TOKENS.orgMember]: 200, [TOKENS.adaPersonal]: 403, [TOKENS.gracePersonal]: 403 },
    'GET /api/v1/labels': { [TOKENS.orgAdmin]: 200, [TOKENS.orgMember]: 200, [TOKENS.adaPersonal]: 200, [TOKENS.gracePersonal]: 200 },
  };

  for (const [endpoint, statuses] of Object.entries(expected)) {
    for (const [who, token] of callers) {
      it(`${endpoint} as ${who} answers ${statuses[token]}`, async () => {
        const [method, path] = endpoint.split(' ') as [string, string];
        const response = await fixture.api.as(token).request(method, path);
        expect(response.status).toBe(statuses[token]);
      });
    }
  }

  it('answers 403 Insufficient permissions in the error form for a MEMBER on an admin action', async () => {
    expectError(await fixture.api.as(TOKENS.orgMember).get('/api/v1/ai/credit-controls'), 403, 'Insufficient permissions');
    expectError(await fixture.api.as(TOKENS.gracePersonal).get('/api/v1/api-keys'), 403, 'Insufficient permissions');
  });

  it('refuses SCIM and userId to user-scoped tokens with their own messages', async () => {
    const scim = await fixture.api.as(TOKENS.adaPersonal).get('/api/scim/v2/users');
    expect(scim.body).toMatchObject({ detail: 'User-scoped tokens cannot use SCIM', status: 403 });
    const grace = fixture.emulator.state.userId('grace@acme.example');
    expectError(
      await fixture.api.as(TOKENS.adaPersonal).get('/api/v1/ai/routines', { userId: grace }),
      403,
      'User-scoped tokens cannot filter by userId',
    );
    expectError(
      await fixture.api.as(TOKENS.adaPersonal).post('/api/v1/labels', { name: 'mine' }, { userId: grace }),
      403,
      'User-scoped tokens cannot act for another user (userId)',
    );
  });

  it('validates userId for organization keys: 400 malformed, 404 unknown', async () => {
    expectDetail(await fixture.api.get('/api/v1/ai/routines', { userId: 'nope' }), 400, 'Bad Request: userId: Invalid userId format');
    expectDetail(await fixture.api.get('/api/v1/ai/routines', { userId: '00000000-0000-4000-8000-000000000000' }), 404, 'User not found');
  });
});

describe('unknown paths and methods', () => {
  it('answers 404 in the detail form for an unknown path', async () => {
    expectDetail(await fixture.api.get('/api/v1/nothing-here'), 404, 'Not Found: no endpoint at /api/v1/nothing-here');
    expectDetail(await fixture.api.get('/api/v1/ai/routines/x/y/z'), 404, /no endpoint/);
  });

  it('answers 405 with Allow for a wrong method on a known path', async () => {
    const response = await fixture.api.request('DELETE', '/api/v1/ai/credit-controls');
    expectError(response, 405, 'Method DELETE is not allowed on /api/v1/ai/credit-controls');
    expect(response.headers.get('allow')).toBe('GET, PATCH');
    expect((await fixture.api.post('/api/v1/whoami', {})).status).toBe(405);
    expect((await fixture.api.put('/api/v1/documents/8f2e1d4c/labels', {})).status).toBe(405);
  });

  it('still asks for a token before telling what exists', async () => {
    expect((await fixture.api.as(undefined).get('/api/v1/nothing-here')).status).toBe(401);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await fixture.api.request('PATCH', '/api/v1/ai/credit-controls', { rawBody: '{not json' });
    expectDetail(response, 400, /^Bad Request: body: invalid JSON/);
  });
});
