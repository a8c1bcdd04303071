// Realism knobs: the per-token rate limit (429 in the detail form, with or without
// Retry-After) and response latency.
import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { Api, expectDetail, TOKENS } from './helpers.js';

async function withEmulator(options: EmulatorOptions, body: (api: Api, url: string) => Promise<void>): Promise<void> {
  const emulator = await startEmulator(options);
  try {
    await body(new Api(emulator.url, TOKENS.orgAdmin), emulator.url);
  } finally {
    await emulator.close();
  }
}

describe('rate limit', () => {
  it('answers 429 in the detail form with Retry-After past the budget', async () => {
    await withEmulator({ requestsPerMinute: 3 }, async (api, url) => {
      for (let i = 0; i < 3; i += 1) expect((await api.get('/api/v1/whoami')).status).toBe(200);
      const limited = await api.get('/api/v1/labels');
      expectDetail(limited, 429, 'Too Many Requests');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const stats = await (await fetch(`${url}/__emulator/stats`)).json();
      expect(stats).toMatchObject({ requests: 4, rateLimited: 1, byStatus: { 200: 3, 429: 1 } });
    });
  });

  it('counts each token separately', async () => {
    await withEmulator({ requestsPerMinute: 1 }, async (api) => {
      expect((await api.get('/api/v1/whoami')).status).toBe(200);
      expect((await api.get('/api/v1/whoami')).status).toBe(429);
      expect((await api.as(TOKENS.gracePersonal).get('/api/v1/whoami')).status).toBe(200);
    });
  });

  it('sends no Retry-After when told not to', async () => {
    await withEmulator({ requestsPerMinute: 1, sendRetryAfter: false }, async (api) => {
      await api.get('/api/v1/whoami');
      const limited = await api.get('/api/v1/whoami');
      expectDetail(limited, 429, 'Too Many Requests');
      expect(limited.headers.get('retry-after')).toBeNull();
    });
  });

  it('does not limit the control routes, and a reset empties the windows', async () => {
    await withEmulator({ requestsPerMinute: 1 }, async (api, url) => {
      await api.get('/api/v1/whoami');
      for (let i = 0; i < 3; i += 1) expect((await fetch(`${url}/__emulator/stats`)).status).toBe(200);
      expect((await fetch(`${url}/__emulator/reset`, { method: 'POST' })).status).toBe(200);
      expect((await api.get('/api/v1/whoami')).status).toBe(200);
    });
  });
});

describe('latency', () => {
  it('delays every API response by latencyMs', async () => {
    await withEmulator({ latencyMs: 150 }, async (api) => {
      const started = performance.now();
      expect((await api.get('/api/v1/whoami')).status).toBe(200);
      expect((await api.as(undefined).get('/api/v1/whoami')).status).toBe(401);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    });
  });

  it('answers without delay when no latency is set', async () => {
    await withEmulator({}, async (api) => {
      const started = performance.now();
      await api.get('/api/v1/whoami');
      expect(performance.now() - started).toBeLessThan(150);
    });
  });
});
