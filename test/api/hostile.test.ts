// The client against servers that misbehave, over real loopback HTTP: each failure ends within
// its configured bounds with one sentence naming the endpoint, stderr is told while it waits, a
// write is never repeated blindly, and the token appears nowhere. Time limits are small here;
// assertions are on counts and messages, never on how long anything took.

import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ClientEvent, type ClientOptions } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { collect } from '../../src/api/pagination.js';
import { PlatformApi } from '../../src/api/platform.js';
import { StewardError } from '../../src/errors.js';
import { expectNoSecret, freshToken, rejectionOf } from './helpers.js';
import { cutShort, json, neverAnswer, startHostileServer, type Behaviour, type HostileServer } from './hostileServer.js';
import { labelRecord, LAST_PAGE, routineRecord, scimUser, whoamiBody } from './wire.js';

let server: HostileServer | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

interface Harness {
  api: PlatformApi;
  client: ApiClient;
  server: HostileServer;
  token: string;
  notices: string[];
  events: ClientEvent[];
}

/** A client with small limits (200 ms per attempt, 700 ms per request, no backoff) against a hostile server. */
async function against(
  routes: Record<string, Behaviour> | ((token: string) => Record<string, Behaviour>),
  options: Partial<ClientOptions> = {},
): Promise<Harness> {
  const token = freshToken();
  server = await startHostileServer(typeof routes === 'function' ? routes(token) : routes);
  const notices: string[] = [];
  const events: ClientEvent[] = [];
  client = new ApiClient({
    baseUrl: server.url,
    token,
    requestsPerMinute: 6000,
    burst: 100,
    timeoutMs: 200,
    requestTimeoutMs: 700,
    slowNoticeMs: 100,
    random: () => 0,
    notice: (line) => notices.push(line),
    observe: (event) => events.push(event),
    ...options,
  });
  return { api: new PlatformApi(client), client, server, token, notices, events };
}

function page(records: unknown[], nextCursor: string | null, extra: Record<string, unknown> = {}) {
  return { records, pageInfo: { hasNextPage: nextCursor !== null, nextCursor, pageSize: 100, ...extra } };
}

const oneSentence = (message: string) => expect(message).not.toMatch(/\n/);

describe('a server that accepts the connection and never answers', () => {
  it('tells stderr while it waits and gives up within the request time limit', async () => {
    const { api, server, token, notices, events } = await against({ 'GET /api/v1/labels': neverAnswer() });
    const error = (await rejectionOf(api.listLabels())) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('api.timeout');
    expect(error.fault).toBe('server');
    expect(error.message).toMatch(
      /^listing labels: GET \/api\/v1\/labels: no complete response within \d+ ms \(gave up after \d+ retr(y|ies); (the request's time limit of 700 ms is spent|too little of the request's time limit of 700 ms is left for another attempt)\)$/,
    );
    oneSentence(error.message);
    // 700 ms at 200 ms per attempt: three or four attempts, never the nine of old.
    expect(server.countOf('GET /api/v1/labels')).toBeGreaterThanOrEqual(3);
    expect(server.countOf('GET /api/v1/labels')).toBeLessThanOrEqual(4);
    expect(notices).toContain('still waiting for GET /api/v1/labels (100 ms)');
    expect(events.some((event) => event.type === 'slow' && event.route === 'GET /api/v1/labels' && event.waitedMs === 100)).toBe(true);
    expectNoSecret(token, error, notices);
  });

  it('sends a write once and reports its outcome as unknown', async () => {
    const { api, server } = await against({ 'PUT /api/v1/labels/finance': neverAnswer() });
    const error = (await rejectionOf(api.updateLabel('finance', { description: 'Money' }))) as ApiError;
    expect(error.code).toBe('api.outcome-unknown');
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(/^updating label "finance": PUT \/api\/v1\/labels\/\{labelName\}: no complete response within 200 ms; the outcome is unknown/);
    expect(server.countOf('PUT /api/v1/labels/finance')).toBe(1);
  });
});

describe('a body shorter than its Content-Length', () => {
  it('is a sentence, not an undici code, and a read is tried again', async () => {
    const { api, server, token } = await against((key) => ({ 'GET /api/v1/labels': cutShort({ labels: [labelRecord('finance'), labelRecord(key)] }) }), {
      maxRetries: 2,
    });
    const error = (await rejectionOf(api.listLabels())) as ApiError;
    expect(error.code).toBe('api.truncated-response');
    expect(error.message).toMatch(/^listing labels: GET \/api\/v1\/labels: the response body was cut short \(\d+ bytes were announced\) \(gave up after 2 retries\)$/);
    expect(error.message).not.toMatch(/UND_ERR|terminated|other side closed/);
    expect(server.countOf('GET /api/v1/labels')).toBe(3);
    expectNoSecret(token, error);
  });

  it('is still seen on the last attempt when the backoff draws its longest waits', async () => {
    // Jitter near 1 asks for waits that would leave the last attempt a few milliseconds of the
    // 700 ms limit: it would time out before the server cuts the body, and tell a timeout of its
    // own making. The backoff is shortened so that every attempt keeps a quarter of the limit.
    const { api, server } = await against({ 'GET /api/v1/labels': cutShort({ labels: [labelRecord('finance')] }) }, { random: () => 0.999, maxRetries: 2 });
    const error = (await rejectionOf(api.listLabels())) as ApiError;
    expect(error.code).toBe('api.truncated-response');
    expect(error.message).toMatch(/the response body was cut short \(\d+ bytes were announced\) \(gave up after 1 retry; too little of the request's time limit of 700 ms is left for another attempt\)$/);
    expect(server.countOf('GET /api/v1/labels')).toBe(2);
  });

  it('leaves the outcome of a cut write unknown, sent once', async () => {
    const { api, server } = await against({ 'PATCH /api/v1/ai/credit-controls': cutShort({ userDefaultCredits: 5, downgradeCredits: null }) });
    const error = (await rejectionOf(api.patchCreditControls({ userDefaultCredits: 5 }))) as ApiError;
    expect(error.code).toBe('api.outcome-unknown');
    expect(error.message).toMatch(/^updating AI credit controls: PATCH \/api\/v1\/ai\/credit-controls: the response body was cut short .*; the outcome is unknown/);
    expect(server.countOf('PATCH /api/v1/ai/credit-controls')).toBe(1);
  });
});

describe('listings that would never end', () => {
  it('stops when the server hands back the cursor it was just given', async () => {
    const { api, server } = await against({
      'GET /api/v1/ai/routines': (request, response) => json(200, page([routineRecord(`r${request.count}`)], 'again'))(request, response),
    });
    const error = (await rejectionOf(collect(api.listRoutines()))) as StewardError;
    expect(error.code).toBe('api.pagination');
    expect(error.message).toBe(
      'listing routines: GET /api/v1/ai/routines: the server returned cursor "again" a second time (page 3); stopped to avoid an endless listing.',
    );
    expect(server.countOf('GET /api/v1/ai/routines')).toBe(2);
  });

  it('stops at the second page when fresh cursors bring the same records again', async () => {
    const { api, server } = await against({
      'GET /api/v1/ai/routines': (request, response) => json(200, page([routineRecord('r1'), routineRecord('r2')], `cursor-${request.count}`))(request, response),
    });
    const error = (await rejectionOf(collect(api.listRoutines()))) as StewardError;
    expect(error.code).toBe('api.pagination');
    expect(error.fault).toBe('server');
    expect(error.message).toBe('listing routines: GET /api/v1/ai/routines: record "r1" came on page 2 again after page 1; stopped to avoid an endless listing.');
    expect(server.countOf('GET /api/v1/ai/routines')).toBe(2);
  });

  it('stops at the second page when records run past the announced totalRecords', async () => {
    const users = (from: number) => Array.from({ length: 100 }, (_, i) => ({ userId: `u-${from + i}`, creditLimit: 10 }));
    const { api, server } = await against({
      'GET /api/v1/ai/credit-controls/users': (request, response) =>
        json(200, page(users(request.count * 100), `cursor-${request.count}`, { totalRecords: 100 }))(request, response),
    });
    const error = (await rejectionOf(collect(api.listUserCreditLimits()))) as StewardError;
    expect(error.message).toBe(
      'listing user credit limits: GET /api/v1/ai/credit-controls/users: page 2 brings the listing to 200 records, more than the 100 its pageInfo.totalRecords announced; stopped to avoid an endless listing.',
    );
    expect(server.countOf('GET /api/v1/ai/credit-controls/users')).toBe(2);
  });

  it('stops a SCIM listing that runs past totalResults', async () => {
    const { api, server } = await against({
      'GET /api/scim/v2/users': (request, response) => {
        const start = Number(request.query.get('startIndex'));
        json(200, { Resources: [scimUser(`u${start}`), scimUser(`u${start + 1}`)], totalResults: 3, startIndex: start })(request, response);
      },
    });
    const error = (await rejectionOf(collect(api.listScimUsers()))) as StewardError;
    expect(error.message).toBe(
      'listing users: GET /api/scim/v2/users: page 2 brings the listing to 4 records, more than the 3 its totalResults announced; stopped to avoid an endless listing.',
    );
    expect(server.countOf('GET /api/scim/v2/users')).toBe(2);
  });
});

describe('responses of the wrong shape', () => {
  it('refuses a list that is not a list, naming method and route', async () => {
    const { api, server } = await against({ 'GET /api/v1/ai/routines': json(200, { records: { r1: routineRecord('r1') }, pageInfo: LAST_PAGE }) });
    const error = (await rejectionOf(collect(api.listRoutines()))) as ApiError;
    expect(error.code).toBe('api.invalid-response');
    expect(error.fault).toBe('server');
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toBe('listing routines: GET /api/v1/ai/routines: records is an object, not a list');
    expect(server.countOf('GET /api/v1/ai/routines')).toBe(1);
  });

  it('refuses a field of the wrong type', async () => {
    const { api } = await against({ 'GET /api/v1/labels': json(200, { labels: [labelRecord('finance'), { ...labelRecord('ops'), verified: 'yes' }] }) });
    const error = (await rejectionOf(api.listLabels())) as ApiError;
    expect(error.message).toBe('listing labels: GET /api/v1/labels: label 2: verified is a string, not a boolean');
  });

  it('refuses a record without its identity, on whichever page it comes', async () => {
    const { name: _dropped, ...nameless } = routineRecord('r3');
    const { api } = await against({
      'GET /api/v1/ai/routines': (request, response) =>
        request.count === 1
          ? json(200, page([routineRecord('r1'), routineRecord('r2')], 'c2'))(request, response)
          : json(200, page([routineRecord('r4'), routineRecord('r5'), nameless], null))(request, response),
    });
    const error = (await rejectionOf(collect(api.listRoutines()))) as ApiError;
    expect(error.message).toBe('listing routines: GET /api/v1/ai/routines: record 3 of page 2 has no name');
  });

  it('reports an unreadable answer to a write as outcome unknown, so it is read back, not failed', async () => {
    const { api, server } = await against({ 'PATCH /api/v1/ai/routines/r1': json(200, { ok: true }) });
    const error = (await rejectionOf(api.patchRoutine('r1', { prompt: 'new' }, { name: 'Weekly digest' }))) as ApiError;
    expect(error.code).toBe('api.invalid-response');
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toBe(
      'updating routine "Weekly digest" (r1): PATCH /api/v1/ai/routines/{routineId}: the response has no id; the outcome is unknown (the server may have applied the change), read back before retrying',
    );
    expect(server.countOf('PATCH /api/v1/ai/routines/r1')).toBe(1);
  });

  it('passes over document fields steward never reads, whatever a server puts there', async () => {
    const odd = { identifier: 'doc1', name: null, connectionId: null, deleted: 'no', folder: 'root', owner: null, labels: ['finance'] };
    const { api } = await against({ 'GET /api/v1/documents': json(200, { records: [odd, { identifier: 'doc2', labels: [] }], pageInfo: LAST_PAGE }) });
    const documents = [];
    for await (const document of api.listDocuments({ include: ['labels'] })) documents.push(document);
    expect(documents.map((document) => [document.identifier, document.name, document.labels])).toEqual([
      ['doc1', null, ['finance']],
      ['doc2', null, []],
    ]);
  });

  it('reads whoami for a key without a user as no user', async () => {
    const { api } = await against({ 'GET /api/v1/whoami': json(200, { ...whoamiBody(), user: { id: null, email: null, name: null } }) });
    expect((await api.whoami()).user).toBeNull();
  });
});

describe('a 429 that names a quota', () => {
  it('is a final error for the user, sent once, not a rate limit to wait out', async () => {
    const { api, server, notices } = await against({
      'POST /api/v1/ai/routines': json(429, { detail: 'User has reached the maximum of 100 routines', status: 429 }),
    });
    const error = (await rejectionOf(
      api.createRoutine({ name: 'Weekly digest', prompt: 'p', schedule: '0 9 ? * MON *', timezone: 'UTC', modelId: 'm', destination: { type: 'email', recipientEmails: [], userGroupIds: [] } }),
    )) as ApiError;
    expect(error.code).toBe('api.quota');
    expect(error.fault).toBe('user');
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toBe(
      'creating routine "Weekly digest": 429 User has reached the maximum of 100 routines (a quota of the account, not a rate limit: not retried)',
    );
    expect(error.hint).toMatch(/Waiting does not lift a quota/);
    expect(server.countOf('POST /api/v1/ai/routines')).toBe(1);
    expect(notices).toEqual([]);
  });

  it('tells apart a plain rate limit, which is waited out and announced', async () => {
    const { api, server, notices } = await against({
      'GET /api/v1/labels': (request, response) =>
        request.count === 1
          ? json(429, { detail: 'Rate limit exceeded: at most 60 requests per minute', status: 429 }, { 'retry-after': '0' })(request, response)
          : json(200, { labels: [] })(request, response),
    });
    expect(await api.listLabels()).toEqual([]);
    expect(server.countOf('GET /api/v1/labels')).toBe(2);
    expect(notices).toEqual(['rate limited (429) on GET /api/v1/labels: waiting 0 ms before retry 1']);
  });

  it('waits out a 429 that names a quota but says when to come back (Retry-After)', async () => {
    const { api, server, notices } = await against({
      'GET /api/v1/labels': (request, response) =>
        request.count === 1
          ? json(429, { detail: 'API quota exceeded', status: 429 }, { 'retry-after': '0' })(request, response)
          : json(200, { labels: [] })(request, response),
    });
    expect(await api.listLabels()).toEqual([]);
    expect(server.countOf('GET /api/v1/labels')).toBe(2);
    expect(notices).toEqual(['rate limited (429) on GET /api/v1/labels: waiting 0 ms before retry 1']);
  });
});

describe('a 401', () => {
  it('ends at once with the server words, redacted, and no retry', async () => {
    const { api, server, token } = await against((key) => ({ 'GET /api/v1/whoami': json(401, { detail: `API key ${key} is not valid`, status: 401 }) }));
    const error = (await rejectionOf(api.whoami())) as ApiError;
    expect(error.code).toBe('api.unauthorized');
    expect(error.fault).toBe('user');
    expect(error.message).toBe('reading the API key identity: 401 API key [REDACTED] is not valid');
    expect(server.countOf('GET /api/v1/whoami')).toBe(1);
    expectNoSecret(token, error);
  });
});

describe('dropping writes not yet sent (an interrupted apply)', () => {
  const labelsFullUntil = (free: number): Behaviour => (request, response) =>
    request.count < free
      ? json(429, { detail: 'Too Many Requests', status: 429 }, { 'retry-after': '30' })(request, response)
      : json(200, labelRecord('finance'))(request, response);

  it('rejects a write waiting out a 429 at once, as not sent, and sends nothing more', async () => {
    const { api, client, server } = await against({ 'POST /api/v1/labels': labelsFullUntil(99) }, { requestTimeoutMs: 60_000 });
    const pending = rejectionOf(api.createLabel({ name: 'finance' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.dropUnsentWrites();
    const error = (await pending) as StewardError;
    expect(error.code).toBe('apply.not-sent');
    expect(error.message).toBe('creating label "finance": not sent: apply was stopped while it waited out the server\'s rate limit (429); the server did nothing');
    expect(server.countOf('POST /api/v1/labels')).toBe(1);
  });

  it('sends writes again once told to (the step in flight had written something), and never drops a read', async () => {
    const { api, client, server } = await against({
      'POST /api/v1/labels': json(200, labelRecord('finance')),
      'GET /api/v1/labels': json(200, { labels: [] }),
    });
    client.dropUnsentWrites();
    expect(await api.listLabels()).toEqual([]);
    expect(((await rejectionOf(api.createLabel({ name: 'finance' }))) as StewardError).code).toBe('apply.not-sent');
    client.sendUnsentWrites();
    expect((await api.createLabel({ name: 'finance' })).name).toBe('finance');
    expect(server.countOf('POST /api/v1/labels')).toBe(1);
  });
});
