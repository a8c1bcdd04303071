// A small HTTP server on 127.0.0.1 that misbehaves on purpose, the way a server steward did not
// write might: it never answers, cuts bodies short, pages forever, sends the wrong shapes. Each
// route (`METHOD /path`, query ignored) gets a behaviour; anything else is a 404. It records every
// request and closes every connection it holds when closed.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server knows of a request when it answers. */
export interface HostileRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** How many requests this route has had, this one included (1 for the first). */
  count: number;
  body: string;
}

/** Answers one request; may also do nothing at all (never answers). */
export type Behaviour = (request: HostileRequest, response: ServerResponse) => void;

export interface HostileServer {
  /** `http://127.0.0.1:port`. */
  url: string;
  /** Every request received, in order: `METHOD /path?query`. */
  requests: string[];
  /** Requests per route key. */
  countOf(route: string): number;
  close(): Promise<void>;
}

/** Answers JSON with a status (Content-Length set by Node from the whole body). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Behaviour {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
}

/** Accepts the request and never answers (until the server closes). */
export function neverAnswer(): Behaviour {
  return () => undefined;
}

/** Announces the whole body's length, sends its first half, then drops the connection. */
export function cutShort(body: unknown): Behaviour {
  return (_request, response) => {
    const text = JSON.stringify(body);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    response.write(text.slice(0, Math.floor(text.length / 2)));
    setTimeout(() => response.socket?.destroy(), 10);
  };
}

/** Starts the server with behaviours by route key (`GET /api/v1/labels`). */
export async function startHostileServer(routes: Record<string, Behaviour>): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const counts = new Map<string, number>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const route = `${request.method ?? 'GET'} ${url.pathname}`;
    requests.push(`${route}${url.search}`);
    const count = (counts.get(route) ?? 0) + 1;
    counts.set(route, count);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const behaviour = routes[route] ?? json(404, { detail: `Not found: ${route}`, status: 404 });
      behaviour({ method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, count, body: Buffer.concat(chunks).toString('utf8') }, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    countOf: (route) => counts.get(route) ?? 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
