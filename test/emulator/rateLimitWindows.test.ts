// The OPEN point about the rate limit (gaps.md, "Rate limits and errors"), both ways: a sliding
// window, or fixed windows aligned to multiples of the window length from the epoch (so two
// consecutive processes using one key share a window). The limiter alone, then over HTTP with a
// two-second window, both on a virtual clock.
import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type EmulatorStats } from '../../src/emulator/index.js';
import { RateLimiter } from '../../src/emulator/rateLimit.js';
import { Api, aRoutine, expectDetail, TOKENS } from './helpers.js';

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

/** An emulator with a two-request budget per two-second window, on a clock the test moves. */
async function withApi(
  options: EmulatorOptions,
  body: (api: Api, clock: { set(ms: number): void }, stats: () => EmulatorStats) => Promise<void>,
): Promise<void> {
  let now = 0;
  const emulator = await startEmulator({ requestsPerMinute: 2, rateLimitWindowMs: WINDOW_MS, clock: () => now, ...options });
  try {
    await body(new Api(emulator.url, TOKENS.orgAdmin), { set: (ms) => (now = ms) }, () => emulator.stats());
  } finally {
    await emulator.close();
  }
}

describe('over HTTP', () => {
  it('fixed: 429 past the budget with Retry-After to the window end, a fresh budget in the next window', async () => {
    await withApi({ rateLimitWindow: 'fixed', sendRetryAfter: true }, async (api, clock, stats) => {
      clock.set(T + 100);
      expect((await api.get('/api/v1/whoami')).status).toBe(200);
      clock.set(T + 1900);
      expect((await api.get('/api/v1/whoami')).status).toBe(200);
      const limited = await api.get('/api/v1/labels');
      expectDetail(limited, 429, 'Too Many Requests');
      expect(limited.headers.get('retry-after')).toBe('1');
      clock.set(T + WINDOW_MS);
      expect((await api.get('/api/v1/labels')).status).toBe(200);
      expect(stats()).toMatchObject({ requests: 4, rateLimited: 1, byStatus: { 200: 3, 429: 1 } });
    });
  });

  it('fixed without Retry-After: the same 429, no header', async () => {
    await withApi({ rateLimitWindow: 'fixed', sendRetryAfter: false }, async (api, clock) => {
      clock.set(T);
      await api.get('/api/v1/whoami');
      await api.get('/api/v1/whoami');
      const limited = await api.get('/api/v1/whoami');
      expectDetail(limited, 429, 'Too Many Requests');
      expect(limited.headers.get('retry-after')).toBeNull();
    });
  });

  it('sliding: a budget spent late in one window is still spent early in the next', async () => {
    await withApi({ rateLimitWindow: 'sliding' }, async (api, clock, stats) => {
      clock.set(T + 1500);
      await api.get('/api/v1/whoami');
      await api.get('/api/v1/whoami');
      clock.set(T + WINDOW_MS + 100);
      const limited = await api.get('/api/v1/whoami');
      expectDetail(limited, 429, 'Too Many Requests');
      expect(limited.headers.get('retry-after')).toBe('2');
      clock.set(T + 1500 + WINDOW_MS);
      expect((await api.get('/api/v1/whoami')).status).toBe(200);
      expect(stats().rateLimited).toBe(1);
    });
  });

  it('stamps writes with the emulator clock', async () => {
    await withApi({}, async (api, clock) => {
      clock.set(Date.parse('2026-03-01T10:00:00.000Z'));
      const created = await api.post('/api/v1/ai/routines', aRoutine());
      const routine = await api.get(`/api/v1/ai/routines/${created.body.id}`);
      expect(routine.body).toMatchObject({ createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z' });
    });
  });
});
