// The build step's standalone plan validator (scripts/precompile-schema.mjs), which `apply FILE`
// runs without loading ajv's compiler, judges plan files exactly as the validator compiled at run
// time does, and is tied to the schema it came from.
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { planSchema, standalonePlanValidator } from '../../src/engine/planSchema.js';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

type Validate = ((value: unknown) => boolean) & { errors?: unknown[] | null };

/** Loads the generated module from a temporary folder (its requires pointed at this checkout's node_modules). */
function loadStandalone(): { plan: Validate; schemaDigest: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'steward-plan-validator-')), 'planValidator.cjs');
  writeFileSync(file, standalonePlanValidator().replace(/require\("(ajv|ajv-formats)\//g, (_whole, name: string) => `require(${JSON.stringify(NODE_MODULES)}+"${name}/`));
  return createRequire(import.meta.url)(file);
}

const BASE = { formatVersion: 1, stewardVersion: '0.1.0', environment: 'production', baseUrl: 'https://acme.example.com', configDigest: 'sha256:0', createdAt: '2026-01-01T00:00:00.000Z', kinds: ['labels'], summary: { create: 1, update: 1, replace: 0, delete: 1 }, warnings: [], requests: 2 };
const STEP = { kind: 'labels', dependsOn: [], ref: {} };
const STEPS = [
  { ...STEP, id: 'labels/a', key: 'a', action: 'create', after: { name: 'a' } },
  { ...STEP, id: 'labels/b', key: 'b', action: 'update', before: { color: '#000000' }, after: { color: '#ffffff' }, fields: [{ path: 'color', before: '#000000', after: '#ffffff' }] },
  { ...STEP, id: 'labels/c', key: 'c', action: 'delete', before: { name: 'c' } },
];

/** A well-formed plan and edits of it, each wrong in one way or several. */
const PLANS: unknown[] = [
  { ...BASE, steps: STEPS },
  { ...BASE, kinds: ['labels', 'bogus', 'labels'], steps: STEPS },
  { ...BASE, createdAt: 'yesterday', steps: STEPS },
  { ...BASE, steps: [{ ...STEPS[0], kind: 'bogus', before: null }, { ...STEPS[1], fields: undefined, ref: { id: 3 } }, 'x', { ...STEPS[2], action: undefined }] },
  { ...BASE, steps: [{ ...STEPS[1], fields: [{ before: 1 }], dependsOn: 'labels/a' }] },
  null,
  [],
];

describe('the precompiled plan validator', () => {
  it('gives the same verdict and errors as the run-time compiler', () => {
    const standalone = loadStandalone();
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
    formatsModule.default(ajv);
    const compiled = ajv.compile(planSchema());
    const verdicts = PLANS.map((plan) => {
      const value = JSON.parse(JSON.stringify(plan)) as unknown;
      expect(standalone.plan(value)).toBe(compiled(value));
      expect(standalone.plan.errors ?? null).toEqual(compiled.errors ?? null);
      return compiled(value);
    });
    expect(verdicts).toEqual([true, false, false, false, false, false, false]);
  });

  it('carries the digest of the schema it was made from', () => {
    expect(loadStandalone().schemaDigest).toMatch(/^[0-9a-f]{64}$/);
  });
});
