// The published JSON Schema of the plan (schemas/plan.schema.json), for teams that run their own
// policy engines on `steward plan --json`. It is versioned with PLAN_FORMAT_VERSION; this module
// reads it and checks a plan against it (the tests check every plan the end-to-end suite makes).
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Absolute path of the plan JSON Schema. */
export const PLAN_SCHEMA_FILE = fileURLToPath(new URL('../../schemas/plan.schema.json', import.meta.url));

/** The validator precompiled at build time (scripts/precompile-schema.mjs), beside this file in dist/. */
const PRECOMPILED_FILE = fileURLToPath(new URL('./planValidator.cjs', import.meta.url));

const AJV_OPTIONS = { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true } as const;

let schemaText: string | undefined;
let validator: ValidateFunction | undefined;

/** The plan schema as parsed JSON. */
export function planSchema(): Record<string, unknown> {
  schemaText ??= readFileSync(PLAN_SCHEMA_FILE, 'utf8');
  return JSON.parse(schemaText) as Record<string, unknown>;
}

function newAjv(source: boolean): Ajv2020 {
  // Loaded only when the schema is compiled: `apply FILE` of a built steward never imports ajv.
  const require = createRequire(import.meta.url);
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const { default: addFormats } = require('ajv-formats') as { default: typeof import('ajv-formats').default };
  const ajv = new Ajv({ ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  return ajv;
}

/** The sha256 of the schema file: the precompiled validator is used only for this exact schema. */
function schemaDigest(): string {
  planSchema();
  return createHash('sha256').update(schemaText!).digest('hex');
}

/** The standalone code (CommonJS) of the plan's validator, for the build step; it records the schema's digest. */
export function standalonePlanValidator(): string {
  const ajv = newAjv(true);
  ajv.addSchema(planSchema(), 'plan');
  const { default: standalone } = createRequire(import.meta.url)('ajv/dist/standalone/index.js') as { default: (ajv: Ajv2020, refs: Record<string, string>) => string };
  return `${standalone(ajv, { plan: 'plan' })}\nexports.schemaDigest = ${JSON.stringify(schemaDigest())};\n`;
}

function precompiled(): ValidateFunction | undefined {
  try {
    const module = createRequire(import.meta.url)(PRECOMPILED_FILE) as { plan?: ValidateFunction; schemaDigest?: string };
    return module.schemaDigest === schemaDigest() ? module.plan : undefined;
  } catch {
    return undefined; // not built (tests run the sources): compiled below
  }
}

/** The ajv errors of `plan` (parsed JSON) against the schema; empty when it fits. */
function schemaErrors(plan: unknown): ErrorObject[] {
  validator ??= precompiled() ?? newAjv(false).compile(planSchema());
  return validator(plan) ? [] : (validator.errors ?? []);
}

/** Where `plan` (parsed JSON) misfits the schema, one line per problem (`/steps/3/after: must be object`); empty when it fits. */
export function planSchemaErrors(plan: unknown): string[] {
  return schemaErrors(plan).map((error) => `${error.instancePath || '/'}: ${error.message ?? 'does not fit'}${error.params && 'allowedValues' in error.params ? ` (${(error.params.allowedValues as unknown[]).join(', ')})` : ''}`);
}
