// Reading a seed: the file (YAML or JSON) and its structural check with ajv against the seed's
// declaration (seedSchema.ts), reported as one readable line per problem. The check compiles the
// declaration itself, not schemas/emulator-seed.schema.json written from it: so the schema checked
// is always the one the types are read off, even in a checkout whose file is not yet regenerated.
// Start-up does not notice: importing the declaration takes about 5 ms where reading and parsing
// the file took under 1, and compiling either takes some 300 (built emulator, medians of 31 runs).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { StewardError } from '../errors.js';
import { SEED_SCHEMA } from './seedSchema.js';
import type { Seed } from './seedTypes.js';

/** Absolute path of the seed JSON Schema as published (`npm run generate` writes it), for editors and messages. */
export const SEED_SCHEMA_FILE = fileURLToPath(new URL('../../schemas/emulator-seed.schema.json', import.meta.url));

const addFormats = formatsModule.default;
let validator: ValidateFunction | undefined;

function compiled(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    validator = ajv.compile(SEED_SCHEMA);
  }
  return validator;
}

/** Reads a seed file as YAML (JSON is YAML too); throws a StewardError when unreadable. */
export function readSeedFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StewardError(
      code === 'ENOENT' ? 'emulator.seed.not-found' : 'emulator.seed.unreadable',
      code === 'ENOENT' ? `seed file ${path} does not exist` : `cannot read seed file ${path}: ${(error as Error).message}`,
      'user',
    );
  }
  try {
    return path.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text, { logLevel: 'error' });
  } catch (error) {
    throw new StewardError('emulator.seed.unreadable', `seed file ${path} is not valid YAML or JSON: ${(error as Error).message}`, 'user');
  }
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? '(top level)' : error.instancePath;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at}: unknown field \`${String(error.params.additionalProperty)}\``;
    case 'required':
      return `${at}: missing required field \`${String(error.params.missingProperty)}\``;
    case 'enum':
      return `${at}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'false schema':
      return at.endsWith('/role')
        ? `${at}: is only allowed for organization keys (user-scoped tokens carry their user's role)`
        : `${at}: is not allowed here`;
    default:
      return `${at}: ${error.message ?? 'is invalid'}`;
  }
}

/** Checks a parsed seed against the JSON Schema; throws one StewardError listing every problem. */
export function checkSeedShape(data: unknown, source: string): asserts data is Seed {
  const validate = compiled();
  if (validate(data)) return;
  // `if` only says that a `then`/`else` branch failed; that branch's own errors say why.
  const problems = [...new Set((validate.errors ?? []).filter((e) => e.keyword !== 'if').map(describe))];
  throw invalidSeed(source, problems);
}

/** The error for a seed with problems, one per line. */
export function invalidSeed(source: string, problems: string[]): StewardError {
  return new StewardError(
    'emulator.seed.invalid',
    `seed ${source} is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    'user',
    { hint: `the seed format is described by ${SEED_SCHEMA_FILE} and in docs/emulator.md (Seed files)` },
  );
}
