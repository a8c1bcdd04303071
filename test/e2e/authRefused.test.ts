// A token revoked in the middle of an apply: after the first write answered 401 (or 403), retrying
// cannot help, so steward sends no further write and reports every remaining step as not attempted.
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { gitopsAgainstDemo, PROFILES, Steward } from './helpers.js';

/**
 * A loopback proxy in front of the emulator that lets `allowed` writes through and then answers
 * every request with `status`, as a server does once the token is revoked. It records the writes.
 */
async function revokingProxy(target: string, allowed: number, status: 401 | 403) {
  const writes: { method: string; path: string; status: number }[] = [];
  let revoked = false;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const isWrite = request.method !== 'GET';
    if (isWrite && !revoked && writes.length >= allowed) revoked = true;
    if (revoked) {
      if (isWrite) writes.push({ method: request.method!, path: request.url!, status });
      request.resume();
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: status === 401 ? 'Invalid token' : 'Forbidden', status }));
      return;
    }
    const upstream = forward(`${target}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
      if (isWrite) writes.push({ method: request.method!, path: request.url!, status: answer.statusCode! });
      response.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(response);
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    writes,
    restore: () => {
      revoked = false;
      allowed = Number.POSITIVE_INFINITY;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
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
    // The refused write was the batch of three user credit limits: those three steps failed.
    const failed = lines.filter((line) => line.includes('FAILED'));
    expect(failed).toHaveLength(3);
    for (const line of failed) expect(line).toMatch(new RegExp(`FAILED . user credit limit .*: updating 3 user credit limits: ${status} `));
    const notStarted = result.out.split(`Not attempted: the server refused a write with ${refused} (`)[1]?.split('\n\n')[0]?.split('\n').slice(1) ?? [];
    expect(notStarted.length).toBeGreaterThan(5);
    expect(result.out).toContain(`Apply: 4 done, 0 already applied, 3 failed, 0 skipped, ${notStarted.length} not started.`);
    expect(result.out).toContain(`Stopped: the server refused a write with ${refused}, and every further write would be refused too; ${notStarted.length} steps were not started.`);

    // With the credentials good again, a re-run finishes the rest.
    proxy.restore();
    const again = await through.apply(undefined, { baseUrl: proxy.url });
    expect(again.code).toBe(0);
    expect((await through.plan({ baseUrl: proxy.url })).code).toBe(EXIT.ok);
  });
});
