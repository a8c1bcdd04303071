// Checks one request, and one response, against the contract. A request fits when some operation
// at its method and path that the caller allows (the documented one, or a variant the server in
// question serves) takes its path parameters, query keys and body; a response fits when its
// status is the operation's documented success and its body the documented one, or an error in one
// of the vendor's two error forms. Every misfit is one sentence naming the operation.
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { operationsAt, pathParameters, undocumentedBodyKeys } from './index.js';
import { errorBody, type Schema } from './schema.js';
import type { Operation } from './types.js';

/** A request as sent: the path without its query, the query, and the parsed JSON body (undefined: none). */
export interface ContractRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface ContractResponse {
  status: number;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
}

export interface RequestVerdict {
  /** The operation the request fits, or the documented one it was held to. */
  operation: Operation | undefined;
  /** Empty when the request fits. */
  misfits: string[];
}

function newAjv(options: Record<string, unknown> = {}): Ajv2020 {
  const require = createRequire(import.meta.url);
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
  // strictRequired off: the error forms require keys declared beside their anyOf, not in it.
  return addFormats(new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, ...options }));
}

/** One compiler and its compiled schemas; loaded on first use (only the emulator and tests check). */
class Compiler {
  private ajv: Ajv2020 | undefined;
  private readonly compiled = new WeakMap<Schema, ValidateFunction>();
  constructor(private readonly options: Record<string, unknown> = {}) {}

  of(schema: Schema): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      validate = (this.ajv ??= newAjv(this.options)).compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}

const exact = new Compiler();
/** Query values arrive as text: numbers and booleans are read from it before they are checked. */
const fromText = new Compiler({ coerceTypes: true });
/** One query schema per operation, so each is compiled once. */
const querySchemas = new WeakMap<Operation, Schema>();

function querySchema(operation: Operation): Schema {
  let schema = querySchemas.get(operation);
  if (schema === undefined) {
    schema = { type: 'object', properties: { ...(operation.query ?? {}) } };
    querySchemas.set(operation, schema);
  }
  return schema;
}

/** The first few ajv errors as one phrase. */
function describe(errors: readonly ErrorObject[] | null | undefined, what: string): string[] {
  const phrases = (errors ?? []).slice(0, 3).map((error) => {
    const at = error.instancePath === '' ? what : `${what} ${error.instancePath.slice(1).replace(/\//g, '.')}`;
    if (error.keyword === 'additionalProperties') return `${at} has the undocumented key ${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)}`;
    if (error.keyword === 'required') return `${at} lacks ${JSON.stringify((error.params as { missingProperty: string }).missingProperty)}`;
    return `${at} ${error.message ?? 'does not fit'}`;
  });
  return [...new Set(phrases)];
}

/** How a request misfits one operation (empty when it fits). */
function requestMisfits(operation: Operation, request: ContractRequest): string[] {
  const misfits: string[] = [];
  const parameters = pathParameters(operation.path, request.path);
  for (const [name, value] of Object.entries(parameters)) {
    const schema = operation.params?.[name];
    if (value === undefined) misfits.push(`path parameter ${name} is not valid URL encoding`);
    else if (schema !== undefined && !exact.of(schema)(value)) misfits.push(...describe(exact.of(schema).errors, `path parameter ${name}`));
  }
  const documented = operation.query ?? {};
  const query: Record<string, string> = {};
  for (const [key, value] of request.query) {
    if (!(key in documented)) misfits.push(`query key ${JSON.stringify(key)} is not documented`);
    else query[key] = value;
  }
  const checkQuery = fromText.of(querySchema(operation));
  if (!checkQuery(query)) misfits.push(...describe(checkQuery.errors, 'query'));
  if (operation.body === undefined) {
    if (request.body !== undefined) misfits.push('a body is sent, but the operation takes none');
  } else if (request.body === undefined) {
    misfits.push('no body is sent');
  } else {
    if (!exact.of(operation.body)(request.body)) misfits.push(...describe(exact.of(operation.body).errors, 'body'));
    // Where the vendor leaves other keys unstated the body is open, but steward sends only keys it
    // documents (a closed body's schema has said so already).
    if (operation.body.additionalProperties !== false) {
      misfits.push(...undocumentedBodyKeys(operation, request.body).map((key) => `body has the undocumented key ${JSON.stringify(key)}`));
    }
  }
  return misfits;
}

/**
 * The operation a request fits among those at its method and path that `allowed` admits (the
 * documented one first); otherwise how it misfits the documented one (or the first allowed).
 */
export function checkRequest(request: ContractRequest, allowed: (operation: Operation) => boolean): RequestVerdict {
  const candidates = operationsAt(request.method, request.path);
  const admitted = candidates.filter((candidate) => candidate.variant === undefined || allowed(candidate));
  const name = `${request.method} ${request.path}`;
  if (admitted.length === 0) {
    const variant = candidates[0]?.variant;
    const misfit = variant === undefined ? `${name} is no operation the vendor documents` : `${name} is not documented by the vendor; only a variant has it (${variant.note})`;
    return { operation: undefined, misfits: [misfit] };
  }
  let first: string[] | undefined;
  for (const candidate of admitted) {
    const misfits = requestMisfits(candidate, request);
    if (misfits.length === 0) return { operation: candidate, misfits: [] };
    first ??= misfits;
  }
  return { operation: admitted[0], misfits: (first ?? []).map((misfit) => `${admitted[0]!.id} (${name}): ${misfit}`) };
}

/** How a response misfits what `operation` documents (empty when it fits). */
export function checkResponse(operation: Operation, response: ContractResponse): string[] {
  const where = `${operation.id} answered ${response.status}`;
  if (response.status >= 400) {
    const fits = exact.of(errorBody)(response.body);
    return fits ? [] : [`${where} with a body in neither error form of the vendor`];
  }
  if (response.status !== operation.success.status) return [`${operation.id} answered ${response.status}; the vendor documents ${operation.success.status}`];
  const schema = operation.success.body;
  if (schema === null) return response.body === undefined ? [] : [`${where} with a body; the vendor documents none`];
  const validate = exact.of(schema);
  return validate(response.body) ? [] : describe(validate.errors, `${where}: the body`);
}
