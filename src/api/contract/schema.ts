// Builders for the JSON Schemas of the vendor contract. They write what the vendor's files state,
// nothing more: a field is required where the vendor lists it as required, nullable where it says
// so. A request body is closed (no other keys) where the vendor says so, and open where it does
// not say (the contract test still holds steward to the documented keys of every body); every
// response object is closed: the contract test holds the emulator to exactly the documented
// fields. The client does not read with these schemas (src/api/shapes.ts is its tolerant reader).
// They are built with the typed builders of ../../typedSchema.ts, so the bodies steward sends take
// their types from the contract (`Static<typeof routineCreate>`, named in ../types.ts): a body
// with a field the vendor does not document, or of another type, does not compile.
import { arrayOf, mapOf, objectOf, oneOf, scalar, type Fields, type Schema, type Typed } from '../../typedSchema.js';

export { arrayOf, mapOf, oneOf, type Schema };

export const string = (extra: Schema = {}) => scalar('string', extra);
export const uuid = scalar('string', { format: 'uuid' });
export const boolean = scalar('boolean');
export const integer = (extra: Schema = {}) => scalar('integer', extra);
export const number = (extra: Schema = {}) => scalar('number', extra);
/** Anything at all (a field whose shape the vendor leaves open). */
export const anything: Typed<unknown> = {};
/** Only `true` (a flag that is sent set or not at all). */
export const onlyTrue: Typed<true> = { type: 'boolean', enum: [true] };

/** `schema` or null. */
export function nullable<T>(schema: Typed<T>): Typed<T | null> {
  return { anyOf: [schema, { type: 'null' }] };
}

/** One of these schemas. */
export function either<A, B>(first: Typed<A>, second: Typed<B>): Typed<A | B> {
  return { oneOf: [first, second] };
}

/**
 * An object: `required` lists the keys the vendor requires; `open` allows keys it does not list
 * (request bodies whose `additionalProperties` the vendor leaves unstated); `minProperties` asks
 * for at least that many keys.
 */
export function object<F extends Fields, const R extends keyof F & string = never>(
  properties: F,
  required: readonly R[] = [],
  options: { open?: boolean; minProperties?: number } = {},
) {
  const { open, minProperties } = options;
  return objectOf(properties, required, { ...(open === true ? {} : { additionalProperties: false }), ...(minProperties === undefined ? {} : { minProperties }) });
}

/** An object whose every listed key is required. */
export function fullObject<F extends Fields>(properties: F) {
  return object(properties, Object.keys(properties) as (keyof F & string)[]);
}

/** A comma-separated list of these values, as a query parameter. */
export function commaList(values: readonly string[]) {
  const one = values.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return scalar('string', { pattern: `^(${one})(,(${one}))*$` });
}

/** `PageInfo` of cursor-paginated lists (nothing required by the vendor). */
export const pageInfo = object({
  hasNextPage: boolean,
  nextCursor: nullable(string()),
  pageSize: integer(),
  totalRecords: integer(),
});

/** A cursor-paginated list of `record`: `{pageInfo, records}`, both required. */
export function cursorList<T>(record: Typed<T>) {
  return object({ pageInfo, records: arrayOf(record) }, ['pageInfo', 'records']);
}

/** A SCIM ListResponse of `resource` (nothing required by the vendor). */
export function scimList<T>(resource: Typed<T>) {
  return object({
    Resources: arrayOf(resource),
    schemas: arrayOf(string()),
    itemsPerPage: integer(),
    totalResults: integer(),
    startIndex: integer(),
  });
}

/**
 * The two error bodies the vendor documents: `ApiError4xx` `{detail, status}` (both required) and
 * `Error` `{error, message}` (nothing required; its examples hold either). SCIM errors carry their
 * `schemas` too, and other keys are allowed: some of the vendor's own examples add `title`. A body
 * with none of the four keys is no error body.
 */
export const errorBody = objectOf({ detail: string(), status: integer(), error: string(), message: string() }, undefined, {
  anyOf: [{ required: ['detail', 'status'] }, { required: ['error'] }, { required: ['message'] }],
});
