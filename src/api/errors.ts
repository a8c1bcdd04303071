// One error type for everything that can go wrong talking to the platform: HTTP errors in
// either body form, non-JSON pages, empty bodies, network failures and lost POST outcomes.

import { STATUS_CODES } from 'node:http';
import { StewardError, type Fault } from '../errors.js';
import type { Redactor } from './log.js';

/** What was being done when a request failed: names used in messages, stats and logs. */
export interface RequestContext {
  method: string;
  /** Route template, e.g. `PATCH /api/v1/ai/routines/{routineId}`. */
  route: string;
  /** Human description, e.g. `listing routines`. */
  operation: string;
  /** The ids the request names (path parameters, `userId` and other id query keys). */
  subjects?: readonly string[];
  /** A POST that only reads (the credit usage): retried, paced and judged like a GET, never a write. */
  readOnly?: boolean;
}

interface ApiErrorInit extends RequestContext {
  code: string;
  /** What failed, without the outcome: the message is this, told unknown where the outcome is. */
  summary: string;
  /** Said after the outcome (a retry count, a note). */
  note?: string;
  fault: Fault;
  status: number | undefined;
  serverMessage: string | undefined;
  serverCode?: string | undefined;
  outcomeUnknown?: boolean;
  retries?: number;
  hint?: string | undefined;
  cause?: unknown;
  /** No connection was made: the server was not reached at all. */
  unreached?: boolean;
}

/** A failed API request; carries no header, token or request body. */
export class ApiError extends StewardError {
  override readonly name: string = 'ApiError';
  /** HTTP status; undefined for network errors and lost responses. */
  readonly status: number | undefined;
  readonly method: string;
  readonly route: string;
  readonly operation: string;
  /** The server's own words (`detail` or `message`), redacted. */
  readonly serverMessage: string | undefined;
  /** The `error` code of the error-form body, when there is one. */
  readonly serverCode: string | undefined;
  /** A write whose response was lost: read back before trying again. */
  readonly outcomeUnknown: boolean;
  /** How many retries were spent before giving up. */
  readonly retries: number;
  /** No connection was made (refused, unreachable): the server was not reached at all. */
  readonly unreached: boolean;
  /** The ids the request named (a 404's subject is among them). */
  readonly subjects: readonly string[];

  /** What failed, without the clause that the outcome is unknown (for a caller that says more). */
  readonly summary: string;

  constructor(init: ApiErrorInit) {
    const note = init.note === undefined ? '' : ` (${init.note})`;
    super(init.code, `${init.summary}${init.outcomeUnknown === true ? OUTCOME_UNKNOWN : ''}${note}`, init.fault, {
      ...(init.cause === undefined ? {} : { cause: init.cause }),
      ...(init.hint === undefined ? {} : { hint: init.hint }),
    });
    this.status = init.status;
    this.method = init.method;
    this.route = init.route;
    this.operation = init.operation;
    this.serverMessage = init.serverMessage;
    this.serverCode = init.serverCode;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.retries = init.retries ?? 0;
    this.unreached = init.unreached ?? false;
    this.subjects = init.subjects ?? [];
    this.summary = `${init.summary}${note}`;
  }
}

/** How a message says that a write may have been carried out. */
export const OUTCOME_UNKNOWN = '; the outcome is unknown (the server may have applied the change), read back before retrying';

/** The standard reason phrase of a status, or `HTTP <status>`. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? `HTTP ${status}`;
}

function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'api.bad-request';
    case 401:
      return 'api.unauthorized';
    case 403:
      return 'api.forbidden';
    case 404:
      return 'api.not-found';
    case 405:
      return 'api.method-not-allowed';
    case 409:
      return 'api.conflict';
    case 429:
      return 'api.rate-limited';
    default:
      return status >= 500 ? 'api.server-error' : 'api.client-error';
  }
}

function hintForStatus(status: number): string | undefined {
  switch (status) {
    case 401:
      return 'Check that the API token is valid, not revoked, and belongs to this instance.';
    case 403:
      return 'The API key lacks a permission this operation needs (many need an Organization Admin key or an organization API key).';
    case 429:
      return 'The platform allows about 60 requests per minute per API key; lower the requests-per-minute budget or try again later.';
    default:
      return undefined;
  }
}

/** 4xx answers to what was sent are the user's to fix; the rest are the server's. */
function faultForStatus(status: number): Fault {
  if (status >= 400 && status < 500 && status !== 405 && status !== 408 && status !== 429) return 'user';
  return 'server';
}

const MAX_SERVER_MESSAGE = 500;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_SERVER_MESSAGE ? `${oneLine.slice(0, MAX_SERVER_MESSAGE)}…` : oneLine;
}

function stringField(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * Extracts the server's words and error code from an error body of any form: detail form
 * `{detail, status}`, error form `{error, message}`, JSON of another shape, an HTML page (its
 * title), short plain text, or nothing. Never throws.
 */
export function readErrorBody(
  text: string,
  contentType: string | null,
): { serverMessage: string | undefined; serverCode: string | undefined } {
  const trimmed = text.trim();
  if (trimmed === '') return { serverMessage: undefined, serverCode: undefined };
  if (trimmed.startsWith('{') || (contentType ?? '').includes('json')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const body = parsed as Record<string, unknown>;
        const serverCode = stringField(body, 'error');
        const words = stringField(body, 'detail') ?? stringField(body, 'message') ?? serverCode;
        return { serverMessage: words === undefined ? undefined : clip(words), serverCode };
      }
      if (typeof parsed === 'string' && parsed.trim() !== '') {
        return { serverMessage: clip(parsed), serverCode: undefined };
      }
      return { serverMessage: undefined, serverCode: undefined };
    } catch {
      // Not JSON after all: fall through to the text forms.
    }
  }
  if (/^<(!doctype|html|\?xml)/i.test(trimmed) || (contentType ?? '').includes('html')) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1];
    return { serverMessage: title === undefined || title.trim() === '' ? undefined : clip(title), serverCode: undefined };
  }
  const firstLine = trimmed.split(/\r?\n/, 1)[0] ?? '';
  return { serverMessage: clip(firstLine), serverCode: undefined };
}

/** Builds the ApiError of an HTTP error response; every string is redacted. */
export function apiErrorFromResponse(
  context: RequestContext,
  response: { status: number; text: string; contentType: string | null },
  redactor: Redactor,
  extra: { outcomeUnknown?: boolean; retries?: number; note?: string } = {},
): ApiError {
  const { status } = response;
  const body = readErrorBody(response.text, response.contentType);
  const serverMessage = body.serverMessage === undefined ? undefined : redactor.redact(body.serverMessage);
  const serverCode = body.serverCode === undefined ? undefined : redactor.redact(body.serverCode);
  const words = serverMessage ?? statusText(status);
  const outcomeUnknown = extra.outcomeUnknown ?? false;
  // An HTML title such as "502 Bad Gateway" already starts with the status.
  const statusAndWords = words.startsWith(`${status} `) ? words : `${status} ${words}`;
  return new ApiError({
    ...context,
    code: outcomeUnknown ? 'api.outcome-unknown' : codeForStatus(status),
    summary: redactor.redact(`${context.operation}: ${statusAndWords}`),
    ...(extra.note === undefined ? {} : { note: redactor.redact(extra.note) }),
    fault: outcomeUnknown ? 'server' : faultForStatus(status),
    status,
    serverMessage,
    serverCode,
    outcomeUnknown,
    retries: extra.retries ?? 0,
    hint: outcomeUnknown ? undefined : hintForStatus(status),
  });
}

/**
 * True when a 429's words name a maximum (a quota such as "User has reached the maximum of 100
 * routines") rather than a request rate: waiting does not lift a quota, so it is not retried.
 * Words that ask to come back later ("try again shortly") make it a rate limit, quota or not.
 */
export function namesQuota(serverMessage: string | undefined): boolean {
  if (serverMessage === undefined) return false;
  if (/rate.?limit|requests? (per|a|each) (second|minute|hour)|too many requests|per minute|per second/i.test(serverMessage)) return false;
  if (/\btry (it )?again\b|\bretry\b|\bslow down\b|\btemporar/i.test(serverMessage)) return false;
  return /\bmaximum\b|\bquota\b|\blimit of \d|\bat most \d|\bmax(imum)? (number )?of \d|\bno more than \d/i.test(serverMessage);
}

/** Builds the final error of a 429 that names a quota: the user's to resolve, not retried. */
export function quotaError(
  context: RequestContext,
  response: { text: string; contentType: string | null },
  redactor: Redactor,
): ApiError {
  const body = readErrorBody(response.text, response.contentType);
  const serverMessage = body.serverMessage === undefined ? undefined : redactor.redact(body.serverMessage);
  const serverCode = body.serverCode === undefined ? undefined : redactor.redact(body.serverCode);
  return new ApiError({
    ...context,
    code: 'api.quota',
    summary: redactor.redact(`${context.operation}: 429 ${serverMessage ?? 'quota reached'} (a quota of the account, not a rate limit: not retried)`),
    fault: 'user',
    status: 429,
    serverMessage,
    serverCode,
    hint: 'Waiting does not lift a quota: remove or pause objects the quota counts, or ask the platform to raise it.',
  });
}

/** A failure with no HTTP response: refused connection, reset, timeout, DNS. */
export interface NetworkFailure {
  /**
   * `ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT`, `ETIMEDOUT` for our own timeout, `EBODYCUT` for a
   * body that ended before it was complete, ...
   */
  code: string;
  /** Redacted description. */
  detail: string;
  /** True when the request certainly never reached the server (connection not made). */
  notSent: boolean;
  /** True when trying again cannot help (unknown host, rejected certificate, closed client). */
  permanent: boolean;
  /** A sanitized copy of the underlying error (redacted messages, no request objects). */
  cause: Error;
}

/** Builds the ApiError of a network failure; outcomeUnknown for a write that may have landed. */
export function apiErrorFromNetwork(
  context: RequestContext,
  failure: NetworkFailure,
  redactor: Redactor,
  extra: { outcomeUnknown?: boolean; retries?: number; note?: string } = {},
): ApiError {
  const outcomeUnknown = extra.outcomeUnknown ?? false;
  // A silent server and a cut body are told as what they are, naming the endpoint; undici's
  // own codes stay in the cause.
  const special = SPECIAL_NETWORK_FAILURES[failure.code];
  const summary =
    special === undefined ? `${context.operation}: network error (${failure.detail})` : `${context.operation}: ${context.route}: ${failure.detail}`;
  return new ApiError({
    ...context,
    code: outcomeUnknown ? 'api.outcome-unknown' : (special?.code ?? 'api.network'),
    summary: redactor.redact(summary),
    ...(extra.note === undefined ? {} : { note: redactor.redact(extra.note) }),
    fault: 'server',
    status: undefined,
    serverMessage: undefined,
    outcomeUnknown,
    retries: extra.retries ?? 0,
    hint: outcomeUnknown ? undefined : (special?.hint ?? 'Check the base URL and the network path to the instance.'),
    cause: failure.cause,
    unreached: failure.notSent,
  });
}

const SPECIAL_NETWORK_FAILURES: Record<string, { code: string; hint: string } | undefined> = {
  ETIMEDOUT: {
    code: 'api.timeout',
    hint: 'The server accepted the connection but did not answer in time; check the instance, or raise --request-timeout.',
  },
  EBODYCUT: {
    code: 'api.truncated-response',
    hint: 'The connection broke while the answer was being sent; a proxy or the server closed it early. Try again.',
  },
};

function hasStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}

/** True for an ApiError with status 404. */
export function isNotFound(error: unknown): boolean {
  return hasStatus(error, 404);
}
/** True for an ApiError with status 409. */
export function isConflict(error: unknown): boolean {
  return hasStatus(error, 409);
}
/** True for an ApiError with status 405 (e.g. a server that updates routines by PUT only). */
export function isMethodNotAllowed(error: unknown): boolean {
  return hasStatus(error, 405);
}
/** True for an ApiError with status 403. */
export function isForbidden(error: unknown): boolean {
  return hasStatus(error, 403);
}
/** True for an ApiError with status 401. */
export function isUnauthorized(error: unknown): boolean {
  return hasStatus(error, 401);
}
/** True for an ApiError with status 429 (retries exhausted). */
export function isRateLimited(error: unknown): boolean {
  return hasStatus(error, 429);
}
/** True when a write may or may not have been applied: the caller must read back. */
export function isOutcomeUnknown(error: unknown): error is ApiError & { readonly outcomeUnknown: true } {
  return error instanceof ApiError && error.outcomeUnknown;
}
