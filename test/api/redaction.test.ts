// The token goes out in the Authorization header and nowhere else: not in the request log, not
// in error messages, not in thrown objects or their causes, even when the server echoes it.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { inspect } from 'node:util';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { formatAttempt, REDACTED, Redactor } from '../../src/api/log.js';
import { PlatformApi } from '../../src/api/platform.js';
import { runApply } from '../../src/cli/apply.js';
import type { CommandIo } from '../../src/cli/context.js';
import { runDiff } from '../../src/cli/diff.js';
import { runDrift } from '../../src/cli/drift.js';
import { runExport } from '../../src/cli/export.js';
import { runPlan } from '../../src/cli/plan.js';
import { runValidate } from '../../src/cli/validate.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { expectNoSecret, ORIGIN, rejectionOf, renderings, testClient, type TestClient } from './helpers.js';

let current: TestClient | undefined;

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  await current?.client.close();
  current = undefined;
  nock.cleanAll();
});
afterAll(() => nock.enableNetConnect());

describe('request log', () => {
  it('logs method, path, status, duration and retry count for every attempt, and nothing secret', async () => {
    current = testClient();
    const { client, token, lines } = current;
    nock(ORIGIN, { reqheaders: { authorization: `Bearer ${token}` } })
      .get('/api/v1/labels')
      .reply(503, '')
      .get('/api/v1/labels')
      .reply(200, { labels: [] });
    await new PlatformApi(client).listLabels();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^GET \/api\/v1\/labels 503 \d+ms retry=0$/);
    expect(lines[1]).toBe('GET /api/v1/labels retrying (503) in 500ms, retry 1');
    expect(lines[2]).toMatch(/^GET \/api\/v1\/labels 200 \d+ms retry=1$/);
    expectNoSecret(token, lines);
    expect(lines.join('\n')).not.toMatch(/authorization|bearer/i);
  });

  it('redacts the token wherever it turns up: query, error body, network error, HTML title', async () => {
    current = testClient({ maxRetries: 1 });
    const { client, token, lines } = current;
    const encoded = encodeURIComponent(token);
    nock(ORIGIN)
      .get('/api/v1/documents')
      .query(true)
      .reply(401, { detail: `API key ${token} is not valid (Authorization: Bearer ${token})`, status: 401 });
    const unauthorized = (await rejectionOf(
      client.request('GET', '/api/v1/documents', { operation: 'listing documents', query: { echo: token } }),
    )) as ApiError;
    expect(unauthorized.message).toBe(`listing documents: 401 API key ${REDACTED} is not valid (Authorization: Bearer ${REDACTED})`);
    expect(unauthorized.serverMessage).toBe(`API key ${REDACTED} is not valid (Authorization: Bearer ${REDACTED})`);

    nock(ORIGIN).post('/api/v1/labels').replyWithError({ code: 'ECONNRESET', message: `reset while sending ${token}` });
    const lost = (await rejectionOf(
      client.request('POST', '/api/v1/labels', { operation: 'creating label "x"', body: { name: 'x', note: token } }),
    )) as ApiError;
    expect(lost.outcomeUnknown).toBe(true);
    expect(lost.message).toContain(`reset while sending ${REDACTED}`);

    nock(ORIGIN).get('/api/v1/labels').times(2).reply(502, `<html><title>bad ${token}</title></html>`, { 'Content-Type': 'text/html' });
    const gateway = (await rejectionOf(client.request('GET', '/api/v1/labels', { operation: 'listing labels' }))) as ApiError;
    expect(gateway.message).toBe(`listing labels: 502 bad ${REDACTED} (gave up after 1 retry)`);

    nock(ORIGIN).get('/api/v1/whoami').times(2).replyWithError(new Error(`TLS failure for ${token}`, { cause: new Error(`inner ${encoded}`) }));
    const network = (await rejectionOf(client.request('GET', '/api/v1/whoami', { operation: 'reading the API key identity' }))) as ApiError;
    expect(network.cause).toBeInstanceOf(Error);
    expect((network.cause as Error).message).toBe(`TLS failure for ${REDACTED}`);
    expect(((network.cause as Error).cause as Error).message).toBe(`inner ${REDACTED}`);

    for (const error of [unauthorized, lost, gateway, network]) {
      expectNoSecret(token, error);
      expectNoSecret(encoded, error);
      expect(renderings(error).join('\n')).not.toContain('Bearer stw_');
    }
    expect(lines.some((line) => line.includes(`echo=${REDACTED}`))).toBe(true);
    expectNoSecret(token, lines);
    expectNoSecret(encoded, lines);
  });

  it('keeps the token out of the client object itself', () => {
    current = testClient();
    const { client, token } = current;
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(token);
    expect(JSON.stringify(client)).not.toContain(token);
    expect(JSON.stringify(new PlatformApi(client))).not.toContain(token);
  });
});

describe('Redactor', () => {
  const secret = 'ab+cd/ef==';
  const redactor = new Redactor(secret);

  it('removes the secret in plain, URL-encoded, JSON-escaped and base64 forms', () => {
    expect(redactor.redact(`a ${secret} b`)).toBe(`a ${REDACTED} b`);
    expect(redactor.redact(`?t=${encodeURIComponent(secret)}`)).toBe(`?t=${REDACTED}`);
    expect(redactor.redact(Buffer.from(secret).toString('base64'))).toBe(REDACTED);
    expect(new Redactor('q"uote').redact(JSON.stringify({ t: 'q"uote' }))).toBe(`{"t":"${REDACTED}"}`);
  });

  it('removes any bearer credential from a message, even one it was not told about', () => {
    expect(redactor.redact('Authorization: Bearer someoneElsesToken')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it('removes only the secret from whole outputs, which show live data: "Bearer bonds" is a description', () => {
    expect(redactor.redactSecret('description: Bearer bonds desk')).toBe('description: Bearer bonds desk');
    expect(redactor.redactSecret(`token: Bearer ${secret}`)).toBe(`token: Bearer ${REDACTED}`);
    expect(redactor.redactSecret(Buffer.from(`Bearer ${secret}`).toString('base64'))).toBe(REDACTED);
  });

  it('formats an attempt line with pacing when there was any', () => {
    expect(formatAttempt({ method: 'GET', path: '/api/v1/labels', outcome: 200, durationMs: 12.4, retry: 0, pacedMs: 1_500 })).toBe(
      'GET /api/v1/labels 200 12ms retry=0 paced=1500ms',
    );
    expect(formatAttempt({ method: 'POST', path: '/x', outcome: 'ECONNRESET', durationMs: 3, retry: 2, pacedMs: 0 })).toBe(
      'POST /x ECONNRESET 3ms retry=2',
    );
  });
});

describe('Redactor, against a server that echoes the token in another form', () => {
  const token = 'stw_live_7Hq2Lm9XvB4kRt8N';
  const redactor = new Redactor(token);
  const forms = echoedForms(token);

  it.each(Object.entries(forms))('removes the token written %s', (_, form) => {
    expect(redactor.redact(`detail: ${form} (end)`)).not.toMatch(leakPattern(token));
    expect(redactor.redact(`detail: ${form} (end)`)).toContain(REDACTED);
  });

  it('removes the token inside a longer base64 stream, at any alignment', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'Authorization: Bearer ']) {
      const stream = Buffer.from(`${prefix}${token} and more`).toString('base64');
      const shown = redactor.redact(stream);
      expect(shown).toContain(REDACTED);
      // What is left cannot be decoded back into the token.
      for (const piece of shown.split(REDACTED)) expect(Buffer.from(piece, 'base64').toString('latin1')).not.toContain(token.slice(0, 8));
    }
  });
});

/** The forms a careless or hostile server echoes a token in. */
export function echoedForms(token: string): Record<string, string> {
  const swapped = [...token].map((character, index) => (index % 2 === 0 ? character.toUpperCase() : character.toLowerCase())).join('');
  return {
    'as is': token,
    'upper-cased': token.toUpperCase(),
    'lower-cased': token.toLowerCase(),
    'in mixed case': swapped,
    'in hex': Buffer.from(token).toString('hex'),
    'in upper-case hex': Buffer.from(token).toString('hex').toUpperCase(),
    'in base64': Buffer.from(token).toString('base64'),
    'in base64url': Buffer.from(token).toString('base64url'),
    'as base64 of Bearer TOKEN': Buffer.from(`Bearer ${token}`).toString('base64'),
    'as base64url of Bearer TOKEN': Buffer.from(`Bearer ${token}`).toString('base64url'),
    'URL-encoded': encodeURIComponent(token),
    'after Bearer': `Bearer ${token}`,
  };
}

/** Matches any echoed form of the token (case-insensitively: the plain forms in any case). */
export function leakPattern(token: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(Object.values(echoedForms(token)).map(escape).join('|'), 'i');
}

/**
 * A configuration that makes every command quote the server: it changes and prunes labels,
 * takes a label off documents (named by the server), resets user limits and prunes routines.
 */
const ECHO_CONFIG = `version: 1
environments:
  production:
    baseUrl: https://acme.example.com
    tokenEnv: STEWARD_PRODUCTION_TOKEN
    requestsPerMinute: 6000
  playground:
    baseUrl: https://acme-playground.example.com
    tokenEnv: STEWARD_PLAYGROUND_TOKEN
    requestsPerMinute: 6000
creditControls:
  shutoffCredits: 12345
userCreditLimits:
  - email: ada@acme.example
    creditLimit: 321
routines: []
labels:
  - name: finance
    description: Changed by steward
  - name: marketing
    documents: ["5e4d3c2b"]
  - name: draft
    documents: []
    pruneDocuments: true
prune:
  labels: true
  routines: true
  userCreditLimits: true
`;

describe('every command, against a server that echoes the token in every form', () => {
  const TOKEN = 'demo-org-admin-token';
  let emulator: RunningEmulator;
  let proxy: { url: string; close: () => Promise<void> };
  let directory: string;
  let outputs: string;
  const written: string[] = [];

  beforeAll(async () => {
    nock.enableNetConnect('127.0.0.1');
    emulator = await startEmulator({ dataset: 'demo' });
    proxy = await startEchoingProxy(emulator.url, TOKEN);
    directory = await mkdtemp(join(tmpdir(), 'steward-echo-'));
    await writeFile(join(directory, 'steward.yaml'), ECHO_CONFIG);
    outputs = await mkdtemp(join(tmpdir(), 'steward-outputs-'));
  });
  afterAll(async () => {
    await proxy.close();
    await emulator.close();
    await rm(directory, { recursive: true, force: true });
    await rm(outputs, { recursive: true, force: true });
    nock.disableNetConnect();
  });

  async function run(command: (io: CommandIo) => Promise<number>): Promise<void> {
    let output = '';
    const io: CommandIo = {
      stdout: (text) => {
        output += text;
      },
      stderr: (text) => {
        output += text;
      },
      env: { STEWARD_PRODUCTION_TOKEN: TOKEN, STEWARD_PLAYGROUND_TOKEN: TOKEN, GITHUB_ACTIONS: 'true' },
      cwd: directory,
      isTTY: false,
    };
    await command(io);
    written.push(output);
  }

  it('writes the token in no form, in any output or file', async () => {
    const connection = { config: directory, env: 'production', baseUrl: proxy.url };
    await run((io) => runValidate(directory, {}, io));
    await run((io) => runPlan(connection, io));
    await run((io) => runPlan({ ...connection, json: true }, io));
    await run((io) => runPlan({ ...connection, markdown: join(outputs, 'plan.md') }, io));
    await run((io) => runApply(undefined, { ...connection, autoApprove: true }, io));
    await run((io) => runApply(undefined, { ...connection, autoApprove: true, json: true }, io));
    await run((io) => runApply(undefined, { ...connection, dryRun: true }, io));
    await run((io) => runDrift({ ...connection, markdown: true }, io));
    await run((io) => runExport(connection, io));
    await run((io) => runExport({ ...connection, out: join(outputs, 'exported.yaml') }, io));
    await run((io) => runDiff({ ...connection, against: 'playground', againstBaseUrl: proxy.url }, io));
    await run((io) => runDiff({ ...connection, against: 'playground', againstBaseUrl: proxy.url, markdown: true }, io));
    // A token pasted into the base URL: refused, and never shown (not even in the code frame).
    const pasted = join(outputs, 'pasted');
    await mkdir(pasted);
    await writeFile(join(pasted, 'steward.yaml'), `version: 1\nenvironments:\n  production:\n    baseUrl: https://ci:${TOKEN}@acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n`);
    await run((io) => runValidate(pasted, {}, io));
    await run((io) => runValidate(pasted, { json: true }, io));
    await run((io) => runPlan({ config: pasted, env: 'production' }, io));
    await run((io) => runPlan({ config: directory, env: 'production', baseUrl: `https://ci:${TOKEN}@acme.example.com` }, io));
    expect(written.slice(-4).every((output) => /user name or password|credentials/.test(output))).toBe(true);
    for (const file of ['plan.md', 'exported.yaml']) {
      expect(existsSync(join(outputs, file))).toBe(true);
      written.push(await readFile(join(outputs, file), 'utf8'));
    }

    // The server's text did reach the output (so the check is not vacuous) ...
    // every command that read the server, and both files (not validate, nor export --out's one-line note).
    const quotingServer = [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 16, 17];
    expect(quotingServer.filter((index) => !written[index]!.includes(REDACTED))).toEqual([]);
    // ... but never the token.
    written.forEach((output, index) => expect(`${index}: ${output}`).not.toMatch(leakPattern(TOKEN)));
  });
});

/**
 * A loopback proxy in front of the emulator that appends every echoed form of the token to each
 * name, description and message it returns, and answers every write with a 400 quoting them.
 */
async function startEchoingProxy(target: string, token: string): Promise<{ url: string; close: () => Promise<void> }> {
  const echo = Object.values(echoedForms(token)).join(' ');
  const TEXT_FIELDS = new Set(['name', 'displayName', 'description', 'prompt', 'detail', 'message', 'error', 'topicName', 'title']);
  const taint = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(taint);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, typeof child === 'string' && TEXT_FIELDS.has(key) ? `${child} ${echo}` : taint(child)]),
    );
  };
  const server = createServer((request, response) => {
    void (async () => {
      for await (const _chunk of request) {
        // drain the body
      }
      if (request.method !== 'GET') {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ detail: `Bad Request: name: ${echo}`, status: 400 }));
        return;
      }
      const upstream = await fetch(`${target}${request.url ?? '/'}`, { headers: { authorization: String(request.headers.authorization ?? '') } });
      const text = await upstream.text();
      let body = text;
      try {
        body = JSON.stringify(taint(JSON.parse(text)));
      } catch {
        body = `${text} ${echo}`;
      }
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      response.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
