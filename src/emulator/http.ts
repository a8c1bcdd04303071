// How the emulator answers: replies, the error that handlers throw, and the two error body forms
// of api.md (detail form `{detail, status}`, which a 404 extends with `error`, and error form
// `{error, message}`), chosen per status by one rule so every endpoint answers alike.

import { STATUS_CODES } from 'node:http';

/** What a handler returns; the server serialises `body` as JSON (none for 204). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A JSON reply. */
export function json(body: unknown, status = 200): Reply {
  return { status, body };
}

/** A 204 reply without body. */
export function noContent(): Reply {
  return { status: 204 };
}

/** The reason phrase of a status. */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? `HTTP ${status}`;
}

/** An error answer; handlers throw it, the server turns it into the right body form. */
export class HttpProblem extends Error {
  override readonly name = 'HttpProblem';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400 with the api.md validation pattern `Bad Request: <field>: <reason>`. */
export function badRequest(field: string, reason: string): HttpProblem {
  return new HttpProblem(400, `Bad Request: ${field}: ${reason}`);
}

/** 403; `Insufficient permissions` unless a more specific api.md message applies. */
export function forbidden(message = 'Insufficient permissions'): HttpProblem {
  return new HttpProblem(403, message);
}

/** 404 with a `<thing> not found` message. */
export function notFound(message: string): HttpProblem {
  return new HttpProblem(404, message);
}

/** 409 with the given message. */
export function conflict(message: string): HttpProblem {
  return new HttpProblem(409, message);
}

/** The two error body forms of api.md, plus SCIM's (detail form with the SCIM error schema). */
export type ErrorStyle = 'platform' | 'scim';

const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/**
 * The body of an error answer. Platform endpoints answer 400, 404 and 429 in the detail form
 * and every other status in the error form (the rule api.md gives for routines, applied to all);
 * a 404 also carries `error` with the status text, as api.md's 404 example does. SCIM endpoints
 * answer in the SCIM error form.
 */
export function errorBody(status: number, message: string, style: ErrorStyle = 'platform'): Record<string, unknown> {
  if (style === 'scim') return { schemas: [SCIM_ERROR_SCHEMA], detail: message, status };
  if (status === 404) return { error: reasonPhrase(status), detail: message, status };
  if (status === 400 || status === 429) return { detail: message, status };
  return { error: reasonPhrase(status), message };
}
