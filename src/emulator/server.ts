// The HTTP server: reads a request, counts it, applies latency and faults, authenticates,
// rate-limits, routes to a handler inside a transaction and answers in the right error form.
// The `/__emulator/...` control routes (stats, reset, faults) bypass tokens and rate limits.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { authenticate } from './auth.js';
import { screenUnknownKeys, type ContractRecord } from './contract.js';
import { WRITE_METHODS, type HttpMethod, type RequestContext } from './context.js';
import { errorBody, HttpProblem, json, type ErrorStyle, type Reply } from './http.js';
import type { FaultPlan } from './faults.js';
import type { EmulatorKnobs } from './profiles.js';
import type { RateLimiter } from './rateLimit.js';
import type { Router, RouteMatch } from './router.js';
import type { StatsRecorder } from './stats.js';
import type { Store } from './store.js';

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const CONTROL_PREFIX = '/__emulator';

export interface ServerParts {
  store: Store;
  router: Router;
  faults: FaultPlan;
  limiter: RateLimiter;
  stats: StatsRecorder;
  latencyMs: number;
  /** The time in milliseconds since the epoch (rate-limit windows, timestamps, runs). */
  clock: () => number;
  /** How this emulator answers the open points of gaps.md (429 headers here, the rest in handlers). */
  knobs: EmulatorKnobs;
  /** Origin of this server for URLs in bodies; known once listening. */
  origin: () => string;
  /** Restores the seed and zeroes counters (the control route and `reset()` share it). */
  reset: () => void;
  /** Where misfits of the vendor contract are noted, when the emulator was asked to note them. */
  contract: ContractRecord | undefined;
}

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge());
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if (reply.status === 204 || reply.body === undefined) {
    response.writeHead(reply.status, headers).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  response.writeHead(reply.status, headers).end(text);
}

function problemReply(error: unknown, style: ErrorStyle | undefined): Reply {
  if (error instanceof HttpProblem) {
    return { status: error.status, body: errorBody(error.status, error.message, style), headers: error.headers };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, body: errorBody(500, `Internal Server Error: ${message}`, style) };
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpProblem(400, `Bad Request: body: invalid JSON (${(error as Error).message})`);
  }
}

function errorStyleOf(match: RouteMatch): ErrorStyle | undefined {
  if (match.kind === 'route') return match.route.errorStyle;
  if (match.kind === 'method-not-allowed') return match.errorStyle;
  return undefined;
}

/** Authentication, rate limit, routing and the handler: everything after faults and stats. */
function answer(parts: ServerParts, request: IncomingMessage, method: string, url: URL, match: RouteMatch, bodyText: string): Reply {
  try {
    const state = parts.store.state;
    const caller = authenticate(request.headers.authorization, state, parts.knobs.orgKeyUser);
    const decision = parts.limiter.admit(caller.token.id, parts.clock());
    if (!decision.allowed) {
      parts.stats.recordRateLimited();
      const headers: Record<string, string> = parts.knobs.sendRetryAfter ? { 'retry-after': String(decision.retryAfterSeconds) } : {};
      throw new HttpProblem(429, 'Too Many Requests', headers);
    }
    if (match.kind === 'not-found') throw new HttpProblem(404, `Not Found: no endpoint at ${url.pathname}`);
    if (match.kind === 'method-not-allowed') {
      throw new HttpProblem(405, `Method ${method} is not allowed on ${match.template}`, { allow: match.allowed.join(', ') });
    }
    const isWrite = WRITE_METHODS.has(method) && match.route.readOnly !== true;
    const body = screenUnknownKeys(method, url.pathname, url.searchParams, WRITE_METHODS.has(method) ? parseJsonBody(bodyText) : undefined, parts.knobs);
    const context: RequestContext = {
      method: method as HttpMethod,
      params: match.params,
      query: url.searchParams,
      body,
      caller,
      state,
      now: new Date(parts.clock()),
      origin: parts.origin(),
      knobs: parts.knobs,
      memo: (name, compute) => parts.store.memo(name, compute),
    };
    if (!isWrite) return match.route.handler(context);
    return parts.store.transaction((live) => match.route.handler({ ...context, state: live }));
  } catch (error) {
    return problemReply(error, errorStyleOf(match));
  }
}

function control(parts: ServerParts, method: string, path: string, bodyText: string): Reply {
  const route = `${method} ${path.replace(/\/$/, '')}`;
  try {
    switch (route) {
      case `GET ${CONTROL_PREFIX}/stats`:
        return json(parts.stats.snapshot());
      case `POST ${CONTROL_PREFIX}/reset`:
        parts.reset();
        return json({ reset: true });
      case `GET ${CONTROL_PREFIX}/faults`:
        return json({ faults: parts.faults.list() });
      case `POST ${CONTROL_PREFIX}/faults`: {
        const body = parseJsonBody(bodyText) as { fault?: unknown; faults?: unknown } | undefined;
        const specs = body?.faults ?? (body?.fault === undefined ? undefined : [body.fault]);
        if (!Array.isArray(specs) || !specs.every((spec) => typeof spec === 'string')) {
          throw new HttpProblem(400, 'Bad Request: body: expected {"fault": "SPEC"} or {"faults": ["SPEC", ...]}');
        }
        try {
          for (const spec of specs) parts.faults.add(spec);
        } catch (error) {
          throw new HttpProblem(400, `Bad Request: fault: ${(error as Error).message}`);
        }
        return json({ faults: parts.faults.list() });
      }
      case `DELETE ${CONTROL_PREFIX}/faults`:
        parts.faults.clear();
        return json({ faults: [] });
      default:
        throw new HttpProblem(404, `Not Found: no emulator control route ${route}`);
    }
  } catch (error) {
    return problemReply(error, 'platform');
  }
}

async function handle(parts: ServerParts, request: IncomingMessage, response: ServerResponse): Promise<void> {
  let bodyText: string;
  try {
    bodyText = await readBody(request);
  } catch (error) {
    if (error instanceof BodyTooLarge) send(response, problemReply(new HttpProblem(413, 'Payload Too Large'), 'platform'));
    else response.destroy();
    return;
  }
  const url = new URL(request.url ?? '/', 'http://emulator.invalid');
  const method = (request.method ?? 'GET').toUpperCase();
  if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
    send(response, control(parts, method, url.pathname, bodyText));
    return;
  }
  if (parts.latencyMs > 0) await delay(parts.latencyMs);

  const match = parts.router.match(method, url.pathname);
  const template = match.kind === 'route' ? match.route.template : match.kind === 'method-not-allowed' ? match.template : null;
  const isWrite = WRITE_METHODS.has(method) && !(match.kind === 'route' && match.route.readOnly === true);
  const writeNumber = parts.stats.recordRequest(`${method} ${template ?? '<unknown>'}`, method, isWrite);
  const fault = parts.faults.take({ method, path: url.pathname, template, writeNumber });
  if (fault !== undefined) parts.stats.recordFault();
  if (fault !== undefined && fault !== 'drop-after-commit') noteContract(parts, method, url, bodyText, undefined);
  if (fault === 'reset') {
    request.socket.resetAndDestroy();
    return;
  }
  if (fault === '500') {
    const reply = problemReply(new HttpProblem(500, 'Internal Server Error (injected fault)'), errorStyleOf(match));
    parts.stats.recordStatus(reply.status);
    send(response, reply);
    return;
  }
  const reply = answer(parts, request, method, url, match, bodyText);
  noteContract(parts, method, url, bodyText, fault === undefined ? reply : undefined);
  if (fault === 'drop-after-commit') {
    // The write has been carried out (and saved); the client never hears about it.
    request.socket.destroy();
    return;
  }
  parts.stats.recordStatus(reply.status);
  send(response, reply);
}

/** Notes the exchange against the vendor contract, when asked to (the answer only when one was sent whole). */
function noteContract(parts: ServerParts, method: string, url: URL, bodyText: string, reply: Reply | undefined): void {
  if (parts.contract === undefined) return;
  let body: unknown;
  try {
    body = bodyText.trim() === '' ? undefined : JSON.parse(bodyText);
  } catch {
    body = bodyText;
  }
  // Checking is a test's concern: a fault in it is noted as a misfit, never answered as a 500.
  parts.contract.note({ method, path: url.pathname, query: url.searchParams, body }, reply);
}

/** A node:http server answering like the platform API (not yet listening). */
export function createEmulatorServer(parts: ServerParts): Server {
  return createServer((request, response) => {
    handle(parts, request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, problemReply(error, 'platform'));
      else response.destroy();
    });
  });
}
