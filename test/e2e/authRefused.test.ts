// A token revoked in the middle of an apply: after the first write answered 401 (or 403), retrying
// cannot help, so steward sends no further write and reports every remaining step as not attempted.
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { gitopsAgainstDemo, PROFILES, Steward } from './helpers.js';
import { interceptingProxy } from './proxy.js';

/**
 * A proxy that lets `allowed` writes through and then answers every request with `status`, as a
 * server does once the token is revoked; `restore()` makes the token good again.
 */
async function revokingProxy(target: string, allowed: number, status: 401 | 403) {
  let revoked = false;
  let limit = allowed;
  const proxy = await interceptingProxy(target, (request, writesBefore) => {
    if (request.method !== 'GET' && !revoked && writesBefore >= limit) revoked = true;
    return revoked ? { status, body: { detail: status === 401 ? 'Invalid token' : 'Forbidden', status } } : undefined;
  });
  return {
    ...proxy,
    restore: () => {
      revoked = false;
      limit = Number.POSITIVE_INFINITY;
    },
  };
}

let steward: Steward | undefined;
let proxy: Awaited<ReturnType<typeof revokingProxy>> | undefined;
afterEach(async () => {
  await proxy?.close();
  await steward?.emulator.close();
});

describe.each(PROFILES)('a server that refuses the credentials mid-apply (%s profile)', (profile) => {
  it.each([401, 403] as const)('sends no write after the first %i and reports the rest as not attempted', async (status) => {
    steward = await gitopsAgainstDemo({ profile });
    proxy = await revokingProxy(steward.emulator.url, 4, status);
    const through = new Steward(steward.emulator, steward.directory);
    const result = await through.apply(undefined, { baseUrl: proxy.url });

    expect(result.code).toBe(1);
    // Four writes went through, the fifth was refused, and nothing was sent after it.
    expect(proxy.writes.map((write) => write.status < 300 ? 'ok' : write.status)).toEqual(['ok', 'ok', 'ok', 'ok', status]);
    expect(steward.emulator.stats().writes).toBe(4);
    const refused = status === 401 ? '401 Unauthorized' : '403 Forbidden';
    const lines = result.out.split('\n');
    // The refused write was the one batch of five user credit limits (three sets, two resets): those five steps failed.
    const failed = lines.filter((line) => line.includes('FAILED'));
    expect(failed).toHaveLength(5);
    for (const line of failed) expect(line).toMatch(new RegExp(`FAILED . user credit limit .*: updating 5 user credit limits: ${status} `));
    const notStarted = result.out.split(`Not attempted: the server refused a write with ${refused} (`)[1]?.split('\n\n')[0]?.split('\n').slice(1) ?? [];
    expect(notStarted.length).toBeGreaterThan(5);
    expect(result.out).toContain(`Apply: 4 done, 0 already applied, 5 failed, 0 skipped, ${notStarted.length} not started.`);
    expect(result.out).toContain(`Stopped: the server refused a write with ${refused}, and every further write would be refused too; ${notStarted.length} steps were not started.`);

    // With the credentials good again, a re-run finishes the rest.
    proxy.restore();
    const again = await through.apply(undefined, { baseUrl: proxy.url });
    expect(again.code).toBe(0);
    expect((await through.plan({ baseUrl: proxy.url })).code).toBe(EXIT.ok);
  });
});
