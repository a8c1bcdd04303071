// The client against the emulator over real loopback HTTP: a burst of parallel reads is paced
// under the server's per-minute limit without a single 429, and injected 429s, 500s and
// connection resets are absorbed by retries. Time is virtual (Date is faked and advances only
// when the client waits), so minutes of pacing take milliseconds, on both sides alike.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { collect } from '../../src/api/pagination.js';
import { PlatformApi } from '../../src/api/platform.js';
import { datasetTokens, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { expectNoSecret, rejectionOf } from './helpers.js';

const ADMIN_TOKEN = datasetTokens('demo').find((token) => token.role === 'ORG_ADMIN' && token.type === 'organization')?.token ?? '';

let emulator: RunningEmulator | undefined;
let client: ApiClient | undefined;
let lines: string[] = [];

/** Waiting moves the (faked) wall clock forward; the emulator's rate window reads the same clock. */
async function virtualSleep(ms: number): Promise<void> {
  vi.setSystemTime(Date.now() + ms);
  await new Promise((resolve) => setImmediate(resolve));
}

async function setup(emulatorOptions: EmulatorOptions, clientOptions: Partial<ClientOptions>): Promise<{ api: PlatformApi; client: ApiClient; emulator: RunningEmulator }> {
  emulator = await startEmulator(emulatorOptions);
  client = new ApiClient({
    baseUrl: `${emulator.url}/api`,
    token: ADMIN_TOKEN,
    now: () => Date.now(),
    sleep: virtualSleep,
    random: () => 0.5,
    log: (line) => lines.push(line),
    ...clientOptions,
  });
  return { api: new PlatformApi(client), client, emulator };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2025-03-01T12:00:00Z') });
  lines = [];
});
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  client = undefined;
  emulator = undefined;
  vi.useRealTimers();
});

describe('pacing against the emulator', () => {
  it('paces a burst of 30 parallel reads under a limit of 10 per minute without a single 429', async () => {
    const { api, client, emulator } = await setup({ requestsPerMinute: 10 }, { requestsPerMinute: 10, burst: 5 });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 30 }, () => api.getCreditControls()));
    expect(results).toHaveLength(30);
    expect(emulator.stats()).toMatchObject({ requests: 30, rateLimited: 0 });
    expect(client.stats()).toMatchObject({ requests: 30, retries: 0, rateLimited: 0 });
    // 30 requests at 10 per minute need at least two further windows after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(120_000);
    expectNoSecret(ADMIN_TOKEN, lines);
  });

  it('a client budget above the server limit meets 429s, and retries absorb every one', async () => {
    const { api, client, emulator } = await setup({ requestsPerMinute: 10 }, { requestsPerMinute: 600, burst: 30 });
    const results = await Promise.all(Array.from({ length: 15 }, () => api.getCreditControls()));
    expect(results).toHaveLength(15);
    const server = emulator.stats();
    expect(server.rateLimited).toBeGreaterThan(0);
    expect(client.stats().rateLimited).toBe(server.rateLimited);
    expect(client.stats().requests).toBe(server.requests);
    expect(lines.some((line) => / 429 \d+ms retry=0/.test(line))).toBe(true);
  });

  it('absorbs 429s without Retry-After by backing off and slowing down', async () => {
    const { api, client, emulator } = await setup(
      { requestsPerMinute: 3, sendRetryAfter: false },
      { requestsPerMinute: 60, burst: 10, retryBudgetMs: 180_000, maxRetries: 12 },
    );
    for (let i = 0; i < 5; i += 1) await api.getCreditControls();
    expect(emulator.stats().rateLimited).toBeGreaterThan(0);
    expect(lines.some((line) => line.includes('retrying (429)'))).toBe(true);
    expect(client.stats().rateLimited).toBe(emulator.stats().rateLimited);
  });
});

describe('pacing on the real clock', () => {
  it('spaces a burst by the budget in real time', async () => {
    vi.useRealTimers();
    emulator = await startEmulator({ requestsPerMinute: 600 });
    client = new ApiClient({ baseUrl: emulator.url, token: ADMIN_TOKEN, requestsPerMinute: 300, burst: 2 });
    const api = new PlatformApi(client);
    const started = performance.now();
    await Promise.all(Array.from({ length: 10 }, () => api.getCreditControls()));
    const elapsed = performance.now() - started;
    // 2 at once, then one every 200 ms for the other 8.
    expect(elapsed).toBeGreaterThanOrEqual(1_550);
    expect(elapsed).toBeLessThan(5_000);
    expect(emulator.stats()).toMatchObject({ requests: 10, rateLimited: 0 });
  });
});

describe('faults against the emulator', () => {
  it('absorbs injected 500s and connection resets on reads; a reset write is outcome unknown', async () => {
    const { api, client, emulator } = await setup(
      {
        faults: [
          'GET /api/v1/labels=500x2',
          'GET /api/v1/ai/credit-controls=reset',
          'PATCH /api/v1/ai/credit-controls=reset',
        ],
      },
      {},
    );
    const [labels, controls] = await Promise.all([api.listLabels(), api.getCreditControls()]);
    expect(Array.isArray(labels)).toBe(true);
    expect(controls).toHaveProperty('accountCreditLimit');
    const lost = (await rejectionOf(api.patchCreditControls({ userDefaultCredits: 42 }))) as ApiError;
    expect(lost.outcomeUnknown).toBe(true);
    expect(lost.code).toBe('api.outcome-unknown');
    // The PATCH was sent once and not repeated: reading back shows what happened.
    expect(emulator.stats().byRoute['PATCH /api/v1/ai/credit-controls']).toBe(1);
    expect(emulator.stats().faultsFired).toBe(4);
    expect(client.stats().retries).toBe(3);
  });

  it('reports a create whose response was lost as outcome unknown, and the read-back finds it', async () => {
    const { api, emulator } = await setup({ faults: ['POST /api/v1/labels=drop-after-commit'] }, {});
    const error = (await rejectionOf(api.createLabel({ name: 'Quarterly review', color: '#00aa00' }))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(/^creating label "Quarterly review": network error \(.+\); the outcome is unknown/);
    expect(emulator.stats().byRoute['POST /api/v1/labels']).toBe(1);
    const labels = await api.listLabels();
    expect(labels.filter((label) => label.name === 'Quarterly review')).toHaveLength(1);
    expectNoSecret(ADMIN_TOKEN, error, lines);
  });

  it('reads lists through pagination exactly as the emulator holds them', async () => {
    const { api, emulator } = await setup({}, {});
    expect(await collect(api.listUserCreditLimits())).toEqual(emulator.state.userCreditLimits());
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect((await collect(api.listApiKeys())).sort(byId)).toEqual(emulator.state.apiKeys().sort(byId));
    expect(await api.listLabels()).toEqual(emulator.state.labels());
  });
});
