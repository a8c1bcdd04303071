// What the client tells its observer (contract 2): every attempt, every answer, every wait of a
// second or more, every page; and how long a number of requests takes under the pacing budget.
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClientEvent } from '../../src/api/client.js';
import { collect } from '../../src/api/pagination.js';
import type { ApiError } from '../../src/api/errors.js';
import { PlatformApi } from '../../src/api/platform.js';
import { ORIGIN, rejectionOf, testClient, type TestClient } from './helpers.js';

let current: TestClient | undefined;
beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  await current?.client.close();
  current = undefined;
  nock.cleanAll();
});

function observed(overrides: Parameters<typeof testClient>[0] = {}): { events: ClientEvent[]; client: TestClient['client'] } {
  const events: ClientEvent[] = [];
  current = testClient({ observe: (event) => events.push(event), ...overrides });
  return { events, client: current.client };
}

/** The events without their measured durations, which vary from run to run. */
function shapes(events: ClientEvent[]): unknown[] {
  return events.map((event) => (event.type === 'response' ? { ...event, ms: typeof event.ms } : event));
}

describe('client events', () => {
  it('reports the start and end of every attempt and the wait between them', async () => {
    const { events, client } = observed();
    nock(ORIGIN)
      .get('/api/v1/labels')
      .reply(429, { detail: 'Too many requests', status: 429 }, { 'retry-after': '3' })
      .get('/api/v1/labels')
      .reply(200, { labels: [] });
    await client.request('GET', '/api/v1/labels', { operation: 'listing labels', route: 'GET /api/v1/labels' });
    const attempt = { method: 'GET', route: 'GET /api/v1/labels', operation: 'listing labels' };
    expect(shapes(events)).toEqual([
      { type: 'request', ...attempt },
      { type: 'response', ...attempt, status: 429, ms: 'number' },
      { type: 'wait', reason: 'rate-limit', ms: 3000, operation: 'listing labels' },
      { type: 'request', ...attempt },
      { type: 'response', ...attempt, status: 200, ms: 'number' },
    ]);
  });

  it('reports a failed attempt without a status, and a retry wait as such', async () => {
    const { events, client } = observed({ random: () => 0.9 });
    nock(ORIGIN)
      .get('/api/v1/whoami')
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
      .get('/api/v1/whoami')
      .reply(503, '', { 'retry-after': '2' })
      .get('/api/v1/whoami')
      .reply(200, {});
    await client.request('GET', '/api/v1/whoami', { operation: 'reading the API key identity' });
    const responses = events.filter((event) => event.type === 'response').map((event) => (event.type === 'response' ? event.status : null));
    expect(responses).toEqual([undefined, 503, 200]);
    // The first wait (900 ms of jitter) is under a second and not reported; the second is.
    expect(events.filter((event) => event.type === 'wait')).toEqual([
      { type: 'wait', reason: 'retry', ms: 2000, operation: 'reading the API key identity' },
    ]);
  });

  it('reports each page of a paginated list with the number of pages when the server says it', async () => {
    const { events, client } = observed();
    const users = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ userId: `u-${String(from + i).padStart(3, '0')}`, creditLimit: 10 }));
    nock(ORIGIN)
      .get('/api/v1/ai/credit-controls/users')
      .query(true)
      .reply(200, { records: users(0, 100), pageInfo: { hasNextPage: true, nextCursor: 'c2', pageSize: 100, totalRecords: 150 } })
      .get('/api/v1/ai/credit-controls/users')
      .query(true)
      .reply(200, { records: users(100, 50), pageInfo: { hasNextPage: false, nextCursor: null, pageSize: 100, totalRecords: 150 } });
    const records = await collect(new PlatformApi(client).listUserCreditLimits());
    expect(records).toHaveLength(150);
    expect(events.filter((event) => event.type === 'page')).toEqual([
      { type: 'page', operation: 'listing user credit limits', page: 1, totalPages: 2 },
      { type: 'page', operation: 'listing user credit limits', page: 2, totalPages: 2 },
    ]);
  });
});

describe('waits', () => {
  it('reports a wait for a pacing slot of a second or more', async () => {
    const { events, client } = observed({ requestsPerMinute: 60, burst: 1 });
    nock(ORIGIN).get('/api/v1/labels').times(2).reply(200, { labels: [] });
    await Promise.all([
      client.request('GET', '/api/v1/labels', { operation: 'listing labels' }),
      client.request('GET', '/api/v1/labels', { operation: 'reading labels again' }),
    ]);
    expect(events.filter((event) => event.type === 'wait')).toEqual([{ type: 'wait', reason: 'pacing', ms: 1000, operation: 'reading labels again' }]);
  });

  it('bounds the waits of one request by its time limit, not only its retry budget', async () => {
    const { client } = observed({ requestTimeoutMs: 5000, retryBudgetMs: 60_000 });
    nock(ORIGIN).get('/api/v1/labels').times(5).reply(503, { detail: 'Service unavailable', status: 503 }, { 'retry-after': '2' });
    const error = (await rejectionOf(client.request('GET', '/api/v1/labels', { operation: 'listing labels' }))) as ApiError;
    expect(error.message).toBe(
      "listing labels: 503 Service unavailable (gave up after 2 retries; waiting 2 s more would pass the request's time limit of 5 s)",
    );
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2 });
  });
});

describe('cost estimates', () => {
  it('exposes the pacing budget and estimates requests beyond the burst at its rate', () => {
    const { client } = observed({ requestsPerMinute: 60, burst: 10 });
    expect(client.requestsPerMinute).toBe(60);
    expect(client.estimateMs(0)).toBe(0);
    // Ten go at once from a full bucket; each further one takes a second at 60 per minute.
    expect(client.estimateMs(10)).toBe(0);
    expect(client.estimateMs(70)).toBe(60_000);
  });

  it('counts requests already waiting for a slot', async () => {
    // The real clock: a virtual one would already have moved past the second request's wait.
    const { client } = observed({ requestsPerMinute: 600, burst: 1, now: undefined });
    nock(ORIGIN).get('/api/v1/labels').times(2).reply(200, { labels: [] });
    const first = client.request('GET', '/api/v1/labels', { operation: 'listing labels' });
    const second = client.request('GET', '/api/v1/labels', { operation: 'listing labels' });
    // The first took the only token; the second waits for a slot: one more comes after it,
    // two slots of 100 ms at 600 per minute.
    expect(client.estimateMs(1)).toBe(200);
    await Promise.all([first, second]);
  });
});
