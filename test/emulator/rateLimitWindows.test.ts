// The OPEN point about the rate limit (gaps.md, "Rate limits and errors"), both ways: a sliding
// window, or fixed windows aligned to multiples of the window length from the epoch (so two
// consecutive processes using one key share a window). The limiter is checked on a virtual clock;
// the HTTP tests use a two-second window and wait for window edges instead of measuring time.
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { RateLimiter } from '../../src/emulator/rateLimit.js';
import { Api, expectDetail, TOKENS } from './helpers.js';

const MINUTE = 60_000;
/** A moment well inside a window: 17 minutes after the epoch, plus 20 s. */
const T = 17 * MINUTE + 20_000;

describe('RateLimiter, fixed windows', () => {
  const limiter = () => new RateLimiter({ budget: 2, window: 'fixed', windowMs: MINUTE });

  it('refuses past the budget until the window aligned to the epoch ends, then admits again', () => {
    const fixed = limiter();
    expect(fixed.admit('key', T)).toEqual({ allowed: true });
    expect(fixed.admit('key', T + 1000)).toEqual({ allowed: true });
    expect(fixed.admit('key', T + 2000)).toEqual({ allowed: false, retryAfterSeconds: 38 });
    expect(fixed.admit('key', 18 * MINUTE - 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(fixed.admit('key', 18 * MINUTE)).toEqual({ allowed: true });
  });

  it('starts a fresh budget at the window edge even right after spending one (where sliding would refuse)', () => {
    const fixed = limiter();
    fixed.admit('key', 18 * MINUTE - 2);
    fixed.admit('key', 18 * MINUTE - 1);
    expect(fixed.admit('key', 18 * MINUTE)).toEqual({ allowed: true });
    const sliding = new RateLimiter({ budget: 2, window: 'sliding', windowMs: MINUTE });
    sliding.admit('key', 18 * MINUTE - 2);
    sliding.admit('key', 18 * MINUTE - 1);
    expect(sliding.admit('key', 18 * MINUTE)).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('does not count refused requests, and counts each key apart', () => {
    const fixed = limiter();
    fixed.admit('a', T);
    fixed.admit('a', T);
    for (let i = 0; i < 5; i += 1) expect(fixed.admit('a', T).allowed).toBe(false);
    expect(fixed.admit('b', T)).toEqual({ allowed: true });
  });

  it('follows a configured window length', () => {
    const short = new RateLimiter({ budget: 1, window: 'fixed', windowMs: 2000 });
    expect(short.admit('key', 10_500)).toEqual({ allowed: true });
    expect(short.admit('key', 11_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(short.admit('key', 12_000)).toEqual({ allowed: true });
  });
});

describe('RateLimiter, sliding window', () => {
  it('frees a slot one window after the oldest admitted request', () => {
    const sliding = new RateLimiter({ budget: 2, window: 'sliding', windowMs: MINUTE });
    sliding.admit('key', T);
    sliding.admit('key', T + 30_000);
    expect(sliding.admit('key', T + 40_000)).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(sliding.admit('key', T + MINUTE - 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(sliding.admit('key', T + MINUTE)).toEqual({ allowed: true });
    expect(sliding.admit('key', T + MINUTE + 1)).toEqual({ allowed: false, retryAfterSeconds: 30 });
  });

  it('admits everything without a budget', () => {
    const unlimited = new RateLimiter({ budget: undefined, window: 'fixed', windowMs: 1 });
    for (let i = 0; i < 100; i += 1) expect(unlimited.admit('key', T).allowed).toBe(true);
  });
});

const WINDOW_MS = 2000;

/** Waits until `offsetMs` after the start of the next window of `WINDOW_MS`. */
async function untilNextWindow(offsetMs = 0): Promise<void> {
  const now = Date.now();
  await delay(Math.ceil(now / WINDOW_MS) * WINDOW_MS - now + offsetMs);
}

async function withApi(options: EmulatorOptions, body: (api: Api, stats: () => ReturnType<Awaited<ReturnType<typeof startEmulator>>['stats']>) => Promise<void>) {
  const emulator = await startEmulator({ requestsPerMinute: 2, rateLimitWindowMs: WINDOW_MS, ...options });
  try {
    await body(new Api(emulator.url, TOKENS.orgAdmin), () => emulator.stats());
  } finally {
    await emulator.close();
  }
}

describe('over HTTP', () => {
  it('fixed: 429 past the budget with Retry-After to the window end, a fresh budget in the next window', async () => {
    await withApi({ rateLimitWindow: 'fixed', sendRetryAfter: true }, async (api, stats) => {
      await untilNextWindow(20);
      expect((await api.get('/api/v1/whoami')).status).toBe(200);
      expect((await api.get('/api/v1/whoami')).status).toBe(200);
      const limited = await api.get('/api/v1/labels');
      expectDetail(limited, 429, 'Too Many Requests');
      expect(['1', '2']).toContain(limited.headers.get('retry-after'));
      await untilNextWindow(20);
      expect((await api.get('/api/v1/labels')).status).toBe(200);
      expect(stats()).toMatchObject({ requests: 4, rateLimited: 1, byStatus: { 200: 3, 429: 1 } });
    });
  });

  it('fixed without Retry-After: the same 429, no header', async () => {
    await withApi({ rateLimitWindow: 'fixed', sendRetryAfter: false }, async (api) => {
      await untilNextWindow(20);
      await api.get('/api/v1/whoami');
      await api.get('/api/v1/whoami');
      const limited = await api.get('/api/v1/whoami');
      expectDetail(limited, 429, 'Too Many Requests');
      expect(limited.headers.get('retry-after')).toBeNull();
    });
  });

  it('sliding: 429 past the budget with Retry-After until the oldest request leaves the window', async () => {
    await withApi({ rateLimitWindow: 'sliding' }, async (api, stats) => {
      await api.get('/api/v1/whoami');
      await api.get('/api/v1/whoami');
      const limited = await api.get('/api/v1/whoami');
      expectDetail(limited, 429, 'Too Many Requests');
      expect(['1', '2']).toContain(limited.headers.get('retry-after'));
      expect(stats().rateLimited).toBe(1);
    });
  });
});
