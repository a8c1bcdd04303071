// Builders for the JSON Schemas of the vendor contract. They write what the vendor's files state,
// nothing more: a field is required where the vendor lists it as required, nullable where it says
// so. A request body is closed (no other keys) where the vendor says so, and open where it does
// not say (the contract test still holds steward to the documented keys of every body); every
// response object is closed: the contract test holds the emulator to exactly the documented
// fields. The client does not read with these schemas (src/api/shapes.ts is its tolerant reader).

export type Schema = Record<string, unknown>;

export const string = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const uuid: Schema = { type: 'string', format: 'uuid' };
export const boolean: Schema = { type: 'boolean' };
export const integer = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const number = (extra: Schema = {}): Schema => ({ type: 'number', ...extra });
export const oneOf = (...values: string[]): Schema => ({ type: 'string', enum: values });
export const arrayOf = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
/** Anything at all (a field whose shape the vendor leaves open). */
export const anything: Schema = {};

/** `schema` or null. */
export function nullable(schema: Schema): Schema {
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * An object: `required` lists the keys the vendor requires; `open` allows keys it does not list
 * (request bodies whose `additionalProperties` the vendor leaves unstated).
 */
export function object(properties: Record<string, Schema>, required: readonly string[] = [], options: { open?: boolean } = {}): Schema {
  return { type: 'object', properties, required: [...required], ...(options.open === true ? {} : { additionalProperties: false }) };
}

/** An object whose every listed key is required. */
export function fullObject(properties: Record<string, Schema>): Schema {
  return object(properties, Object.keys(properties));
}

/** A map from keys the server chooses to values of one shape. */
export function mapOf(values: Schema): Schema {
  return { type: 'object', additionalProperties: values };
}

/** A comma-separated list of these values, as a query parameter. */
export function commaList(values: readonly string[]): Schema {
  const one = values.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return { type: 'string', pattern: `^(${one})(,(${one}))*$` };
}

/** `PageInfo` of cursor-paginated lists (nothing required by the vendor). */
export const pageInfo = object({
  hasNextPage: boolean,
  nextCursor: nullable(string()),
  pageSize: integer(),
  totalRecords: integer(),
});

/** A cursor-paginated list of `record`: `{pageInfo, records}`, both required. */
export function cursorList(record: Schema): Schema {
  return object({ pageInfo, records: arrayOf(record) }, ['pageInfo', 'records']);
}

/** A SCIM ListResponse of `resource` (nothing required by the vendor). */
export function scimList(resource: Schema): Schema {
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
export const errorBody: Schema = {
  type: 'object',
  properties: { detail: string(), status: integer(), error: string(), message: string() },
  anyOf: [{ required: ['detail', 'status'] }, { required: ['error'] }, { required: ['message'] }],
};
