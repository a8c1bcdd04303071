// Every way the platform can say no becomes one ApiError whose message names what was being
// done and quotes the server: both JSON body forms, an HTML page, plain text, an empty body.

import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  isConflict,
  isForbidden,
  isMethodNotAllowed,
  isNotFound,
  isOutcomeUnknown,
  isRateLimited,
  isUnauthorized,
  namesQuota,
  readErrorBody,
} from '../../src/api/errors.js';
import { StewardError, toErrorEnvelope } from '../../src/errors.js';
import { ORIGIN, rejectionOf, testClient, type TestClient } from './helpers.js';

const ROUTINES = '/api/v1/ai/routines';
let current: TestClient | undefined;

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  await current?.client.close();
  current = undefined;
  nock.cleanAll();
});
afterAll(() => nock.enableNetConnect());

async function failWith(status: number, body: string | object, headers: Record<string, string> = {}): Promise<ApiError> {
  const { client } = testClient({ maxRetries: 0 });
  nock(ORIGIN).get(ROUTINES).reply(status, body, headers);
  const error = await rejectionOf(client.request('GET', ROUTINES, { operation: 'listing routines', route: `GET ${ROUTINES}` }));
  await client.close();
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toBeInstanceOf(StewardError);
  return error as ApiError;
}

describe('error bodies', () => {
  it('reads the detail form {detail, status}', async () => {
    const error = await failWith(404, { detail: 'Routine not found', status: 404 });
    expect(error.message).toBe('listing routines: 404 Routine not found');
    expect(error.serverMessage).toBe('Routine not found');
    expect(error).toMatchObject({ status: 404, method: 'GET', route: `GET ${ROUTINES}`, operation: 'listing routines' });
    expect(error.code).toBe('api.not-found');
    expect(error.fault).toBe('user');
  });

  it('reads the error form {error, message}', async () => {
    const error = await failWith(403, { error: 'Forbidden', message: 'Insufficient permissions' });
    expect(error.message).toBe('listing routines: 403 Insufficient permissions');
    expect(error.serverMessage).toBe('Insufficient permissions');
    expect(error.serverCode).toBe('Forbidden');
    expect(error.code).toBe('api.forbidden');
    expect(error.hint).toContain('Organization Admin');
  });

  it('prefers detail when a body mixes both forms', async () => {
    const error = await failWith(404, { error: 'Not Found', detail: 'Prompt set not found' });
    expect(error.message).toBe('listing routines: 404 Prompt set not found');
    expect(error.serverCode).toBe('Not Found');
  });

  it('falls back to the error code when there is no message', async () => {
    const error = await failWith(409, { error: 'Conflict' });
    expect(error.message).toBe('listing routines: 409 Conflict');
    expect(isConflict(error)).toBe(true);
  });

  it('turns an HTML 502 page into the status text, using its title when it has one', async () => {
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>';
    const error = await failWith(502, page, { 'Content-Type': 'text/html' });
    expect(error.message).toBe('listing routines: 502 Bad Gateway');
    expect(error.serverMessage).toBe('502 Bad Gateway');
    const untitled = await failWith(502, '<html><body>upstream error</body></html>', { 'Content-Type': 'text/html' });
    expect(untitled.message).toBe('listing routines: 502 Bad Gateway');
    expect(untitled.serverMessage).toBeUndefined();
  });

  it('turns an empty body into the status text', async () => {
    const error = await failWith(500, '');
    expect(error.message).toBe('listing routines: 500 Internal Server Error');
    expect(error.serverMessage).toBeUndefined();
    expect(error.code).toBe('api.server-error');
    expect(error.fault).toBe('server');
  });

  it('quotes short plain text', async () => {
    const error = await failWith(503, 'upstream connect error or disconnect/reset before headers\n\nmore', {
      'Content-Type': 'text/plain',
    });
    expect(error.message).toBe('listing routines: 503 upstream connect error or disconnect/reset before headers');
  });

  it('survives a body that claims JSON but is not', async () => {
    const error = await failWith(400, '{"detail": ', { 'Content-Type': 'application/json' });
    expect(error.message).toBe('listing routines: 400 {"detail":');
  });

  it('handles a JSON body of another shape', async () => {
    expect((await failWith(400, [1, 2])).message).toBe('listing routines: 400 Bad Request');
    expect((await failWith(401, { message: 'Missing or invalid API key' })).message).toBe(
      'listing routines: 401 Missing or invalid API key',
    );
  });

  it('clips a very long server message to one line', () => {
    const { serverMessage } = readErrorBody(JSON.stringify({ detail: `a\n${'x'.repeat(2_000)}` }), 'application/json');
    expect(serverMessage?.startsWith('a x')).toBe(true);
    expect(serverMessage?.length).toBe(501);
  });

  it('names an unusual status by its standard reason phrase, and an unknown one by its number', async () => {
    expect((await failWith(418, '')).message).toBe("listing routines: 418 I'm a Teapot");
    const error = await failWith(499, '');
    expect(error.message).toBe('listing routines: 499 HTTP 499');
    expect(error.code).toBe('api.client-error');
  });
});

describe('successful answers that are not JSON', () => {
  it('reports a 200 HTML page (a login page, a proxy) as an invalid response', async () => {
    current = testClient();
    nock(ORIGIN).get(ROUTINES).reply(200, '<html>Sign in</html>', { 'Content-Type': 'text/html' });
    const error = (await rejectionOf(current.client.request('GET', ROUTINES, { operation: 'listing routines' }))) as ApiError;
    expect(error.code).toBe('api.invalid-response');
    expect(error.message).toBe('listing routines: GET /api/v1/ai/routines: 200 but the response body is not JSON (text/html)');
    expect(error.outcomeUnknown).toBe(false);
  });

  it('leaves the outcome of a write answered 2xx with an unreadable body unknown', async () => {
    current = testClient();
    nock(ORIGIN).patch('/api/v1/ai/credit-controls').reply(200, '<html>Saved</html>', { 'Content-Type': 'text/html' });
    const error = (await rejectionOf(
      current.client.request('PATCH', '/api/v1/ai/credit-controls', { operation: 'updating AI credit controls', body: {} }),
    )) as ApiError;
    expect(error.code).toBe('api.invalid-response');
    expect(error.outcomeUnknown).toBe(true);
  });

  it('does not parse the answer to a write nobody reads', async () => {
    current = testClient();
    nock(ORIGIN).delete('/api/v1/labels/old').reply(200, 'OK', { 'Content-Type': 'text/plain' });
    await expect(current.client.request('DELETE', '/api/v1/labels/old', { operation: 'deleting label "old"', readBody: false })).resolves.toBeUndefined();
  });

  it('returns undefined for 204 No Content', async () => {
    current = testClient();
    nock(ORIGIN).delete('/api/v1/labels/old').reply(204);
    await expect(current.client.request('DELETE', '/api/v1/labels/old', { operation: 'deleting label "old"' })).resolves.toBeUndefined();
  });

  it('refuses to follow a redirect (the token would go elsewhere)', async () => {
    current = testClient();
    nock(ORIGIN).get(ROUTINES).reply(301, '', { Location: 'https://login.example.net/sso?next=/api' });
    const error = (await rejectionOf(current.client.request('GET', ROUTINES, { operation: 'listing routines' }))) as ApiError;
    expect(error.code).toBe('api.redirect');
    expect(error.message).toBe('listing routines: 301 redirect to https://login.example.net; the token is not sent along');
  });
});

describe('predicates and envelope', () => {
  it('tell statuses apart', async () => {
    expect(isNotFound(await failWith(404, ''))).toBe(true);
    expect(isForbidden(await failWith(403, ''))).toBe(true);
    expect(isUnauthorized(await failWith(401, ''))).toBe(true);
    expect(isMethodNotAllowed(await failWith(405, ''))).toBe(true);
    expect(isRateLimited(await failWith(429, ''))).toBe(true);
    const notFound = await failWith(404, '');
    expect([isConflict, isForbidden, isMethodNotAllowed, isRateLimited, isOutcomeUnknown].map((is) => is(notFound))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(isNotFound(new Error('404'))).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });

  it('fits the --json error envelope', async () => {
    const error = await failWith(403, { error: 'Forbidden', message: 'Insufficient permissions' });
    expect(toErrorEnvelope(error)).toEqual({
      error: {
        code: 'api.forbidden',
        fault: 'user',
        message: 'listing routines: 403 Insufficient permissions',
        hint: expect.stringContaining('permission') as string,
      },
    });
  });
});

describe('a 429 that names a quota', () => {
  it.each([
    'User has reached the maximum of 100 routines',
    'Maximum number of active routines reached',
    'Routine quota exceeded for this user',
    'You have hit the limit of 50 labels',
    'A user may have at most 25 active routines',
  ])('reads %j as a quota', (words) => {
    expect(namesQuota(words)).toBe(true);
  });

  it.each([
    'Too Many Requests',
    'Rate limit exceeded',
    'Rate limit exceeded: maximum of 60 requests per minute',
    'Too many requests: at most 60 per minute',
    'API quota exceeded, try again shortly',
    'Quota exceeded; retry later',
    '',
  ])('reads %j as a rate limit to wait out', (words) => {
    expect(namesQuota(words)).toBe(false);
  });

  it('has no quota without words', () => {
    expect(namesQuota(undefined)).toBe(false);
  });
});
