// The live user limits are listed while the config's e-mails are still being resolved through
// SCIM: the listing (a cursor chain, the longest of a large plan) needs no identity, so it must
// not wait for the SCIM pages. A proxy holds every SCIM answer until the listing's first request
// has arrived (or a grace period ends): a planner that lists only after resolving is caught.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/context.js';
import { EXIT, runPlan } from '../../src/cli/plan.js';
import { datasetSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { PROFILES, PRODUCTION_TOKEN } from './helpers.js';

const USERS = 250; // with the demo's users: 3 SCIM pages, so 40 e-mails are resolved by listing
const DECLARED = 40;
/** How long the proxy holds SCIM answers at most; a planner that waits for them takes this long, then is caught. */
const GRACE_MS = 2_000;

interface GateProxy {
  url: string;
  /** The order in which requests reached the proxy, as `scim` / `limits` / `other`. */
  arrivals: string[];
  /** Whether the listing arrived before any SCIM answer was let through. */
  listingBeforeScim: () => boolean;
  close(): Promise<void>;
}

async function gateProxy(target: string): Promise<GateProxy> {
  const arrivals: string[] = [];
  let listingArrived: () => void = () => undefined;
  const listing = new Promise<void>((resolve) => (listingArrived = resolve));
  let scimAnswered = false;
  let listingFirst = false;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '';
    const kind = path.startsWith('/api/scim/v2/users') ? 'scim' : path.startsWith('/api/v1/ai/credit-controls/users') ? 'limits' : 'other';
    arrivals.push(kind);
    if (kind === 'limits') {
      if (!scimAnswered) listingFirst = true;
      listingArrived();
    }
    const pass = () => {
      const upstream = forward(`${target}${path}`, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    };
    if (kind !== 'scim') return pass();
    void Promise.race([listing, new Promise((resolve) => setTimeout(resolve, GRACE_MS))]).then(() => {
      scimAnswered = true;
      pass();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    listingBeforeScim: () => listingFirst,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let emulator: RunningEmulator | undefined;
let proxy: GateProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await emulator?.close();
  emulator = proxy = undefined;
});

describe.each(PROFILES)('reads side by side (%s profile)', (profile) => {
  it('lists the live user limits while the e-mails are being resolved', async () => {
    const seed = datasetSeed('demo');
    const users = Array.from({ length: USERS }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, email: `o${i}@acme.example`, displayName: `O ${i}`, role: 'MEMBER' as const }));
    seed.users.push(...users);
    seed.userCreditLimits = users.slice(0, 10).map((user) => ({ user: user.email, creditLimit: 10 }));
    emulator = await startEmulator({ data: seed, port: 0, profile });
    proxy = await gateProxy(emulator.url);
    const directory = await mkdtemp(join(tmpdir(), 'steward-overlap-'));
    await writeFile(join(directory, 'environments.yaml'), 'version: 1\nenvironments:\n  prod:\n    baseUrl: https://acme.example\n    tokenEnv: TOKEN\n    requestsPerMinute: 100000\n');
    await writeFile(join(directory, 'limits.yaml'), `version: 1\nuserCreditLimits:\n${users.slice(0, DECLARED).map((user) => `  - email: ${user.email}\n    creditLimit: 25\n`).join('')}`);
    let out = '';
    const io: CommandIo = { stdout: (text) => void (out += text), stderr: (text) => void (out += text), env: { TOKEN: PRODUCTION_TOKEN, STEWARD_CACHE_DIR: 'off' }, cwd: directory, isTTY: false };

    const code = await runPlan({ config: directory, env: 'prod', baseUrl: proxy.url, detailedExitcode: true }, io);

    expect(code, out).toBe(EXIT.changes);
    expect(out).toMatch(/30 to add, 10 to change/);
    expect(proxy.arrivals.filter((kind) => kind === 'scim')).toHaveLength(3);
    expect(proxy.listingBeforeScim(), proxy.arrivals.join(' ')).toBe(true);
  });
});

describe.each(PROFILES)('a plan that fails while a long listing runs (%s profile)', (profile) => {
  /** 3,000 live limits (30 pages) behind 20 ms of latency: a listing of at least 600 ms. */
  async function longListing(config: string) {
    const seed = datasetSeed('demo');
    const users = Array.from({ length: 3000 }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, email: `f${i}@acme.example`, displayName: `F ${i}`, role: 'MEMBER' as const }));
    seed.users.push(...users);
    seed.userCreditLimits = users.map((user) => ({ user: user.email, creditLimit: 10 }));
    emulator = await startEmulator({ data: seed, port: 0, profile, latencyMs: 20 });
    const directory = await mkdtemp(join(tmpdir(), 'steward-stop-'));
    await writeFile(join(directory, 'environments.yaml'), 'version: 1\nenvironments:\n  prod:\n    baseUrl: https://acme.example\n    tokenEnv: TOKEN\n    requestsPerMinute: 100000\n');
    await writeFile(join(directory, 'steward.yaml'), config);
    let out = '';
    const io: CommandIo = { stdout: (text) => void (out += text), stderr: (text) => void (out += text), env: { TOKEN: PRODUCTION_TOKEN, STEWARD_CACHE_DIR: 'off' }, cwd: directory, isTTY: false };
    const code = await runPlan({ config: directory, env: 'prod', baseUrl: emulator.url }, io);
    return { code, out, listed: emulator.stats().byRoute['GET /api/v1/ai/credit-controls/users'] ?? 0 };
  }

  it('an unknown e-mail stops the listing begun early instead of waiting for its 30 pages', async () => {
    const { code, out, listed } = await longListing('version: 1\nuserCreditLimits:\n  - email: f1@acme.example\n    creditLimit: 5\n  - email: nobody@acme.example\n    creditLimit: 5\n');
    expect(code).toBe(1);
    expect(out).toContain('nobody@acme.example');
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThan(15);
  });

  it('a topic the model lacks, on a routine to create, stops the other reads and is told at its position', async () => {
    const routine = [
      'routines:',
      '  - name: New digest',
      '    owner: ada@acme.example',
      '    prompt: Summarise.',
      '    schedule: "0 7 ? * MON *"',
      '    timezone: UTC',
      '    model: Marketing',
      '    topicName: campaing',
      '    destination: {type: email, recipientEmails: [ada@acme.example]}',
    ].join('\n');
    const { code, out, listed } = await longListing(`version: 1\nuserCreditLimits:\n  - email: f1@acme.example\n    creditLimit: 5\n${routine}\n`);
    expect(code).toBe(1);
    expect(out).toMatch(/steward\.yaml:12:16: routine "New digest": topic "campaing" is not a topic of model "Marketing"; its topics: "campaigns"/);
    expect(out).toContain('did you mean "campaigns"?');
    expect(listed, out).toBeLessThan(30);
  });
});

describe.each(PROFILES)('model lookups (%s profile)', (profile) => {
  // Nothing else is in flight before whoami: the name lookups of a config's few models are one
  // round, not two (they were four at a time). A proxy holds every lookup's answer until all five
  // have arrived (or a grace period ends): a planner that waits for some before asking the others
  // is caught.
  it('asks for five models by name side by side, before whoami', async () => {
    const seed = datasetSeed('demo');
    const id = (i: number) => `0f0e0d0c-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;
    seed.models!.push(
      { id: id(0), name: 'Finance', defaultRole: 'QUERIER', topics: [] },
      { id: id(1), name: 'Support', defaultRole: 'QUERIER', topics: [] },
      { id: id(2), name: 'Product', defaultRole: 'QUERIER', topics: [] },
    );
    const names = ['Sales', 'Marketing', 'Finance', 'Support', 'Product'];
    emulator = await startEmulator({ data: seed, port: 0, profile });
    const arrivals: string[] = [];
    let answered = 0;
    let allBeforeAnyAnswer = false;
    let allArrived: () => void = () => undefined;
    const five = new Promise<void>((resolve) => (allArrived = resolve));
    const target = emulator.url;
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const path = request.url ?? '';
      const lookup = path.startsWith('/api/v1/models?') && path.includes('name=');
      arrivals.push(lookup ? 'model' : path.split('?')[0]!);
      if (lookup && arrivals.filter((kind) => kind === 'model').length === names.length) {
        allBeforeAnyAnswer = answered === 0;
        allArrived();
      }
      const pass = () => {
        if (lookup) answered += 1;
        const upstream = forward(`${target}${path}`, { method: request.method, headers: request.headers }, (answer) => {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        });
        request.pipe(upstream);
      };
      if (!lookup) return pass();
      void Promise.race([five, new Promise((resolve) => setTimeout(resolve, GRACE_MS))]).then(pass);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const directory = await mkdtemp(join(tmpdir(), 'steward-models-'));
      await writeFile(join(directory, 'environments.yaml'), 'version: 1\nenvironments:\n  prod:\n    baseUrl: https://acme.example\n    tokenEnv: TOKEN\n    requestsPerMinute: 100000\n');
      const routines = names.map((model) =>
        [`  - name: ${model} digest`, '    owner: ada@acme.example', '    prompt: Summarise.', '    schedule: "0 7 ? * MON *"', '    timezone: UTC', `    model: ${model}`, '    destination: {type: email, recipientEmails: [ada@acme.example]}'].join('\n'),
      );
      await writeFile(join(directory, 'routines.yaml'), `version: 1\nroutines:\n${routines.join('\n')}\n`);
      let out = '';
      const io: CommandIo = { stdout: (text) => void (out += text), stderr: (text) => void (out += text), env: { TOKEN: PRODUCTION_TOKEN, STEWARD_CACHE_DIR: 'off' }, cwd: directory, isTTY: false };
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

      const code = await runPlan({ config: directory, env: 'prod', baseUrl: url, detailedExitcode: true }, io);

      expect(code, out).toBe(EXIT.changes);
      expect(arrivals.slice(0, names.length), arrivals.join(' ')).toEqual(names.map(() => 'model'));
      expect(arrivals[names.length]).toBe('/api/v1/whoami');
      expect(allBeforeAnyAnswer, arrivals.join(' ')).toBe(true);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
