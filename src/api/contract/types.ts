// One vendor operation steward calls, as data: what may be sent (path parameters, query keys, body)
// and what comes back (the success status and body), with the sources that say so. A variant is
// an answer the vendor's own documents do not give but another of its sources does (its generated
// client, its CLI's file) or that gaps.md settles by analogy: it is named, with its source, so the
// contract test can tell a deliberate difference from a mistake.
import type { Schema } from './schema.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A difference from the vendor's documents, on purpose. */
export interface Variant {
  /** What the difference follows: `generated-client`, `cli-openapi`, `guess`. */
  kind: 'generated-client' | 'cli-openapi' | 'guess';
  /** Which source (a tag of sources.ts) and what differs, in one sentence. */
  note: string;
}

export interface Operation {
  /** Stable name, e.g. `routines.update`; a variant's ends in `~kind`. */
  id: string;
  method: HttpMethod;
  /** From the origin, with `{name}` for path parameters: `/api/v1/ai/routines/{routineId}`. */
  path: string;
  /** Source tags (sources.ts) that state this operation as written here. */
  sources: readonly string[];
  /** Path parameters by name (the template's names). */
  params?: Readonly<Record<string, Schema>>;
  /** Every query key the vendor documents, with its schema; nothing else may be sent. */
  query?: Readonly<Record<string, Schema>>;
  /** The request body; absent = the operation takes none. */
  body?: Schema;
  /** The documented success: its status and body (null = no body). */
  success: { status: number; body: Schema | null };
  /** A POST that changes nothing (a read that takes a list of ids): clients and servers treat it as a read. */
  readOnly?: true;
  /** Present on a variant: what it differs by, and on whose word. */
  variant?: Variant;
}
