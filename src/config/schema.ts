// Structural validation against schemas/steward.schema.json (the file editors use too, which
// `npm run generate` assembles from the kinds' declarations): compiles it with ajv (draft
// 2020-12) and turns ajv's errors into one finding per problem, with the path of the offending
// value, a readable message and a "did you mean" hint for misspelt keys.
import type { Ajv2020, AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { holdsReference, isPolicyPath } from './interpolate.js';
import { formatPath, pathKey, pointerToPath, type PositionTarget } from './positions.js';
import { isSecretKey } from './secrets.js';
import { closest, didYouMean, listNames } from './suggest.js';
import type { ConfigPath } from './types.js';

/** Absolute path of the JSON Schema file. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schemas/steward.schema.json', import.meta.url));

const REFERENCE_DEF = '#/$defs/reference';

/** One structural problem, before it is given a source position. */
export interface SchemaFinding {
  code: string;
  path: ConfigPath;
  /** Whether the position is the key (unknown key, invalid name) or the value. */
  target: PositionTarget;
  /** The value being described, e.g. `` `creditControls.shutoffCredits` ``. */
  subject: string;
  /** What the value must be, e.g. `must be a number ≥ 0 or null`. */
  expectation: string;
  /** How the actual value reads, e.g. `-5`; absent when it must not be shown or is not helpful. */
  found?: string;
  hint?: string;
  /** For an unknown key: the allowed key it is probably a misspelling of. */
  intended?: string;
  /** For a missing key: its name. */
  missing?: string;
}

/** A finding as one sentence. */
export function findingMessage(finding: SchemaFinding): string {
  return `${finding.subject} ${finding.expectation}${finding.found === undefined ? '' : `, found ${finding.found}`}`;
}

let schemaText: string | undefined;
let schemaCache: AnySchemaObject | undefined;
const validators = new Map<'written' | 'resolved', ValidateFunction>();

/** The parsed JSON Schema of one configuration file. */
export function configSchema(): AnySchemaObject {
  schemaText ??= readFileSync(SCHEMA_FILE, 'utf8');
  schemaCache ??= JSON.parse(schemaText) as AnySchemaObject;
  return schemaCache;
}

/** The validators precompiled at build time (scripts/precompile-schema.mjs), beside this file in dist/. */
const PRECOMPILED_FILE = fileURLToPath(new URL('./schemaValidators.cjs', import.meta.url));

const AJV_OPTIONS = { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true, discriminator: true } as const;

function newAjv(source: boolean): Ajv2020 {
  // Loaded only when a validator is compiled: importing ajv is most of the cost of starting.
  const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv({ ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}

/** The sha256 of the schema file: the precompiled validators are used only for this exact schema. */
function schemaDigest(): string {
  configSchema();
  return createHash('sha256').update(schemaText!).digest('hex');
}

/**
 * The standalone code (CommonJS) of both validators, for the build step; it records the
 * schema's digest, so a module built from another schema is never used.
 */
export function standaloneValidators(): string {
  const ajv = newAjv(true);
  ajv.addSchema(configSchema(), 'written');
  ajv.addSchema(withoutReferences(configSchema()), 'resolved');
  const { default: standalone } = createRequire(import.meta.url)('ajv/dist/standalone/index.js') as { default: (ajv: Ajv2020, refs: Record<string, string>) => string };
  return `${standalone(ajv, { written: 'written', resolved: 'resolved' })}\nexports.schemaDigest = ${JSON.stringify(schemaDigest())};\n`;
}

function precompiled(variant: 'written' | 'resolved'): ValidateFunction | undefined {
  try {
    const module = createRequire(import.meta.url)(PRECOMPILED_FILE) as Record<string, ValidateFunction> & { schemaDigest?: string };
    return module.schemaDigest === schemaDigest() ? module[variant] : undefined;
  } catch {
    return undefined; // not built (tests run the sources): compiled below
  }
}

/**
 * The compiled validator. `written` accepts `${…}` references wherever a value is not text;
 * `resolved` is the same schema without them, for values after interpolation.
 */
function validator(variant: 'written' | 'resolved'): ValidateFunction {
  let validate = validators.get(variant);
  if (validate === undefined) {
    const schema = variant === 'written' ? configSchema() : withoutReferences(configSchema());
    validate = precompiled(variant) ?? newAjv(false).compile(schema);
    validators.set(variant, validate);
  }
  return validate;
}

function withoutReferences(schema: AnySchemaObject): AnySchemaObject {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (node === null || typeof node !== 'object') return node;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      copy[key] = key === 'anyOf' && Array.isArray(child) ? child.filter((branch) => (branch as { $ref?: string }).$ref !== REFERENCE_DEF).map(strip) : strip(child);
    }
    return copy;
  };
  const stripped = strip(schema) as AnySchemaObject;
  stripped.$id = `${String(schema.$id)}:resolved`;
  return stripped;
}

/**
 * Validates one file's value (or, with `resolved`, a merged value after interpolation) and
 * returns every structural problem, one per offending value.
 */
export function checkSchema(value: unknown, variant: 'written' | 'resolved' = 'written'): SchemaFinding[] {
  return findingsOf(validator(variant), value, configSchema());
}

/**
 * Validates against another schema, as checkSchema does against the one steward ships: a test's,
 * assembled with a kind of its own (config/assembleSchema.ts).
 */
export function checkSchemaWith(schema: AnySchemaObject): (value: unknown) => SchemaFinding[] {
  const validate = newAjv(false).compile(schema);
  return (value) => findingsOf(validate, value, schema);
}

function findingsOf(validate: ValidateFunction, value: unknown, schema: AnySchemaObject): SchemaFinding[] {
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  const combinators = errors.filter((error) => (error.keyword === 'anyOf' || error.keyword === 'oneOf') && messageOf(error) !== undefined);
  // A failed anyOf/oneOf with its own message replaces the errors of its branches, including
  // those of branches that are `$ref`s (ajv reports those under the referenced definition).
  const covered = (error: ErrorObject) =>
    combinators.some((combinator) => {
      if (combinator === error) return false;
      if (error.instancePath !== combinator.instancePath && !error.instancePath.startsWith(`${combinator.instancePath}/`)) return false;
      const branches = ((combinator.parentSchema as AnySchemaObject)[combinator.keyword] as AnySchemaObject[] | undefined) ?? [];
      const prefixes = [`${combinator.schemaPath}/`, ...branches.flatMap((branch) => (typeof branch.$ref === 'string' ? [`${branch.$ref}/`] : []))];
      return prefixes.some((prefix) => error.schemaPath.startsWith(prefix));
    });
  const findings: SchemaFinding[] = [];
  const referencesInPolicies = new Set<string>();
  for (const error of errors) {
    if (covered(error)) continue;
    const finding = toFinding(error, value, schema);
    if (finding === undefined) continue;
    // A reference in a list of domains fails both the list's type and the item's pattern: one finding.
    if (finding.code === 'policies.reference') {
      if (referencesInPolicies.has(pathKey(finding.path))) continue;
      referencesInPolicies.add(pathKey(finding.path));
    }
    findings.push(finding);
  }
  // `tokenENV:` is one mistake: the unknown key says "did you mean `tokenEnv`?", so the missing
  // `tokenEnv` is not reported again.
  const misspelt = new Set(findings.filter((finding) => finding.code === 'schema.unknownKey' && finding.intended !== undefined).map((finding) => pathKey([...finding.path.slice(0, -1), finding.intended!])));
  return findings.filter((finding) => finding.code !== 'schema.required' || finding.missing === undefined || !misspelt.has(pathKey([...finding.path, finding.missing])));
}

function messageOf(error: ErrorObject): string | undefined {
  const message = (error.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage;
  return typeof message === 'string' ? message : undefined;
}

function toFinding(error: ErrorObject, root: unknown, schema: AnySchemaObject): SchemaFinding | undefined {
  const path = pointerToPath(error.instancePath, root);
  const actual = valueAt(root, path);
  const subject = subjectOf(path);
  const found = describeValue(actual, path);
  const parent = error.parentSchema as AnySchemaObject | undefined;
  if (typeof actual === 'string' && holdsReference(actual) && underPolicies(path)) return policyReferenceFinding(path);
  switch (error.keyword) {
    case 'if':
    case 'propertyNames':
      return undefined;
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      if (isSecretKey(key)) return undefined; // reported as a literal secret
      const allowed = Object.keys((parent?.properties as Record<string, unknown> | undefined) ?? {});
      const intended = closest(key, allowed);
      return {
        code: 'schema.unknownKey',
        path: [...path, key],
        target: 'key',
        subject: key === '' ? 'a key without a name' : `unknown key \`${key}\``,
        expectation: path.length === 0 ? 'at the top level' : `in ${subject}`,
        hint: intended !== undefined ? `did you mean \`${intended}\`?` : (misplacedKeyHint(key, schema) ?? `allowed keys: ${listNames(allowed)}`),
        ...(intended === undefined ? {} : { intended }),
      };
    }
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      return {
        code: 'schema.required',
        path,
        target: 'key',
        subject: path.length === 0 ? 'the file' : subject,
        expectation: `is missing the required key \`${missing}\``,
        missing,
        ...(missing === 'version' && path.length === 0 ? { hint: 'every configuration file starts with `version: 1`' } : {}),
      };
    }
    case 'type': {
      const expected = ([] as string[]).concat((error.params as { type: string | string[] }).type);
      return {
        code: 'schema.type',
        path,
        target: 'value',
        subject: path.length === 0 ? 'the file' : subject,
        expectation: messageOf(error) ?? `must be ${expected.map(typeName).join(' or ')}`,
        ...(found === undefined ? {} : { found }),
        ...(expected.includes('string') && typeof actual === 'number' ? { hint: 'quote the value to keep it as text' } : {}),
        ...(expected.includes('boolean') ? booleanWordHint(actual) : {}),
      };
    }
    case 'const':
    case 'enum': {
      const allowed = error.keyword === 'const' ? [(error.params as { allowedValue: unknown }).allowedValue] : (error.params as { allowedValues: unknown[] }).allowedValues;
      return enumFinding(path, subject, allowed, actual, found);
    }
    case 'discriminator': {
      const params = error.params as { error: 'tag' | 'mapping'; tag: string; tagValue?: unknown };
      if (params.tagValue === undefined) return undefined; // the `required` error says it
      const tagPath = [...path, params.tag];
      const branches = (parent?.oneOf as AnySchemaObject[] | undefined) ?? [];
      const allowed = branches.map((branch) => tagOf(branch, schema)).filter((tag): tag is string => tag !== undefined);
      return enumFinding(tagPath, subjectOf(tagPath), allowed, params.tagValue, describeValue(params.tagValue, tagPath));
    }
    case 'anyOf':
    case 'oneOf':
      return {
        code: 'schema.value',
        path,
        target: 'value',
        subject,
        expectation: messageOf(error) ?? 'does not match any allowed form',
        ...(found === undefined || typeof actual === 'object' ? {} : { found }),
        ...combinatorHint(parent, actual, error),
      };
    case 'pattern': {
      if (error.propertyName !== undefined) {
        const nameOf = path[path.length - 1] === 'variables' ? 'variable name' : path.length === 1 && path[0] === 'environments' ? 'environment name' : 'name';
        return {
          code: 'schema.value',
          path: [...path, error.propertyName],
          target: 'key',
          subject: `${nameOf} \`${error.propertyName}\``,
          expectation: messageOf(error) ?? `must match ${String((error.params as { pattern: string }).pattern)}`,
        };
      }
      if (isTokenEnv(path)) return undefined; // the literal-secret check explains it without echoing the value
      return {
        code: 'schema.value',
        path,
        target: 'value',
        subject,
        expectation: messageOf(error) ?? `must match \`${String((error.params as { pattern: string }).pattern)}\``,
        ...(found === undefined ? {} : { found }),
        ...(path.at(-2) === 'recipientDomains' ? domainHint(actual) : {}),
      };
    }
    case 'minLength':
      return { code: 'schema.value', path, target: 'value', subject, expectation: 'must not be empty' };
    default:
      return { code: 'schema.value', path, target: 'value', subject, expectation: error.message ?? 'is invalid', ...(found === undefined ? {} : { found }) };
  }
}

function underPolicies(path: ConfigPath): boolean {
  return path.some((_, index) => isPolicyPath(path.slice(0, index + 1)));
}

/** A `${…}` under policies, which are never interpolated (see isPolicyPath). */
function policyReferenceFinding(path: ConfigPath): SchemaFinding {
  const perEnvironment = path[0] === 'environments';
  return {
    code: 'policies.reference',
    path,
    target: 'value',
    subject: 'references',
    expectation: perEnvironment ? 'are not allowed in policies' : 'are not allowed in policies (they are the same for every environment)',
    hint: perEnvironment
      ? `write the value itself: \`${formatPath(path.slice(0, 3))}\` already holds this environment's own rules`
      : 'to set a rule for one environment, write it under `environments.NAME.policies`',
  };
}

function enumFinding(path: ConfigPath, subject: string, allowed: unknown[], actual: unknown, found: string | undefined): SchemaFinding {
  const names = allowed.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  const hint = typeof actual === 'string' ? didYouMean(actual, names) : undefined;
  return {
    code: 'schema.enum',
    path,
    target: 'value',
    subject,
    expectation: allowed.length === 1 ? `must be ${names[0]}` : `must be one of ${listNames(names, 'or')}`,
    ...(found === undefined ? {} : { found }),
    ...(hint === undefined ? {} : { hint }),
  };
}

function combinatorHint(parent: AnySchemaObject | undefined, actual: unknown, error: ErrorObject): { hint?: string } {
  if (typeof actual !== 'string') return {};
  const branches = ((parent?.[error.keyword] as AnySchemaObject[] | undefined) ?? []).filter((branch) => typeof branch.const === 'string');
  const suggestion = didYouMean(actual, branches.map((branch) => branch.const as string));
  if (suggestion !== undefined) return { hint: suggestion };
  if (actual.includes('${')) return { hint: 'a reference must be the whole value, like `${var.NAME}`' };
  if (/^-?\d+(\.\d+)?$/.test(actual.trim())) return { hint: 'write numbers without quotes' };
  if (/^(true|false)$/i.test(actual.trim())) return { hint: 'write true or false without quotes' };
  const allowsBoolean = ((parent?.[error.keyword] as AnySchemaObject[] | undefined) ?? []).some((branch) => branch.type === 'boolean' || branch.$ref === '#/$defs/boolean');
  return allowsBoolean ? booleanWordHint(actual) : {};
}

// YAML 1.2 reads `yes`, `no`, `on` and `off` as text, where YAML 1.1 (and many tools) read true or false.
function booleanWordHint(actual: unknown): { hint?: string } {
  if (typeof actual !== 'string' || !/^(yes|no|on|off|y|n)$/i.test(actual)) return {};
  const meant = /^(yes|on|y)$/i.test(actual) ? 'true' : 'false';
  return { hint: `YAML reads \`${actual}\` as text: write \`${meant}\`` };
}

// `https://acme.example` or `ops@acme.example` where the rule wants the domain alone.
function domainHint(actual: unknown): { hint?: string } {
  if (typeof actual !== 'string') return {};
  const domain = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/:?#]+)/i.exec(actual)?.[1] ?? /^[^@\s]*@([^@\s]+)$/.exec(actual)?.[1];
  return domain !== undefined && domain !== actual ? { hint: `write the domain alone: \`${domain}\`` } : {};
}

function tagOf(branch: AnySchemaObject, schema: AnySchemaObject): string | undefined {
  const ref = branch.$ref as string | undefined;
  if (ref === undefined) return undefined;
  const name = ref.replace('#/$defs/', '');
  const target = (schema.$defs as Record<string, AnySchemaObject>)[name];
  const tag = (target?.properties as Record<string, AnySchemaObject> | undefined)?.type?.const;
  return typeof tag === 'string' ? tag : undefined;
}

// Top-level keys that belong one level down, e.g. `shutoffCredits:` written at the top level.
function misplacedKeyHint(key: string, schema: AnySchemaObject): string | undefined {
  for (const [section, sectionSchema] of Object.entries(schema.properties as Record<string, AnySchemaObject>)) {
    const inner = (sectionSchema.properties as Record<string, unknown> | undefined) ?? {};
    // Own keys only: `constructor` or `toString` is in every object.
    if (Object.hasOwn(inner, key)) return `\`${key}\` belongs under \`${section}\``;
  }
  return undefined;
}

function isTokenEnv(path: ConfigPath): boolean {
  return path.length === 3 && path[0] === 'environments' && path[2] === 'tokenEnv';
}

function subjectOf(path: ConfigPath): string {
  return path.length === 0 ? 'the file' : `\`${formatPath(path)}\``;
}

function typeName(type: string): string {
  return (
    { object: 'a map', array: 'a list', string: 'a string', number: 'a number', integer: 'a whole number', boolean: 'true or false', null: 'null' }[type] ?? type
  );
}

/** How a value reads in a message; undefined for values that must not be echoed. */
export function describeValue(value: unknown, path: ConfigPath): string | undefined {
  if (isTokenEnv(path)) return undefined;
  if (value === undefined) return undefined;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return String(value);
}

function valueAt(root: unknown, path: ConfigPath): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
