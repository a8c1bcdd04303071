// The published JSON Schema of the plan (schemas/plan.schema.json), for teams that run their own
// policy engines on `steward plan --json`, and the structure `steward apply FILE` holds a plan file
// to before it reads anything of it. It is versioned with PLAN_FORMAT_VERSION and generated from
// the plan's one declaration (model/planFormat.ts, by `npm run generate`); this module reads the
// file, so it checks a plan against what is published (the tests check every plan the end-to-end
// suite makes), and a built steward neither builds the declaration nor compiles it.
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

/**
 * What is wrong with a plan file's structure, one sentence per problem, naming each step by its
 * index and id (`steps[2] (labels/finance): before must be an object, found null`); empty when
 * it fits the schema. Only problems in the document itself: the plan's meaning is judged later.
 */
export function planStructureProblems(plan: unknown): string[] {
  const errors = schemaErrors(plan);
  // A value of the wrong type is that, whatever else its schema asks of it; an `if` that matched
  // says only that its `then` failed, which the `then`'s own error says better.
  const mistyped = new Set(errors.filter((error) => error.keyword === 'type').map((error) => error.instancePath));
  const told = errors.filter((error) => error.keyword !== 'if' && (error.keyword === 'type' || !mistyped.has(error.instancePath)));
  const problems = told.map((error) => problemOf(error, plan));
  return [...new Set(problems)];
}

/** One ajv error as a sentence about the value it concerns. */
function problemOf(error: ErrorObject, plan: unknown): string {
  const segments = error.instancePath.split('/').slice(1).map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const { subject, field } = subjectOf(segments, plan);
  const value = valueAt(plan, segments);
  const found = (expectation: string) => `${field === '' ? 'it' : field} must be ${expectation}, found ${shown(value)}`;
  const params = error.params as Record<string, unknown>;
  const sentence = ((): string => {
    switch (error.keyword) {
      case 'required': {
        const missing = `${field === '' ? '' : `${field}.`}${String(params.missingProperty)}`;
        const action = actionOf(segments, plan);
        // Required by the step's action (`allOf/n/then`): say which action needs it.
        return /\/then\/required$/.test(error.schemaPath) && action !== undefined ? `${article(action)} ${action} step must have ${missing}` : `${missing} is missing`;
      }
      case 'not': {
        // The schema's only `not`s: what a create or a delete step never holds.
        const action = actionOf(segments, plan);
        if (action === 'create') return 'a create step must have neither before nor fields';
        if (action === 'delete') return 'a delete step must have neither after nor fields';
        return `${field === '' ? 'it' : field} ${error.message ?? 'does not fit the plan schema'}`;
      }
      case 'type':
        return found(typeName(String(params.type)));
      case 'enum':
        return found(`one of ${(params.allowedValues as unknown[]).join(', ')}`);
      case 'const':
        return found(JSON.stringify(params.allowedValue));
      case 'minLength':
        return `${field === '' ? 'it' : field} must not be empty`;
      case 'minimum':
        return found(`at least ${String(params.limit)}`);
      case 'uniqueItems':
        return `${field} lists ${shown(Array.isArray(value) ? value[Number(params.j)] : undefined)} twice`;
      case 'format':
        return found(`a ${String(params.format)} (ISO-8601)`);
      case 'pattern':
        return found(`of the form ${String(params.pattern)}`);
      default:
        return `${field === '' ? 'it' : field} ${error.message ?? 'does not fit the plan schema'}`;
    }
  })();
  return subject === '' ? sentence : `${subject}: ${sentence}`;
}

/**
 * Whom a value belongs to and its name there: a step's members are named within the step
 * (`steps[2] (labels/finance)`, `fields[0].path`), anything else by its dotted path (`kinds[1]`).
 */
function subjectOf(segments: readonly string[], plan: unknown): { subject: string; field: string } {
  if (segments[0] === 'steps' && segments.length >= 2) {
    const id = valueAt(plan, [...segments.slice(0, 2), 'id']);
    const subject = `steps[${segments[1]}]${typeof id === 'string' && id !== '' ? ` (${id})` : ''}`;
    return { subject, field: dotted(segments.slice(2)) };
  }
  return { subject: '', field: dotted(segments) };
}

function dotted(segments: readonly string[]): string {
  return segments.map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : `${index === 0 ? '' : '.'}${segment}`)).join('');
}

function actionOf(segments: readonly string[], plan: unknown): string | undefined {
  if (segments[0] !== 'steps' || segments.length !== 2) return undefined;
  const action = valueAt(plan, [...segments, 'action']);
  return typeof action === 'string' ? action : undefined;
}

function valueAt(value: unknown, segments: readonly string[]): unknown {
  let at = value;
  for (const segment of segments) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[segment];
  }
  return at;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function typeName(type: string): string {
  return type === 'object' || type === 'array' || type === 'integer' ? `${article(type)} ${type}` : type === 'string' ? 'a string' : type;
}

/** A found value, short: JSON, cut past 40 characters; `an object`/`an array` rather than their contents. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
