// JSON Schemas that carry the type of the values they accept. A schema built here is a plain
// JSON Schema object, the one ajv compiles (and the build writes as standalone code); its
// TypeScript type also records what it accepts, which `Static<typeof schema>` reads. So a shape
// is declared once, as its schema, and its type follows from it: the two cannot drift. The file
// sits at the foot of src/, below every layer, so a shape is declared where its type lives: the
// wire shapes in api/, a week of runs and the exposure estimate in domain/, the plan in model/.
//
// These few builders rather than TypeBox, which works the same way (`Static<typeof T>`):
// - the schemas stay exactly as ajv wants them: nullable fields as `type: [..., 'null']` with
//   `default: null` (ajv fills defaults outside `anyOf` only, and a `type` misfit names the
//   wanted types, which the one-sentence misfits quote), a choice by `type` as if/then. TypeBox
//   writes a nullable field as `anyOf`, so most fields would have been `Type.Unsafe` anyway;
// - the type is what the code sees after the check: a field ajv fills with its default is
//   present, a field the check passes over is `unknown`;
// - nothing at run time: the builders are a few object literals, where importing
//   `@sinclair/typebox` 0.34 alone costs about as much again as starting node (238 ms against
//   `node -e 0`'s 126 ms, medians of 21 runs taken in turn), and every command that reads the API
//   builds these schemas; importing api/platform.js costs the same as before them.
// Types generated from the schemas instead would be a second file per shape, kept fresh by a
// build step and a staleness test; here the type checker does that work (measured: `npm run
// typecheck` takes the same CPU time as with the hand-written interfaces, within the noise).

/** The key under which a schema's type records what it accepts; it exists in TypeScript only. */
export declare const accepts: unique symbol;

/** A JSON Schema as ajv takes it. */
export type Schema = Record<string, unknown>;

/** A JSON Schema whose valid values are of type T (once ajv has filled in its defaults); T lives in TypeScript only. */
export type Typed<T> = Schema & { readonly [accepts]?: T };

/** The type of the values a schema accepts. */
export type Static<S> = S extends Typed<infer T> ? T : never;

/** The schemas of an object's fields, by name. */
export type Fields = Readonly<Record<string, Typed<unknown>>>;

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The object whose fields have the types of `F`; those named in `Optional` may be absent. */
export type ObjectOf<F extends Fields, Optional extends keyof F = never> = Flat<
  { -readonly [K in Exclude<keyof F, Optional>]: Static<F[K]> } & { -readonly [K in Optional]?: Static<F[K]> }
>;

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null';
type ValueOf<J> = J extends 'string' ? string : J extends 'number' | 'integer' ? number : J extends 'boolean' ? boolean : J extends 'null' ? null : never;

/** A scalar of one JSON type or several (`['string', 'null']`); `extra` holds its other keywords. */
export function scalar<const J extends JsonType | readonly JsonType[]>(type: J, extra: Schema = {}): Typed<ValueOf<J extends readonly JsonType[] ? J[number] : J>> {
  return { type, ...extra };
}

type JsonScalar = string | number | boolean | null;

/** One of these strings. */
export function oneOf<const V extends readonly string[]>(...values: V): Typed<V[number]> {
  return { type: 'string', enum: values };
}

/**
 * One of these values, by `enum` alone: a value of another type is then told as none of them,
 * with the list, where `oneOf` tells it as not a string.
 */
export function enumOf<const V extends readonly JsonScalar[]>(...values: V): Typed<V[number]> {
  return { enum: values };
}

/** Exactly this value. */
export function constant<const V extends JsonScalar>(value: V): Typed<V> {
  return { const: value };
}

/** `schema` with a description for people, written first, where a reader of the schema looks. */
export function described<T>(description: string, schema: Typed<T>): Typed<T> {
  return { description, ...schema };
}

/** A list of `items`; `extra` holds its other keywords (`default`, `maxItems`, ...). */
export function arrayOf<T>(items: Typed<T>, extra: Schema = {}): Typed<T[]> {
  return { type: 'array', items, ...extra };
}

/**
 * An object with the fields of `properties`, of which those in `required` must be there (none
 * without a list: then the schema has no `required`, else it is written before the fields, where a
 * reader of a written schema looks for it); `extra` holds its other keywords.
 */
export function objectOf<F extends Fields, const R extends keyof F & string = never>(properties: F, required?: readonly R[], extra: Schema = {}): Typed<ObjectOf<F, Exclude<keyof F, R>>> {
  return { type: 'object', ...(required === undefined ? {} : { required: [...required] }), properties, ...extra };
}

/** A map from keys the server chooses to values of one shape. */
export function mapOf<T>(values: Typed<T>): Typed<Record<string, T>> {
  return { type: 'object', additionalProperties: values };
}

/** The same schema for each of `keys`, as fields (in the order of `keys`). */
export function sameFor<const K extends string, S extends Typed<unknown>>(keys: readonly K[], schema: S): Record<K, S> {
  return Object.fromEntries(keys.map((key) => [key, schema])) as Record<K, S>;
}

/** One field named by a variable: `{[key]: schema}` with the key's type kept. */
export function field<const K extends string, S extends Typed<unknown>>(key: K, schema: S): Record<K, S> {
  return { [key]: schema } as Record<K, S>;
}

/**
 * A schema a document keeps once, under `$defs/<name>`: `ref` stands for it wherever it is used,
 * with its type. The document lists it among its `definitions`, else ajv refuses the `$ref`.
 */
export interface Definition<T> {
  readonly name: string;
  readonly schema: Typed<T>;
  readonly ref: Typed<T>;
}

/** `schema`, kept under `$defs/<name>`. */
export function definition<T>(name: string, schema: Typed<T>): Definition<T> {
  return { name, schema, ref: { $ref: `#/$defs/${name}` } };
}

/** A document's `$defs`, in the order given; a name given twice is refused, as it would hide one. */
export function definitions(...list: readonly Definition<unknown>[]): Record<string, Schema> {
  const byName: Record<string, Schema> = {};
  for (const { name, schema } of list) {
    if (name in byName) throw new Error(`the definition ${name} is given twice`);
    byName[name] = schema;
  }
  return byName;
}
