// The client's own connection pool against a real loopback server (no interception here):
// requests go through the undici Agent, connections are kept alive and closed with the client,
// timeouts and resets are retried for reads and reported as outcome unknown for creates.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { expectNoSecret, freshToken, rejectionOf } from './helpers.js';

interface LoopbackServer {
  url: string;
  sockets: Set<Socket>;
  connections: () => number;
  requests: IncomingMessage[];
  close: () => Promise<void>;
}

async function startServer(handle: (req: IncomingMessage, res: ServerResponse, index: number) => void): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const requests: IncomingMessage[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    requests.push(req);
    req.resume();
    req.on('end', () => handle(req, res, requests.length - 1));
  });
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sockets,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function client(url: string, options: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  const api = new ApiClient({ baseUrl: url, token: freshToken(), requestsPerMinute: 6000, burst: 100, sleep: async () => {}, ...options });
  cleanups.push(() => api.close());
  return api;
}

describe('transport', () => {
  it('sends through the undici Agent, reuses one kept-alive connection, and closes it with the client', async () => {
    const server = await startServer((_req, res) => json(res, 200, { labels: [] }));
    cleanups.push(server.close);
    const dispatch = vi.spyOn(Agent.prototype, 'dispatch');
    const token = freshToken();
    const api = new ApiClient({ baseUrl: server.url, token, requestsPerMinute: 6000, burst: 100 });
    for (let i = 0; i < 5; i += 1) {
      await api.request('GET', '/api/v1/labels', { operation: 'listing labels' });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(dispatch).toHaveBeenCalledTimes(5);
    expect(server.connections()).toBe(1);
    expect(server.sockets.size).toBe(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(server.requests[0]?.headers.accept).toBe('application/json');
    await api.close();
    await vi.waitFor(() => expect(server.sockets.size).toBe(0));
  });

  it('retries a read whose headers never came, within the timeout', async () => {
    const server = await startServer((_req, res, index) => {
      if (index === 0) return; // never answer the first request
      json(res, 200, { ok: true });
    });
    cleanups.push(server.close);
    const api = client(server.url, { timeoutMs: 200 });
    await expect(api.request('GET', '/api/v1/whoami', { operation: 'reading the API key identity' })).resolves.toEqual({ ok: true });
    expect(api.stats()).toMatchObject({ requests: 2, retries: 1 });
  });

  it('absorbs a connection reset on a read', async () => {
    const server = await startServer((req, res, index) => {
      if (index === 0) {
        req.socket.destroy();
        return;
      }
      json(res, 200, { labels: ['ok'] });
    });
    cleanups.push(server.close);
    const api = client(server.url);
    await expect(api.request('GET', '/api/v1/labels', { operation: 'listing labels' })).resolves.toEqual({ labels: ['ok'] });
    expect(server.requests).toHaveLength(2);
  });

  it('reports a create whose connection was reset as outcome unknown, and sends it once', async () => {
    const server = await startServer((req) => req.socket.destroy());
    cleanups.push(server.close);
    const token = freshToken();
    const api = client(server.url, { token });
    const error = (await rejectionOf(
      api.request('POST', '/api/v1/labels', { operation: 'creating label "finance"', body: { name: 'finance' } }),
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(/^creating label "finance": network error \(.+\); the outcome is unknown/);
    expect(server.requests).toHaveLength(1);
    expectNoSecret(token, error);
  });

  it('retries even a create when the connection is refused (nothing reached the server)', async () => {
    const server = await startServer(() => undefined);
    const { url } = server;
    await server.close();
    const api = client(url, { maxRetries: 2 });
    const error = (await rejectionOf(
      api.request('POST', '/api/v1/labels', { operation: 'creating label "finance"', body: { name: 'finance' } }),
    )) as ApiError;
    expect(error.outcomeUnknown).toBe(false);
    expect(error.code).toBe('api.network');
    expect(error.message).toMatch(/^creating label "finance": network error \(connect ECONNREFUSED 127\.0\.0\.1:\d+\) \(gave up after 2 retries: nothing answered at that address\)$/);
    expect(api.stats()).toMatchObject({ requests: 3, retries: 2 });
  });
});
