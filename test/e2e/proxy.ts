// A loopback proxy in front of an emulator that answers some requests itself, as a server we did
// not write might: a token revoked mid-run (401/403), a rate limit hit at a chosen write (429).
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An answer the proxy gives instead of the emulator. */
export interface CannedAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** A write seen by the proxy, with the status it was answered. */
export interface SeenWrite {
  method: string;
  path: string;
  status: number;
}

export interface InterceptingProxy {
  url: string;
  writes: SeenWrite[];
  close(): Promise<void>;
}

/**
 * Forwards every request to `target` unless `intercept` answers it. `intercept` sees each
 * request with the number of writes (non-GET) before it.
 */
export async function interceptingProxy(target: string, intercept: (request: IncomingMessage, writesBefore: number) => CannedAnswer | undefined): Promise<InterceptingProxy> {
  const writes: SeenWrite[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const isWrite = request.method !== 'GET';
    const canned = intercept(request, writes.length);
    if (canned !== undefined) {
      if (isWrite) writes.push({ method: request.method!, path: request.url!, status: canned.status });
      request.resume();
      response.writeHead(canned.status, { 'content-type': 'application/json', ...canned.headers }).end(JSON.stringify(canned.body));
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
