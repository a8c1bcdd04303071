// The build step's standalone validators (scripts/precompile-schema.mjs) judge every fixture
// exactly as the validators compiled at run time do, and are tied to the schema they came from.
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configSchema, standaloneValidators } from '../../src/config/schema.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

/** Loads the generated module from a temporary folder (its requires pointed at this checkout's ajv). */
function loadStandalone(): Record<string, ((value: unknown) => boolean) & { errors?: unknown[] | null }> & { schemaDigest: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'steward-validators-')), 'schemaValidators.cjs');
  writeFileSync(file, standaloneValidators().replaceAll('require("ajv/', `require(${JSON.stringify(NODE_MODULES)}+"ajv/`));
  return createRequire(import.meta.url)(file);
}

/** Every YAML document the fixtures hold that parses. */
function fixtureValues(): unknown[] {
  const values: unknown[] = [];
  for (const fixture of readdirSync(FIXTURES)) {
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ya?ml$/.test(entry.name)) {
          try {
            values.push(parse(readFileSync(path, 'utf8'), { logLevel: 'error' }));
          } catch {
            // syntax fixtures: nothing for the schema to judge
          }
        }
      }
    };
    walk(join(FIXTURES, fixture));
  }
  return values;
}

describe('precompiled config validators', () => {
  it('give the same verdict and errors as the run-time compiler on every fixture', () => {
    const standalone = loadStandalone();
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true, discriminator: true });
    ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
    const compiled = ajv.compile(configSchema());
    const values = fixtureValues();
    expect(values.length).toBeGreaterThan(100);
    for (const value of values) {
      expect(standalone.written!(value)).toBe(compiled(value));
      expect(standalone.written!.errors ?? null).toEqual(compiled.errors ?? null);
    }
  });

  it('carry the digest of the schema they were made from', () => {
    expect(loadStandalone().schemaDigest).toMatch(/^[0-9a-f]{64}$/);
  });
});
