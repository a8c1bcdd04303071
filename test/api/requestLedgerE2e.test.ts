// Two commands in a row with one key, against a server counting fixed windows: the second counts
// the first's requests (through the ledger in the cache folder) and provokes no 429. The window
// is 3 s here instead of a minute, with the budget scaled to it. (With STEWARD_CACHE_DIR=off the
// second command runs into 429s: checked by hand, not here, since it depends on where the window
// boundary falls.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { PlatformApi } from '../../src/api/platform.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

const WINDOW_MS = 3_000;
const PER_WINDOW = 10;
const TOKEN = 'demo-org-admin-token';

let emulator: RunningEmulator | undefined;
const cacheDir = process.env.STEWARD_CACHE_DIR;
afterEach(async () => {
  process.env.STEWARD_CACHE_DIR = cacheDir;
  await emulator?.close();
  emulator = undefined;
});

/** One "command": a client of the key that makes `requests` reads and is closed. */
async function command(url: string, requests: number): Promise<void> {
  const client = new ApiClient({ baseUrl: url, token: TOKEN, requestsPerMinute: (PER_WINDOW * 60_000) / WINDOW_MS, burst: PER_WINDOW, rateWindowMs: WINDOW_MS, notice: () => {} });
  const api = new PlatformApi(client);
  await Promise.all(Array.from({ length: requests }, () => api.whoami()));
  await client.close();
}

describe('the budget across commands of one key', () => {
  it('provokes no 429 from a fixed-window server when plan and apply follow each other', async () => {
    process.env.STEWARD_CACHE_DIR = mkdtempSync(join(tmpdir(), 'steward-ledger-e2e-'));
    emulator = await startEmulator({ dataset: 'demo', port: 0, requestsPerMinute: PER_WINDOW, rateLimitWindow: 'fixed', rateLimitWindowMs: WINDOW_MS });
    await command(emulator.url, PER_WINDOW);
    await command(emulator.url, PER_WINDOW);
    expect(emulator.stats().requests).toBe(2 * PER_WINDOW);
    expect(emulator.stats().rateLimited).toBe(0);
  });
});
