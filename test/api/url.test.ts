// Base URL handling: the configured address becomes one origin, /api is accepted, plain http
// only reaches loopback, and path segments cannot escape their place.

import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { encodePathSegment, encodeQuery, fillPath, resolveInstanceOrigin } from '../../src/api/url.js';
import { StewardError } from '../../src/errors.js';
import { expectNoSecret, freshToken, rejectionOf } from './helpers.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof StewardError ? error.code : 'not-a-steward-error';
  }
  return undefined;
}

describe('resolveInstanceOrigin', () => {
  it.each([
    ['https://acme.example.com', 'https://acme.example.com'],
    ['https://acme.example.com/', 'https://acme.example.com'],
    ['https://acme.example.com/api', 'https://acme.example.com'],
    ['https://acme.example.com/api/', 'https://acme.example.com'],
    ['https://acme.example.com//api//', 'https://acme.example.com'],
    ['  https://ACME.example.com:8443/api  ', 'https://acme.example.com:8443'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['http://localhost:4010/api', 'http://localhost:4010'],
    ['http://[::1]:4010/', 'http://[::1]:4010'],
    ['http://127.8.9.10', 'http://127.8.9.10'],
  ])('accepts %s as %s', (input, origin) => {
    expect(resolveInstanceOrigin(input)).toBe(origin);
  });

  it.each([
    ['http://acme.example.com', 'config.insecure-url'],
    ['http://10.0.0.5:8080/api', 'config.insecure-url'],
    ['http://127.0.0.1.example.com', 'config.insecure-url'],
    ['ftp://acme.example.com', 'config.invalid-url'],
    ['acme.example.com', 'config.invalid-url'],
    ['', 'config.invalid-url'],
    ['https://acme.example.com/app', 'config.invalid-url'],
    ['https://acme.example.com/api/v1', 'config.invalid-url'],
    ['https://acme.example.com/?x=1', 'config.invalid-url'],
  ])('refuses %s with %s', (input, code) => {
    expect(codeOf(() => resolveInstanceOrigin(input))).toBe(code);
  });

  it('says why plain http is refused and how to fix it', () => {
    try {
      resolveInstanceOrigin('http://acme.example.com/api');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(StewardError);
      expect((error as StewardError).message).toBe('Refusing to send the API token over plain http:// to acme.example.com.');
      expect((error as StewardError).hint).toContain('https://acme.example.com');
    }
  });

  it.each([
    'https://me:SECRET@acme.example.com',
    'https://SECRET@acme.example.com/api',
    'HTTPS://ci:SECRET@ACME.example.com',
    'http://SECRET@localhost:4010',
    'https://ci:SECRET/x#y@acme.example.com',
    'https://ci:SECRET @acme.example.com',
    'https://ci:SECRET@acme.example.com:99999',
    'ftp://ci:SECRET@acme.example.com',
  ])('refuses %s without echoing the credentials', (address) => {
    const secret = 'p4ssw0rd-in-url';
    try {
      resolveInstanceOrigin(address.replace('SECRET', secret));
      expect.unreachable();
    } catch (error) {
      expect((error as StewardError).code).toBe('config.invalid-url');
      expect((error as StewardError).message).toContain('credentials');
      expectNoSecret(secret, error);
    }
  });
});

describe('request paths', () => {
  it('encodes a segment so it stays one segment', () => {
    expect(fillPath('/api/v1/labels/{name}', { name: 'Q3 / EMEA?#%' })).toBe('/api/v1/labels/Q3%20%2F%20EMEA%3F%23%25');
  });

  it.each(['', '.', '..'])('refuses the dot or empty segment %j', (value) => {
    expect(codeOf(() => encodePathSegment(value, 'label name'))).toBe('api.invalid-path-segment');
  });

  it('drops undefined query values and encodes the rest', () => {
    expect(encodeQuery({ filter: 'userName eq "a+b@x.io"', cursor: undefined, count: 100, active: true })).toBe(
      '?filter=userName%20eq%20%22a%2Bb%40x.io%22&count=100&active=true',
    );
    expect(encodeQuery({ cursor: undefined })).toBe('');
  });
});

describe('ApiClient addresses', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());

  it.each(['https://acme.example.com', 'https://acme.example.com/', 'https://acme.example.com/api', 'https://acme.example.com/api/'])(
    'joins /api/v1 paths to %s exactly once',
    async (baseUrl) => {
      const scope = nock('https://acme.example.com').get('/api/v1/labels').reply(200, { labels: [] });
      const client = new ApiClient({ baseUrl, token: freshToken() });
      await expect(client.request('GET', '/api/v1/labels', { operation: 'listing labels' })).resolves.toEqual({ labels: [] });
      scope.done();
      await client.close();
    },
  );

  it('is intercepted by nock: an unmocked request never leaves the process', async () => {
    const client = new ApiClient({ baseUrl: 'https://acme.example.com', token: freshToken(), maxRetries: 0 });
    const error = await rejectionOf(client.request('GET', '/api/v1/unmocked', { operation: 'reading nothing' }));
    expect((error as StewardError).message).toBe(
      'reading nothing: network error (ENETUNREACH: Nock: Disallowed net connect for "acme.example.com:443/api/v1/unmocked")',
    );
    await client.close();
  });

  it('refuses a plain http instance before any request is made', () => {
    expect(codeOf(() => new ApiClient({ baseUrl: 'http://acme.example.com', token: freshToken() }))).toBe('config.insecure-url');
  });

  it('talks plain http to loopback', async () => {
    const scope = nock('http://127.0.0.1:4010').get('/api/v1/whoami').reply(200, { keyScope: 'organization' });
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:4010/api', token: freshToken() });
    await expect(client.request('GET', '/api/v1/whoami', { operation: 'reading the API key identity' })).resolves.toEqual({
      keyScope: 'organization',
    });
    scope.done();
    await client.close();
  });

  it('refuses an empty token or one with whitespace without echoing it', () => {
    expect(codeOf(() => new ApiClient({ baseUrl: 'https://acme.example.com', token: '' }))).toBe('config.missing-token');
    const bad = 'abc def-secret';
    try {
      new ApiClient({ baseUrl: 'https://acme.example.com', token: bad });
      expect.unreachable();
    } catch (error) {
      expect((error as StewardError).code).toBe('config.invalid-token');
      expectNoSecret(bad, error);
    }
  });

  it('fails clearly after close()', async () => {
    const client = new ApiClient({ baseUrl: 'https://acme.example.com', token: freshToken() });
    await client.close();
    const error = await rejectionOf(client.request('GET', '/api/v1/labels', { operation: 'listing labels' }));
    expect((error as StewardError).code).toBe('api.closed');
  });
});
