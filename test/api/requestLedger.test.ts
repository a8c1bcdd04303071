// The request budget is per key, not per process: a command counts the requests the key's
// previous commands made within the minute (kept in the user's cache, named by a digest of
// origin and token), so `plan` then `apply` do not each start with a fresh burst.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Pacer, pacerKey, sharedPacer, type PacerClock } from '../../src/api/pacing.js';
import { ledgerFile, readLedger, writeLedger } from '../../src/api/requestLedger.js';

const MINUTE = 60_000;
const TOKEN = 'stw_secret_token_value_1234567890';

/** A clock that never sleeps: each sleep records how long it would have waited and moves time. */
function steppingClock(): PacerClock & { waits: number[] } {
  let t = 1_000_000;
  const waits: number[] = [];
  return { waits, now: () => t, sleep: async (ms) => { waits.push(ms); t += ms; } };
}

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'steward-ledger-'));
}

describe('the ledger file', () => {
  it('lives in STEWARD_CACHE_DIR, else $XDG_CACHE_HOME/steward, and is named by the digest, never the token', () => {
    const key = pacerKey('https://acme.example', TOKEN);
    expect(ledgerFile(key, { STEWARD_CACHE_DIR: '/tmp/c' })).toBe(`/tmp/c/requests-${key.slice(0, 40)}.json`);
    expect(ledgerFile(key, { XDG_CACHE_HOME: '/x' })).toBe(`/x/steward/requests-${key.slice(0, 40)}.json`);
    expect(ledgerFile(key, { STEWARD_CACHE_DIR: 'off' })).toBeUndefined();
    expect(ledgerFile(key, {})).not.toContain(TOKEN);
  });

  it('keeps the times of the last window, merging what another process wrote meanwhile', () => {
    const file = join(folder(), 'requests-k.json');
    const now = 10 * MINUTE;
    writeLedger(file, [now - 2 * MINUTE, now - 5_000, now - 4_000], now, MINUTE);
    writeLedger(file, [now - 1_000], now, MINUTE);
    expect(readLedger(file, now, MINUTE)).toEqual([now - 5_000, now - 4_000, now - 1_000]);
    expect(readdirSync(join(file, '..'))).toEqual(['requests-k.json']);
  });

  it('reads a missing, corrupt or foreign file as no recent requests', () => {
    const dir = folder();
    expect(readLedger(join(dir, 'none.json'), MINUTE, MINUTE)).toEqual([]);
    writeFileSync(join(dir, 'bad.json'), '{"times": [1, 2');
    expect(readLedger(join(dir, 'bad.json'), MINUTE, MINUTE)).toEqual([]);
    writeFileSync(join(dir, 'odd.json'), '{"times": ["x", null, 59000, 1e99]}');
    expect(readLedger(join(dir, 'odd.json'), MINUTE, MINUTE)).toEqual([59_000]);
    writeLedger(join(dir, 'bad.json'), [MINUTE - 1], MINUTE, MINUTE);
    expect(JSON.parse(readFileSync(join(dir, 'bad.json'), 'utf8'))).toEqual({ times: [MINUTE - 1] });
  });

  it('leaves no temporary file behind when the file cannot be replaced (its name taken by a directory)', () => {
    const dir = folder();
    const file = join(dir, 'requests-k.json');
    mkdirSync(join(file, 'inside'), { recursive: true });
    for (let run = 0; run < 3; run += 1) writeLedger(file, [MINUTE - 1], MINUTE, MINUTE);
    expect(readdirSync(dir)).toEqual(['requests-k.json']);
    expect(readLedger(file, MINUTE, MINUTE)).toEqual([]);
  });
});

describe('a pacer seeded with the key\'s recent requests', () => {
  it('lets a lone command start at once', async () => {
    const clock = steppingClock();
    const pacer = new Pacer({ requestsPerMinute: 60, burst: 10 }, clock);
    pacer.seed([]);
    for (let i = 0; i < 10; i += 1) (await pacer.acquire()).release();
    expect(clock.waits).toEqual([]);
  });

  it('waits for the window when the previous command used the budget', async () => {
    const clock = steppingClock();
    const pacer = new Pacer({ requestsPerMinute: 4, burst: 4 }, clock);
    pacer.seed([40_000, 30_000, 20_000, 10_000]);
    const permit = await pacer.acquire();
    permit.release();
    // The oldest of the four ended 40 s ago: its slot frees 20 s from now.
    expect(clock.waits.reduce((a, b) => a + b, 0)).toBe(20_000);
  });

  it('is written when the last client gives it back, and read by the next command of the key', async () => {
    const file = join(folder(), 'requests.json');
    const key = pacerKey('http://127.0.0.1:1', TOKEN);
    const first = sharedPacer(key, { requestsPerMinute: 3, burst: 3 }, steppingClock(), file);
    for (let i = 0; i < 3; i += 1) (await first.pacer.acquire()).release();
    first.release();
    expect(readLedger(file, Date.now(), MINUTE)).toHaveLength(3);
    const clock = steppingClock();
    const second = sharedPacer(key, { requestsPerMinute: 3, burst: 3 }, clock, file);
    (await second.pacer.acquire()).release();
    second.release();
    expect(clock.waits.length).toBeGreaterThan(0);
    expect(readLedger(file, Date.now(), MINUTE)).toHaveLength(4);
  });
});
