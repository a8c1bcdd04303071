// The published JSON Schema of the plan (schemas/plan.schema.json), for teams that run their own
// policy engines on `steward plan --json`. It is versioned with PLAN_FORMAT_VERSION; this module
// reads it and checks a plan against it (the tests check every plan the end-to-end suite makes).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of the plan JSON Schema. */
export const PLAN_SCHEMA_FILE = fileURLToPath(new URL('../../schemas/plan.schema.json', import.meta.url));

const addFormats = formatsModule.default;
let validator: ValidateFunction | undefined;

/** The plan schema as parsed JSON. */
export function planSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(PLAN_SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
}

/** Where `plan` (parsed JSON) misfits the schema, one line per problem (`/steps/3/after: must be object`); empty when it fits. */
export function planSchemaErrors(plan: unknown): string[] {
  if (validator === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    validator = ajv.compile(planSchema());
  }
  if (validator(plan)) return [];
  return (validator.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'}: ${error.message ?? 'does not fit'}${error.params && 'allowedValues' in error.params ? ` (${(error.params.allowedValues as unknown[]).join(', ')})` : ''}`);
}
