// What a request handler sees and returns. Kept apart from the server so area modules depend
// only on this small surface, not on sockets, stats or faults.
import type { KeyScope, OrgRole } from '../api/types.js';
import type { ErrorStyle, Reply } from './http.js';
import type { EmulatorKnobs } from './profiles.js';
import type { EmulatorState, StoredApiToken, StoredUser } from './state.js';

/** Who is calling: the bearer token resolved (auth.ts). */
export interface Caller {
  token: StoredApiToken;
  keyScope: KeyScope;
  /** The key's role for organization keys, the user's role for user-scoped tokens. */
  orgRole: OrgRole;
  /** The user the token belongs to; for an organization key, the user who created it. */
  creator: StoredUser;
  /**
   * The user the caller acts for when a request names none: a personal token's user; for an
   * organization key, its creator when `orgKeyUser` is `creator`, otherwise nobody.
   */
  user: StoredUser | null;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods that change state: they are counted as writes and persisted when they succeed. */
export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type { RoutineUpdateMethod } from './profiles.js';

export interface RequestContext {
  method: HttpMethod;
  /** Path parameters, URL-decoded, by template name (`routineId`, `name`, ...). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body of a write; undefined when the request had none. */
  body: unknown;
  caller: Caller;
  /** The live state; handlers change it in place (the server rolls back on a thrown error). */
  state: EmulatorState;
  now: Date;
  /** `http://host:port` of this emulator, for URLs in bodies. */
  origin: string;
  /** How this emulator answers the open points of gaps.md. */
  knobs: EmulatorKnobs;
  /**
   * A value derived from the state, computed once until the state next changes (the sorted
   * records of a listing, shared by its pages); computed afresh within a write. Never changed
   * by its caller.
   */
  memo<T>(name: string, compute: () => T): T;
}

export type Handler = (context: RequestContext) => Reply;

export interface Route {
  method: HttpMethod;
  /** Path template with `{param}` segments, e.g. `/api/v1/labels/{name}`. */
  template: string;
  handler: Handler;
  /** Error body style; `platform` unless stated. */
  errorStyle?: ErrorStyle;
  /** Literal segments match regardless of case (SCIM resource names). */
  caseInsensitive?: boolean;
  /** A POST that changes nothing (the credit usage read): counted as a read, run outside a transaction. */
  readOnly?: boolean;
}
