// The emulator and the vendor contract (src/api/contract/): which of the contract's variants this
// emulator serves (by its knobs), the refusal of undocumented request keys that the vendor's
// servers answer, and, when asked, a record of every request and answer that misfits the contract.
import { checkRequest, checkResponse, type ContractRequest } from '../api/contract/check.js';
import { operationsAt, type Operation } from '../api/contract/index.js';
import type { Schema } from '../api/contract/schema.js';
import { HttpProblem, type Reply } from './http.js';
import type { EmulatorKnobs } from './profiles.js';

/** Whether this emulator serves a variant of the contract: each is served by the knob that makes it. */
export function servesVariant(knobs: EmulatorKnobs): (operation: Operation) => boolean {
  return (operation) => {
    switch (operation.id) {
      case 'whoami.get~guess':
        return knobs.orgKeyUser !== 'creator';
      case 'routines.update~generated-client':
        return knobs.routineUpdateMethod === 'patch';
      case 'creditControls.get~generated-client':
      case 'creditControls.update~generated-client':
        return knobs.entityGroupDefaultCredits;
      case 'documents.labels.update~cli-openapi':
        return knobs.documentLabelsPathId === 'identifier';
      default:
        return false;
    }
  };
}

/**
 * The keys of the object body the operation documents, open or closed: the vendor's servers refuse
 * keys they do not know (its documents list answers `Unrecognized key(s) in object` for a query
 * key), and a server this strict is the one that catches a client sending more than documented.
 * Undefined when the body is not an object of named keys.
 */
function documentedBodyKeys(operation: Operation): Set<string> | undefined {
  const body = operation.body as Schema | undefined;
  if (body === undefined || typeof body.properties !== 'object') return undefined;
  return new Set(Object.keys(body.properties as object));
}

/**
 * What the server does with request keys the contract does not document: `refuse` answers 400
 * `Bad Request: formErrors: Unrecognized key(s) in object: 'k'` (the vendor's words), naming every
 * such key of the query or the top-level body; `ignore` drops them from the body before the
 * handler sees it. Returns the body the handler gets.
 */
export function screenUnknownKeys(method: string, path: string, query: URLSearchParams, body: unknown, knobs: EmulatorKnobs): unknown {
  const serves = servesVariant(knobs);
  // Every operation served at this place: a key one of them documents is not unknown. SCIM
  // resource names are matched in any case, as the router does.
  const at = operationsAt(method, path);
  const variants = (at.length > 0 || !/^\/api\/scim\//i.test(path) ? at : operationsAt(method, path.toLowerCase())).filter((candidate) => candidate.variant === undefined || serves(candidate));
  if (variants.length === 0) return body;
  const queryKeys = new Set(variants.flatMap((candidate) => Object.keys(candidate.query ?? {})));
  const bodyKeys = variants.map(documentedBodyKeys);
  const allowedBody = bodyKeys.some((keys) => keys === undefined) ? undefined : new Set(bodyKeys.flatMap((keys) => [...(keys ?? [])]));
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  const unknownQuery = [...new Set(query.keys())].filter((key) => !queryKeys.has(key));
  const unknownBody = isObject && allowedBody !== undefined ? Object.keys(body as object).filter((key) => !allowedBody.has(key)) : [];
  if (knobs.unknownKeys === 'refuse') {
    const unknown = [...unknownQuery, ...unknownBody];
    if (unknown.length > 0) throw new HttpProblem(400, `Bad Request: formErrors: Unrecognized key(s) in object: ${unknown.map((key) => `'${key}'`).join(', ')}`);
    return body;
  }
  if (unknownBody.length === 0) return body;
  return Object.fromEntries(Object.entries(body as object).filter(([key]) => allowedBody!.has(key)));
}

/** Every misfit of the requests an emulator was sent and the answers it gave, as sentences. */
export class ContractRecord {
  private misfits: string[] = [];

  constructor(private readonly serves: (operation: Operation) => boolean) {}

  /** Checks one exchange; `reply` is undefined when the connection was cut (a fault), so only the request is checked. */
  note(request: ContractRequest, reply: Reply | undefined): void {
    try {
      this.check(request, reply);
    } catch (error) {
      this.misfits.push(`the contract check of ${request.method} ${request.path} failed: ${(error as Error).message}`);
    }
  }

  private check(request: ContractRequest, reply: Reply | undefined): void {
    const verdict = checkRequest(request, this.serves);
    this.misfits.push(...verdict.misfits);
    if (verdict.operation === undefined || reply === undefined || verdict.misfits.length > 0) return;
    // The body as a client reads it: JSON, without undefined members.
    const body = reply.body === undefined ? undefined : (JSON.parse(JSON.stringify(reply.body)) as unknown);
    const candidates = operationsAt(request.method, request.path).filter((candidate) => candidate.variant === undefined || this.serves(candidate));
    const answers = candidates.map((candidate) => checkResponse(candidate, { status: reply.status, body }));
    if (answers.some((misfits) => misfits.length === 0)) return;
    this.misfits.push(...(answers[0] ?? []));
  }

  /** The misfits noted since the last call, which are then forgotten. */
  take(): string[] {
    return this.misfits.splice(0);
  }
}
