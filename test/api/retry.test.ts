// Retries as the platform needs them: transient statuses and network errors are retried for
// reads with jittered exponential backoff, Retry-After and a time budget; a write (POST, PUT,
// PATCH, DELETE) is retried only when the server surely did nothing, otherwise its outcome is unknown.

import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, isOutcomeUnknown, isRateLimited } from '../../src/api/errors.js';
import { backoffDelay, decideRetry, parseRetryAfter } from '../../src/api/retry.js';
import { ORIGIN, rejectionOf, testClient, type TestClient } from './helpers.js';

const ROUTINES = '/api/v1/ai/routines';
let current: TestClient | undefined;

function setup(overrides: Parameters<typeof testClient>[0] = {}): TestClient {
  current = testClient(overrides);
  return current;
}

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  await current?.client.close();
  current = undefined;
  nock.cleanAll();
});
afterAll(() => nock.enableNetConnect());

const list = (client: TestClient['client']) =>
  client.request<{ records: unknown[] }>('GET', ROUTINES, { operation: 'listing routines', route: `GET ${ROUTINES}` });
const create = (client: TestClient['client']) =>
  client.request<{ id: string }>('POST', ROUTINES, {
    operation: 'creating routine "Weekly digest"',
    route: `POST ${ROUTINES}`,
    body: { name: 'Weekly digest' },
  });

describe('idempotent requests', () => {
  it.each([429, 500, 502, 503, 504])('retries a GET answered %i, then returns the body', async (status) => {
    const { client, clock } = setup();
    const scope = nock(ORIGIN).get(ROUTINES).reply(status, { detail: 'try later', status }).get(ROUTINES).reply(200, { records: [] });
    await expect(list(client)).resolves.toEqual({ records: [] });
    scope.done();
    // random() = 0.5 and a first ceiling of 1 s: full jitter waits 500 ms.
    expect(clock.sleeps).toEqual([500]);
    expect(client.stats()).toEqual({
      requests: 2,
      retries: 1,
      rateLimited: status === 429 ? 1 : 0,
      byRoute: { [`GET ${ROUTINES}`]: 2 },
    });
  });

  it.each([400, 401, 403, 404, 405, 409])('does not retry a GET answered %i', async (status) => {
    const { client, clock } = setup();
    const scope = nock(ORIGIN).get(ROUTINES).reply(status, { error: 'E', message: 'no' });
    const error = await rejectionOf(list(client));
    scope.done();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect((error as ApiError).retries).toBe(0);
    expect(clock.sleeps).toEqual([]);
    expect(client.stats().requests).toBe(1);
  });

  it('retries a connection reset and a timeout on a GET', async () => {
    const { client } = setup({ timeoutMs: 100 });
    const scope = nock(ORIGIN)
      .get(ROUTINES)
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
      .get(ROUTINES)
      .delay(1_000)
      .reply(200, { records: ['late'] })
      .get(ROUTINES)
      .reply(200, { records: [] });
    await expect(list(client)).resolves.toEqual({ records: [] });
    scope.done();
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2 });
  });

  it('does not retry a failure that repeating cannot cure (unknown host)', async () => {
    const { client } = setup();
    nock(ORIGIN).get(ROUTINES).replyWithError({ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND acme.example.com' });
    const error = (await rejectionOf(list(client))) as ApiError;
    expect(error.code).toBe('api.network');
    expect(error.message).toBe('listing routines: network error (getaddrinfo ENOTFOUND acme.example.com)');
    expect(client.stats().requests).toBe(1);
  });

  it('backs off exponentially with full jitter, capped at 30 s', async () => {
    const { client, clock } = setup({ retryBudgetMs: 1_000_000, maxRetries: 7 });
    const scope = nock(ORIGIN).get(ROUTINES).times(7).reply(502, '<html>bad gateway</html>').get(ROUTINES).reply(200, { records: [] });
    await list(client);
    scope.done();
    expect(clock.sleeps).toEqual([500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000]);
  });

  it('gives up after maxRetries and says so', async () => {
    const { client } = setup({ random: () => 0, maxRetries: 3 });
    nock(ORIGIN).get(ROUTINES).times(4).reply(500, { error: 'internal', message: 'Internal error' });
    const error = (await rejectionOf(list(client))) as ApiError;
    expect(error.message).toBe('listing routines: 500 Internal error (gave up after 3 retries)');
    expect(error.retries).toBe(3);
    expect(client.stats()).toMatchObject({ requests: 4, retries: 3 });
  });
});

describe('Retry-After', () => {
  it('honours a delay in seconds', async () => {
    const { client, clock } = setup();
    nock(ORIGIN).get(ROUTINES).reply(429, { detail: 'Too many requests', status: 429 }, { 'Retry-After': '7' });
    nock(ORIGIN).get(ROUTINES).reply(200, { records: [] });
    await list(client);
    expect(clock.sleeps).toEqual([7_000]);
  });

  it('honours an HTTP date', async () => {
    const { client, clock } = setup();
    const at = new Date(clock.now() + 12_000).toUTCString();
    nock(ORIGIN).get(ROUTINES).reply(503, 'down for maintenance', { 'Retry-After': at });
    nock(ORIGIN).get(ROUTINES).reply(200, { records: [] });
    await list(client);
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('gives up at once when the server asks for more than the budget allows', async () => {
    const { client, clock } = setup({ retryBudgetMs: 10_000 });
    nock(ORIGIN).get(ROUTINES).reply(429, { detail: 'Rate limit exceeded', status: 429 }, { 'Retry-After': '120' });
    const error = (await rejectionOf(list(client))) as ApiError;
    expect(isRateLimited(error)).toBe(true);
    expect(error.message).toBe(
      'listing routines: 429 Rate limit exceeded (the server asked to wait 120s, beyond the retry budget of 10s)',
    );
    expect(clock.sleeps).toEqual([]);
  });

  it('parses both forms and ignores garbage', () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 30 ', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('retry budget', () => {
  it('stops waiting once the total wait reaches the budget, clamping the last wait', async () => {
    const { client, clock } = setup({ retryBudgetMs: 5_000, random: () => 0.99 });
    nock(ORIGIN).get(ROUTINES).times(4).reply(503, { detail: 'Service unavailable', status: 503 });
    const error = (await rejectionOf(list(client))) as ApiError;
    expect(clock.sleeps).toEqual([990, 1_980, 2_030]);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(5_000);
    expect(error.message).toBe('listing routines: 503 Service unavailable (gave up after 3 retries; retry budget of 5s spent)');
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('with a zero budget, fails on the first transient error', async () => {
    const { client } = setup({ retryBudgetMs: 0 });
    nock(ORIGIN).get(ROUTINES).reply(504, '');
    const error = (await rejectionOf(list(client))) as ApiError;
    expect(error.message).toBe('listing routines: 504 Gateway Timeout (retry budget of 0s spent)');
  });
});

describe('POST is never blindly retried', () => {
  it.each([500, 502, 503, 504])('reports the outcome of a POST answered %i as unknown, without retrying', async (status) => {
    const { client, clock } = setup();
    const scope = nock(ORIGIN).post(ROUTINES).reply(status, '');
    const error = (await rejectionOf(create(client))) as ApiError;
    scope.done();
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.code).toBe('api.outcome-unknown');
    expect(error.fault).toBe('server');
    expect(error.method).toBe('POST');
    expect(error.route).toBe(`POST ${ROUTINES}`);
    expect(error.message).toMatch(/^creating routine "Weekly digest": \d{3} .+; the outcome is unknown \(the server may have applied the change\), read back before retrying$/);
    expect(clock.sleeps).toEqual([]);
    expect(client.stats().requests).toBe(1);
  });

  it('reports a POST whose connection was reset as outcome unknown', async () => {
    const { client } = setup();
    nock(ORIGIN).post(ROUTINES).replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const error = (await rejectionOf(create(client))) as ApiError;
    expect(error.outcomeUnknown).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toBe(
      'creating routine "Weekly digest": network error (ECONNRESET: socket hang up); the outcome is unknown (the server may have applied the change), read back before retrying',
    );
    expect(client.stats().requests).toBe(1);
  });

  it('reports a POST that timed out as outcome unknown', async () => {
    const { client } = setup({ timeoutMs: 50 });
    nock(ORIGIN).post(ROUTINES).delay(1_000).reply(200, { id: 'late' });
    const error = (await rejectionOf(create(client))) as ApiError;
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain(': no complete response within 50 ms;');
  });

  it('retries a POST answered 429: the server did nothing', async () => {
    const { client, clock } = setup();
    const scope = nock(ORIGIN)
      .post(ROUTINES)
      .reply(429, { detail: 'Too many requests', status: 429 }, { 'Retry-After': '2' })
      .post(ROUTINES)
      .reply(200, { id: 'r-9' });
    await expect(create(client)).resolves.toEqual({ id: 'r-9' });
    scope.done();
    expect(clock.sleeps).toEqual([2_000]);
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1, rateLimited: 1 });
  });

  it('retries a POST whose connection was refused: it never reached the server', async () => {
    const { client } = setup();
    nock(ORIGIN).post(ROUTINES).replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
    nock(ORIGIN).post(ROUTINES).reply(200, { id: 'r-10' });
    await expect(create(client)).resolves.toEqual({ id: 'r-10' });
  });

  it('reports a POST rejected with 400 as a plain error, outcome known', async () => {
    const { client } = setup();
    nock(ORIGIN).post(ROUTINES).reply(400, { detail: 'Bad Request: schedule: more frequent than hourly', status: 400 });
    const error = (await rejectionOf(create(client))) as ApiError;
    expect(error.outcomeUnknown).toBe(false);
    expect(error.code).toBe('api.bad-request');
    expect(error.fault).toBe('user');
    expect(error.message).toBe('creating routine "Weekly digest": 400 Bad Request: schedule: more frequent than hourly');
  });
});

describe('PUT, PATCH and DELETE are never blindly retried either', () => {
  const path = `${ROUTINES}/r-1`;
  const write = (client: TestClient['client'], method: 'PUT' | 'PATCH' | 'DELETE') =>
    client.request(method, path, {
      operation: 'updating routine "Weekly digest"',
      route: `${method} ${ROUTINES}/{routineId}`,
      body: method === 'DELETE' ? undefined : { name: 'Weekly digest' },
    });
  const verbOf = (method: 'PUT' | 'PATCH' | 'DELETE') => method.toLowerCase() as 'put' | 'patch' | 'delete';

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('reports a %s answered 503 as outcome unknown after one attempt', async (method) => {
    const { client, clock } = setup();
    const scope = nock(ORIGIN)[verbOf(method)](path).reply(503, '');
    const error = (await rejectionOf(write(client, method))) as ApiError;
    scope.done();
    expect(error.code).toBe('api.outcome-unknown');
    expect(error.outcomeUnknown).toBe(true);
    expect(error.fault).toBe('server');
    expect(error.status).toBe(503);
    expect(error.message).toBe(
      'updating routine "Weekly digest": 503 Service Unavailable; the outcome is unknown (the server may have applied the change), read back before retrying',
    );
    expect(clock.sleeps).toEqual([]);
    expect(client.stats()).toMatchObject({ requests: 1, retries: 0 });
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('reports a %s whose connection was reset as outcome unknown', async (method) => {
    const { client } = setup();
    nock(ORIGIN)[verbOf(method)](path).replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const error = (await rejectionOf(write(client, method))) as ApiError;
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toBe(
      'updating routine "Weekly digest": network error (ECONNRESET: socket hang up); the outcome is unknown (the server may have applied the change), read back before retrying',
    );
    expect(client.stats().requests).toBe(1);
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('reports a %s that timed out as outcome unknown', async (method) => {
    const { client } = setup({ timeoutMs: 50 });
    nock(ORIGIN)[verbOf(method)](path).delay(1_000).reply(200, { id: 'r-1' });
    const error = (await rejectionOf(write(client, method))) as ApiError;
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain(': no complete response within 50 ms;');
    expect(client.stats().requests).toBe(1);
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('retries a %s answered 429: the server did nothing', async (method) => {
    const { client, clock } = setup();
    const scope = nock(ORIGIN)
      [verbOf(method)](path)
      .reply(429, { detail: 'Too many requests', status: 429 }, { 'Retry-After': '1' })
      [verbOf(method)](path)
      .reply(200, { id: 'r-1' });
    await expect(write(client, method)).resolves.toEqual({ id: 'r-1' });
    scope.done();
    expect(clock.sleeps).toEqual([1_000]);
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1, rateLimited: 1 });
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('retries a %s whose connection was refused: it never reached the server', async (method) => {
    const { client } = setup();
    nock(ORIGIN)[verbOf(method)](path).replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
    nock(ORIGIN)[verbOf(method)](path).reply(200, { id: 'r-1' });
    await expect(write(client, method)).resolves.toEqual({ id: 'r-1' });
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1 });
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('reports a %s answered 404 as a plain error, outcome known', async (method) => {
    const { client } = setup();
    nock(ORIGIN)[verbOf(method)](path).reply(404, { detail: 'Routine not found', status: 404 });
    const error = (await rejectionOf(write(client, method))) as ApiError;
    expect(error.outcomeUnknown).toBe(false);
    expect(error.code).toBe('api.not-found');
    expect(client.stats().requests).toBe(1);
  });
});

describe('retry policy', () => {
  const policy = { budgetMs: 60_000, maxRetries: 8, baseDelayMs: 1_000, maxDelayMs: 30_000, random: () => 0.5 };

  it('keeps jitter inside [0, ceiling)', () => {
    expect(backoffDelay(1, { ...policy, random: () => 0 })).toBe(0);
    expect(backoffDelay(3, { ...policy, random: () => 0.999 })).toBe(3_996);
    expect(backoffDelay(20, { ...policy, random: () => 0.999 })).toBe(29_970);
  });

  it('repeats only reads after a failure that may have reached the server', () => {
    const reset = { kind: 'network', notSent: false, permanent: false } as const;
    const unavailable = { kind: 'status', status: 503, retryAfterMs: undefined } as const;
    expect(decideRetry('GET', reset, 0, 0, policy)).toMatchObject({ retry: true });
    expect(decideRetry('GET', unavailable, 0, 0, policy)).toMatchObject({ retry: true });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect(decideRetry(method, reset, 0, 0, policy)).toEqual({ retry: false, outcomeUnknown: true, note: undefined });
      expect(decideRetry(method, unavailable, 0, 0, policy)).toEqual({ retry: false, outcomeUnknown: true, note: undefined });
      expect(decideRetry(method, { kind: 'status', status: 429, retryAfterMs: undefined }, 0, 0, policy)).toMatchObject({ retry: true });
      expect(decideRetry(method, { kind: 'network', notSent: true, permanent: false }, 0, 0, policy)).toMatchObject({ retry: true });
    }
  });

  it('never marks a connection that was never made as outcome unknown', () => {
    expect(decideRetry('POST', { kind: 'network', notSent: true, permanent: true }, 0, 0, policy)).toEqual({
      retry: false,
      outcomeUnknown: false,
      note: undefined,
    });
    expect(decideRetry('POST', { kind: 'network', notSent: false, permanent: false }, 0, 0, policy)).toEqual({
      retry: false,
      outcomeUnknown: true,
      note: undefined,
    });
  });
});
