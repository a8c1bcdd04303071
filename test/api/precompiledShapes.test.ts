// The build step's standalone response validators (scripts/precompile-schema.mjs) judge every
// body exactly as the validators compiled at run time do: the same verdict, the same first error,
// and the same defaults filled in, for a valid body of every shape and for every way of breaking
// one of its fields; and they are tied to the shapes they came from.
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { shapeNames, shapeSchema, shapesDigest, standaloneShapeValidators, type ShapeName } from '../../src/api/shapes.js';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
type Validator = ((value: unknown) => boolean) & { errors?: unknown[] | null };
type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: string[]; minimum?: number; additionalProperties?: Schema };

/** Loads the generated module from a temporary folder (its requires pointed at this checkout's ajv). */
function loadStandalone(): Record<string, Validator> & { shapesDigest: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'steward-shapes-')), 'shapeValidators.cjs');
  writeFileSync(file, standaloneShapeValidators().replaceAll('require("ajv/', `require(${JSON.stringify(NODE_MODULES)}+"ajv/`));
  return createRequire(import.meta.url)(file);
}

/** A value that fits `schema`, every optional field present. */
function sample(schema: Schema): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((one) => one !== 'null') : schema.type;
  if (schema.enum !== undefined) return schema.enum[0];
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, field]) => [key, sample(field)]));
      if (schema.additionalProperties !== undefined) value.extra = sample(schema.additionalProperties);
      return value;
    }
    case 'array':
      return schema.items === undefined ? [] : [sample(schema.items), sample(schema.items)];
    case 'string':
      return 'id-1';
    case 'integer':
      return schema.minimum ?? 3;
    case 'number':
      return 2.5;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

const BREAKS: readonly (() => unknown)[] = [() => undefined, () => null, () => 7, () => 1.5, () => 'x', () => ' ', () => '', () => [], () => ({}), () => true];

/** The valid body and every body with one field (at any depth) removed or replaced by another kind of value. */
function bodies(schema: Schema): unknown[] {
  const valid = sample(schema);
  const out: unknown[] = [valid, undefined, null, [], 'text'];
  const visit = (value: unknown, rebuild: (replacement: unknown) => unknown) => {
    if (value === null || typeof value !== 'object') return;
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      const replaceChild = (replacement: unknown) => {
        const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
        if (replacement === undefined && !Array.isArray(copy)) delete copy[key];
        else (copy as Record<string, unknown>)[key] = replacement;
        return rebuild(copy);
      };
      for (const broken of BREAKS) out.push(replaceChild(broken()));
      visit(child, replaceChild);
    }
  };
  visit(valid, (replacement) => replacement);
  return out;
}

const SHAPE_NAMES = shapeNames();

describe('precompiled response validators', () => {
  it('cover every shape', () => {
    expect(SHAPE_NAMES.length).toBeGreaterThan(20);
    for (const name of SHAPE_NAMES) expect(shapeSchema(name)).toBeTypeOf('object');
  });

  it('give the same verdict, first error and filled-in defaults as the run-time compiler', () => {
    const standalone = loadStandalone();
    const ajv = new Ajv2020({ allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true, useDefaults: true, validateSchema: false });
    let checked = 0;
    for (const name of SHAPE_NAMES) {
      const compiled = ajv.compile(shapeSchema(name));
      for (const body of bodies(shapeSchema(name) as Schema)) {
        const ours = structuredClone(body);
        const theirs = structuredClone(body);
        expect(standalone[name]!(ours ?? null), name).toBe(compiled(theirs ?? null));
        expect(standalone[name]!.errors ?? null).toEqual(compiled.errors ?? null);
        expect(ours).toEqual(theirs);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('carry the digest of the shapes they were made from', () => {
    expect(loadStandalone().shapesDigest).toBe(shapesDigest());
  });
});
