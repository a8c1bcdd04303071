// The pacer keeps a key under its per-minute budget whatever the concurrency: a burst, then
// even spacing, never more than the budget inside one window, slower after a 429, and shared
// by every client of the same key.

import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Pacer, pacerKey, sharedPacer, type PacerClock, type Permit } from '../../src/api/pacing.js';
import { ORIGIN, testClient, type TestClient } from './helpers.js';

/** A clock whose timers fire only when the test advances it. */
class ManualClock implements PacerClock {
  private t = 0;
  private timers: { at: number; resolve: () => void }[] = [];
  now = (): number => this.t;
  sleep = (ms: number): Promise<void> => new Promise((resolve) => this.timers.push({ at: this.t + ms, resolve }));

  /** Moves time forward, firing due timers in order and letting their callbacks run. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      await flush();
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (next === undefined || next.at > target) break;
      this.timers.shift();
      this.t = next.at;
      next.resolve();
    }
    this.t = target;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Starts `n` acquisitions and records when each is granted. */
function acquireMany(pacer: Pacer, clock: ManualClock, n: number, releaseAtOnce = true): { granted: number[]; permits: Permit[] } {
  const granted: number[] = [];
  const permits: Permit[] = [];
  for (let i = 0; i < n; i += 1) {
    void pacer.acquire().then((permit) => {
      granted.push(clock.now());
      permits.push(permit);
      if (releaseAtOnce) permit.release();
    });
  }
  return { granted, permits };
}

describe('Pacer', () => {
  it('lets a burst through, then spaces requests at the budget', async () => {
    const clock = new ManualClock();
    const pacer = new Pacer({ requestsPerMinute: 60, burst: 3 }, clock);
    const { granted } = acquireMany(pacer, clock, 6);
    await clock.advance(0);
    expect(granted).toEqual([0, 0, 0]);
    await clock.advance(3_000);
    expect(granted).toEqual([0, 0, 0, 1_000, 2_000, 3_000]);
  });

  it('never admits more than the budget within one window, whatever the burst', async () => {
    const clock = new ManualClock();
    const pacer = new Pacer({ requestsPerMinute: 6, burst: 6 }, clock);
    const { granted } = acquireMany(pacer, clock, 13);
    await clock.advance(59_999);
    expect(granted).toHaveLength(6);
    await clock.advance(1);
    expect(granted).toHaveLength(12);
    await clock.advance(60_000);
    expect(granted).toHaveLength(13);
    // Every 60 s window holds at most 6 grants.
    for (const start of granted) expect(granted.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(6);
  });

  it('holds a slot until one window after the response arrived', async () => {
    const clock = new ManualClock();
    const pacer = new Pacer({ requestsPerMinute: 1, burst: 1 }, clock);
    const first = acquireMany(pacer, clock, 1, false);
    await clock.advance(0);
    expect(first.granted).toEqual([0]);
    const second = acquireMany(pacer, clock, 1);
    await clock.advance(30_000);
    first.permits[0]?.release(); // the slow response arrives at 30 s
    await clock.advance(59_999);
    expect(second.granted).toEqual([]);
    await clock.advance(1);
    expect(second.granted).toEqual([90_000]);
  });

  it('grants in request order', async () => {
    const clock = new ManualClock();
    const pacer = new Pacer({ requestsPerMinute: 120, burst: 1 }, clock);
    const order: number[] = [];
    for (let i = 0; i < 5; i += 1) void pacer.acquire().then((permit) => (order.push(i), permit.release()));
    await clock.advance(2_000);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('halves the rate after a 429 and restores it slowly', async () => {
    const clock = new ManualClock();
    const pacer = new Pacer({ requestsPerMinute: 60, burst: 1, restoreMs: 240_000 }, clock);
    pacer.penalize();
    expect(pacer.currentRate()).toBe(30);
    const { granted } = acquireMany(pacer, clock, 1);
    await clock.advance(1_999);
    expect(granted).toEqual([]); // the bucket was drained; one token takes 2 s at 30/min
    await clock.advance(1);
    expect(granted).toEqual([2_000]);
    await clock.advance(58_000); // 60 s after the 429: +60/min per 240 s → +15
    expect(pacer.currentRate()).toBe(45);
    await clock.advance(60_000);
    expect(pacer.currentRate()).toBe(60);
  });

  it('does not fall below an eighth of the budget however many 429s arrive', () => {
    const clock = new ManualClock();
    const pacer = new Pacer({ requestsPerMinute: 80, burst: 1 }, clock);
    for (let i = 0; i < 10; i += 1) pacer.penalize();
    expect(pacer.currentRate()).toBe(10);
  });
});

describe('shared pacers', () => {
  it('gives every client of one key the same pacer, and forgets it after the last one', () => {
    const clock = new ManualClock();
    const key = pacerKey('https://acme.example.com', 'secret-token-1');
    expect(key).not.toContain('secret-token-1');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const a = sharedPacer(key, { requestsPerMinute: 60, burst: 10 }, clock);
    const b = sharedPacer(key, { requestsPerMinute: 30, burst: 10 }, clock);
    const other = sharedPacer(pacerKey('https://acme.example.com', 'secret-token-2'), { requestsPerMinute: 60, burst: 10 }, clock);
    expect(b.pacer).toBe(a.pacer);
    expect(other.pacer).not.toBe(a.pacer);
    expect(a.pacer.currentRate()).toBe(30); // the stricter budget wins
    a.release();
    b.release();
    const c = sharedPacer(key, { requestsPerMinute: 60, burst: 10 }, clock);
    expect(c.pacer).not.toBe(a.pacer);
    c.release();
    other.release();
  });
});

describe('ApiClient pacing', () => {
  let clients: TestClient[] = [];
  beforeAll(() => nock.disableNetConnect());
  afterEach(async () => {
    await Promise.all(clients.map(({ client }) => client.close()));
    clients = [];
    nock.cleanAll();
  });
  afterAll(() => nock.enableNetConnect());

  it('spreads parallel reads of two clients of one key over the shared budget', async () => {
    const first = testClient({ requestsPerMinute: 60, burst: 5 });
    const second = testClient({ token: first.token, requestsPerMinute: 60, burst: 5, now: first.clock.now, sleep: first.clock.sleep });
    clients = [first, second];
    nock(ORIGIN).get('/api/v1/labels').times(20).reply(200, { labels: [] });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).client.request('GET', '/api/v1/labels', { operation: 'listing labels' })),
    );
    // 5 at once, then one per second for the other 15.
    expect(first.clock.elapsed()).toBe(15_000);
    expect(first.client.stats().requests + second.client.stats().requests).toBe(20);
  });

  it('slows down after a 429 even when the server sends no Retry-After', async () => {
    const setup = testClient({ requestsPerMinute: 60, burst: 1, random: () => 0 });
    clients = [setup];
    nock(ORIGIN)
      .get('/api/v1/labels')
      .reply(429, { detail: 'Too many requests', status: 429 })
      .get('/api/v1/labels')
      .times(2)
      .reply(200, { labels: [] });
    await setup.client.request('GET', '/api/v1/labels', { operation: 'listing labels' });
    await setup.client.request('GET', '/api/v1/labels', { operation: 'listing labels' });
    // Backoff 0 (random 0), then the drained bucket at 30/min: about 2 s per request while the
    // rate creeps back up.
    const [backoff, firstPaced, secondPaced] = setup.clock.sleeps;
    expect(setup.clock.sleeps).toHaveLength(3);
    expect(backoff).toBe(0);
    expect(firstPaced).toBe(2_000);
    expect(secondPaced).toBeGreaterThan(1_950);
    expect(secondPaced).toBeLessThan(2_000);
    expect(setup.client.stats()).toMatchObject({ requests: 3, retries: 1, rateLimited: 1 });
    expect(setup.lines.some((line) => line.includes('paced=2000ms'))).toBe(true);
  });
});
