// The token goes out in the Authorization header and nowhere else: not in the request log, not
// in error messages, not in thrown objects or their causes, even when the server echoes it.

import { inspect } from 'node:util';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { formatAttempt, REDACTED, Redactor } from '../../src/api/log.js';
import { PlatformApi } from '../../src/api/platform.js';
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

  it('removes any bearer credential, even one it was not told about', () => {
    expect(redactor.redact('Authorization: Bearer someoneElsesToken')).toBe(`Authorization: Bearer ${REDACTED}`);
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
