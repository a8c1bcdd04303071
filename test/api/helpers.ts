// Shared builders for the API client tests: a virtual clock, a client wired to it, a log
// capture, and the assertion that a secret appears nowhere in an error or a log.

import { inspect } from 'node:util';
import { expect } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/api/client.js';

export const ORIGIN = 'https://acme.example.com';

let tokenCounter = 0;
/** A fresh token per test, so no two tests share a pacer by accident. */
export function freshToken(): string {
  tokenCounter += 1;
  return `stw_live_${tokenCounter}_Zq8XvN3kLp0aTe9R`;
}

/** Time that passes only when something sleeps; records every sleep. */
export interface VirtualClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  sleeps: number[];
  elapsed: () => number;
}

/** Returns a virtual clock starting at a fixed wall-clock instant. */
export function virtualClock(start = Date.parse('2025-03-01T12:00:00Z')): VirtualClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
    sleeps,
    elapsed: () => now - start,
  };
}

/** A client under test: virtual clock, captured log, pacing loose enough never to wait. */
export interface TestClient {
  client: ApiClient;
  token: string;
  clock: VirtualClock;
  lines: string[];
}

/** Builds a client on a virtual clock; pass options to override the defaults. */
export function testClient(overrides: Partial<ClientOptions> = {}): TestClient {
  const token = overrides.token ?? freshToken();
  const clock = virtualClock();
  const lines: string[] = [];
  const client = new ApiClient({
    baseUrl: ORIGIN,
    token,
    requestsPerMinute: 6000,
    burst: 100,
    random: () => 0.5,
    now: clock.now,
    sleep: clock.sleep,
    log: (line) => lines.push(line),
    ...overrides,
  });
  return { client, token, clock, lines };
}

/** Runs a promise that must reject and returns what it rejected with. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** Every string form of an error: message, JSON, util.inspect, and each cause in its chain. */
export function renderings(error: unknown): string[] {
  const out: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    out.push(String(current));
    out.push(JSON.stringify(current) ?? '');
    out.push(inspect(current, { depth: 10, showHidden: true, getters: true }));
    if (current instanceof Error) out.push(current.stack ?? '', current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** Asserts that no rendering of the value, nor any log line, contains the secret. */
export function expectNoSecret(secret: string, ...things: unknown[]): void {
  for (const thing of things) {
    const texts = Array.isArray(thing) && thing.every((x) => typeof x === 'string') ? (thing as string[]) : renderings(thing);
    for (const text of texts) expect(text).not.toContain(secret);
  }
}
