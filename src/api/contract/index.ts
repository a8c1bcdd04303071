// The vendor contract as data: every operation steward calls, with what may be sent and what comes
// back, each naming its sources. The client takes method and path from here, the emulator checks
// what it is sent and what it answers against it, and the contract test holds both to it.
import { contentOperations } from './content.js';
import { creditControlOperations } from './creditControls.js';
import { identityOperations } from './identity.js';
import { modelOperations } from './models.js';
import { routineOperations } from './routines.js';
import { SOURCES } from './sources.js';
import type { Operation } from './types.js';

export type { HttpMethod, Operation, Variant } from './types.js';
export { SOURCES } from './sources.js';

function registry(operations: readonly Operation[]): ReadonlyMap<string, Operation> {
  const byId = new Map<string, Operation>();
  for (const operation of operations) {
    if (byId.has(operation.id)) throw new Error(`the contract names operation ${operation.id} twice`);
    const unknown = operation.sources.find((source) => !(source in SOURCES));
    if (unknown !== undefined) throw new Error(`operation ${operation.id} cites an unknown source ${unknown}`);
    if ((operation.variant === undefined) === operation.id.includes('~')) throw new Error(`operation ${operation.id}: only a variant's id has a ~`);
    byId.set(operation.id, operation);
  }
  return byId;
}

const OPERATIONS = registry([...identityOperations, ...creditControlOperations, ...routineOperations, ...contentOperations, ...modelOperations]);

/**
 * The name of an operation; the client names a variant only where the environment or the live
 * state says the server has it (`routineUpdate: patch`, an instance that shows the entity-group
 * default).
 */
export type OperationId = string;

/** Every operation of the contract, variants included. */
export function contractOperations(): Operation[] {
  return [...OPERATIONS.values()];
}

/** The operation of this id; a programming error (thrown) when there is none. */
export function operation(id: OperationId): Operation {
  const found = OPERATIONS.get(id);
  if (found === undefined) throw new Error(`the contract has no operation ${id}`);
  return found;
}

function segments(path: string): string[] {
  return path.split('/').slice(1);
}

/** Whether `path` (as sent, without query) is an instance of `template`; parameters match any non-empty segment. */
export function pathMatches(template: string, path: string): boolean {
  const expected = segments(template);
  const actual = segments(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
  return expected.length === actual.length && expected.every((part, index) => (/^\{\w+\}$/.test(part) ? actual[index] !== '' : part === actual[index]));
}

/** The path parameters of `path` by the names of `template` (URL-decoded; undefined where undecodable). */
export function pathParameters(template: string, path: string): Record<string, string | undefined> {
  const actual = segments(path);
  const parameters: Record<string, string | undefined> = {};
  segments(template).forEach((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name === undefined) return;
    try {
      parameters[name] = decodeURIComponent(actual[index] ?? '');
    } catch {
      parameters[name] = undefined;
    }
  });
  return parameters;
}

/**
 * Top-level keys of `body` that the operation's body does not document, open or closed: steward
 * sends only documented keys, whatever a server would accept. Empty for a body that is no object.
 */
export function undocumentedBodyKeys(operation: Operation, body: unknown): string[] {
  const schema = operation.body;
  if (schema === undefined || typeof schema.properties !== 'object' || body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const documented = schema.properties as Record<string, unknown>;
  return Object.keys(body).filter((key) => !(key in documented));
}

/** The operations (documented first, then variants) at this method and path. */
export function operationsAt(method: string, path: string): Operation[] {
  const found = contractOperations().filter((candidate) => candidate.method === method && pathMatches(candidate.path, path));
  return [...found.filter((candidate) => candidate.variant === undefined), ...found.filter((candidate) => candidate.variant !== undefined)];
}
