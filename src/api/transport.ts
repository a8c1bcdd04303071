// One HTTP attempt over the client's own connection pool. Requests go through the global
// `fetch` with an undici `Agent` as dispatcher: the agent gives keep-alive and timeouts, and
// the global `fetch` is what test interceptors (nock) hook, so tests exercise this exact path.

import { createRequire } from 'node:module';
// The Agent as Node's fetch types its dispatcher (undici-types, the typings of the undici bundled
// with Node): the installed undici's Agent implements that interface, but its own typings differ
// from Node's in unrelated places (FormData), so it is typed here as what it is used as.
import type { Agent } from 'undici-types';
import type { NetworkFailure } from './errors.js';
import type { Redactor } from './log.js';

export interface TransportOptions {
  /** Connect, headers and body timeout, and the cap on one whole attempt. */
  timeoutMs: number;
  /** Most sockets kept open to the instance. */
  connections: number;
}

/** What came back from one attempt that reached the server. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Failures that repeating cannot cure: an unknown host, a certificate the client rejects, a closed client. */
const PERMANENT_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'ECLOSED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** Failures that happen before a connection exists, so the request never reached the server. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** A request failure thrown by `Transport.send`; `failure` is already sanitized. */
export class TransportFailure extends Error {
  constructor(readonly failure: NetworkFailure) {
    super(failure.detail);
  }
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/** Rebuilds an error chain with only names, codes and redacted messages (at most 4 deep). */
function sanitize(error: unknown, redactor: Redactor, depth = 0): Error {
  const message = field(error, 'message');
  const copy = new Error(redactor.redact(typeof message === 'string' ? message : String(error)));
  const name = field(error, 'name');
  if (typeof name === 'string') copy.name = name;
  const code = field(error, 'code');
  if (typeof code === 'string') Object.assign(copy, { code });
  const cause = field(error, 'cause');
  if (cause !== undefined && depth < 3) {
    Object.defineProperty(copy, 'cause', { value: sanitize(cause, redactor, depth + 1), enumerable: false, configurable: true, writable: true });
  }
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/** Finds the most specific error code along an error's cause chain. */
function findCode(error: unknown): string | undefined {
  let current: unknown = error;
  let found: string | undefined;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const code = field(current, 'code');
    if (typeof code === 'string') found = code;
    current = field(current, 'cause');
  }
  return found;
}

function describeFailure(error: unknown, code: string | undefined): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const message = field(current, 'message');
    if (typeof message === 'string' && message !== '' && message !== 'fetch failed' && !parts.includes(message)) {
      parts.push(message);
    }
    current = field(current, 'cause');
  }
  const text = parts.join(': ') || 'request failed';
  return code === undefined || text.includes(code) ? text : `${code}: ${text}`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * undici's Agent, loaded with the first transport, not at start-up (`validate` never connects).
 * Only the agent's own module is required: undici's index also loads its fetch, WebSocket,
 * cache and mock modules, which steward does not use (the requests go through Node's fetch),
 * and that was most of a plan's start-up. The package's index is the fallback should a later
 * undici move the file.
 */
function agentClass(): typeof Agent {
  const require = createRequire(import.meta.url);
  try {
    const agent: unknown = require('undici/lib/dispatcher/agent.js');
    if (typeof agent === 'function') return agent as typeof Agent;
  } catch {
    // moved or renamed: the index has it
  }
  return (require('undici') as { Agent: typeof Agent }).Agent;
}

/** Sends requests to one origin over a keep-alive pool; close() tears the pool down. */
export class Transport {
  private readonly agent: Agent;
  private readonly closing = new AbortController();

  constructor(
    private readonly options: TransportOptions,
    private readonly redactor: Redactor,
  ) {
    const UndiciAgent = agentClass();
    this.agent = new UndiciAgent({
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connectTimeout: options.timeoutMs,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connections: options.connections,
    });
  }

  /**
   * Sends one attempt and reads the whole body. Throws TransportFailure (sanitized, with
   * `notSent` when no connection was made) for anything that did not produce a response; a
   * body that ends before it is complete is `EBODYCUT`, whatever undici called it.
   * `timeoutMs` shortens this attempt's cap (the rest of a request's time budget).
   */
  async send(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    timeoutMs = this.options.timeoutMs,
  ): Promise<RawResponse> {
    const capMs = Math.max(1, Math.ceil(Math.min(timeoutMs, this.options.timeoutMs)));
    const timeout = AbortSignal.timeout(capMs);
    const signal = AbortSignal.any([timeout, this.closing.signal]);
    let headersArrived = false;
    let announcedLength: string | null = null;
    try {
      const request: RequestInit = {
        method: init.method,
        headers: init.headers,
        body: init.body,
        redirect: 'manual',
        signal,
        dispatcher: this.agent,
      };
      const response = await fetch(url, request);
      headersArrived = true;
      const length = response.headers.get('content-length');
      announcedLength = length !== null && /^\d{1,15}$/.test(length.trim()) ? length.trim() : null;
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      let code = findCode(error);
      if (timeout.aborted) code = 'ETIMEDOUT';
      else if (this.closing.signal.aborted) code = 'ECLOSED';
      else if (headersArrived || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') code = 'EBODYCUT';
      const detail =
        code === 'ETIMEDOUT'
          ? `no complete response within ${formatDuration(capMs)}`
          : code === 'ECLOSED'
            ? 'the client was closed'
            : code === 'EBODYCUT'
              ? `the response body was cut short${announcedLength === null ? '' : ` (${announcedLength} bytes were announced)`}`
              : describeFailure(error, code);
      throw new TransportFailure({
        code: code ?? 'ENETWORK',
        detail: this.redactor.redact(detail),
        notSent: code !== undefined && NOT_SENT_CODES.has(code),
        // Errors without a system or undici code (a forbidden port, a header that cannot be
        // encoded) come from the request itself: trying again cannot help.
        permanent: code === undefined || PERMANENT_CODES.has(code),
        cause: sanitize(error, this.redactor),
      });
    }
  }

  /** Aborts attempts still running and closes every pooled connection. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.agent.close();
  }
}
