// Failures that retrying cannot mend end at once; slow retries are announced, and a run as a
// whole has a ceiling on the time it spends retrying.
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { ApiError } from '../../src/api/errors.js';
import { ORIGIN, rejectionOf, testClient } from './helpers.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('failing fast', () => {
  it('does not retry a request the runtime refuses to send (a forbidden port)', async () => {
    nock.enableNetConnect('127.0.0.1');
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:1', token: 'token-for-test' });
    const error = (await rejectionOf(client.request('GET', '/api/v1/whoami', { operation: 'checking the API key' }))) as ApiError;
    expect(error.code).toBe('api.network');
    expect(client.stats()).toMatchObject({ requests: 1, retries: 0 });
    await client.close();
    nock.disableNetConnect();
  });

  it('refuses a token an HTTP header cannot carry, without echoing it', () => {
    const token = 'secret\u20ac-token';
    expect(() => new ApiClient({ baseUrl: ORIGIN, token })).toThrow(/characters an HTTP header cannot carry/);
    try {
      new ApiClient({ baseUrl: ORIGIN, token });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret');
    }
  });
});

describe('retry budgets and notices', () => {
  it('announces a retry that waits a second or more', async () => {
    const notices: string[] = [];
    const { client } = testClient({ notice: (line) => notices.push(line) });
    nock(ORIGIN).get('/api/v1/labels').reply(503, '', { 'retry-after': '2' }).get('/api/v1/labels').reply(200, { labels: [] });
    await client.request('GET', '/api/v1/labels', { operation: 'listing labels' });
    expect(notices).toEqual(['GET /api/v1/labels answered 503: waiting 2 s before retry 1']);
  });

  it('announces every wait for a 429, however short, without --debug', async () => {
    const notices: string[] = [];
    const { client } = testClient({ notice: (line) => notices.push(line) });
    nock(ORIGIN)
      .get('/api/v1/labels')
      .reply(429, { detail: 'Too many requests', status: 429 }, { 'retry-after': '0.2' })
      .get('/api/v1/labels')
      .reply(429, { detail: 'Too many requests', status: 429 })
      .get('/api/v1/labels')
      .reply(200, { labels: [] });
    await client.request('GET', '/api/v1/labels', { operation: 'listing labels' });
    expect(notices).toEqual([
      'rate limited (429) on GET /api/v1/labels: waiting 200 ms before retry 1',
      // random() = 0.5 and a ceiling of 2 s for the second retry: 1 s.
      'rate limited (429) on GET /api/v1/labels: waiting 1 s before retry 2',
    ]);
  });

  it('does not announce a short wait after a 5xx', async () => {
    const notices: string[] = [];
    const { client } = testClient({ notice: (line) => notices.push(line) });
    nock(ORIGIN).get('/api/v1/labels').reply(502, '').get('/api/v1/labels').reply(200, { labels: [] });
    await client.request('GET', '/api/v1/labels', { operation: 'listing labels' });
    expect(notices).toEqual([]);
  });

  it('stops retrying once the run has spent its total budget', async () => {
    const { client } = testClient({ totalRetryBudgetMs: 3000, retryBudgetMs: 60_000 });
    nock(ORIGIN).get('/api/v1/labels').times(10).reply(503, '', { 'retry-after': '2' });
    const first = (await rejectionOf(client.request('GET', '/api/v1/labels', { operation: 'listing labels' }))) as ApiError;
    expect(first.message).toContain("the run's total retry budget of 3s is spent");
    expect(client.stats().retries).toBe(1);
  });
});
