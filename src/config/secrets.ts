// Literal secrets in configuration files: API tokens belong in environment variables, named by
// `tokenEnv`, never in a file that is committed. Findings here are rendered without the value.
import { locateInDocument, positionAt, rangeOf } from './positions.js';
import { isRecord, type ConfigSource } from './sources.js';
import { forEachInOrder } from './structure.js';
import type { Diagnostic, SourceLocation } from './types.js';
import { yaml } from './yamlLibrary.js';

/** Pattern of an environment variable name, which `tokenEnv` must be. */
export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** True for key names that hold secrets (`token`, `apiKey`, `client_secret`, `password`, …). */
export function isSecretKey(key: string): boolean {
  // A config of thousands of entries repeats a few dozen keys: each is judged once.
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    const normalized = key.toLowerCase().replace(/[-_ ]/g, '');
    secret = /(token|secret|password|passwd|apikey|credentials?|privatekey)$/.test(normalized) || normalized === 'authorization' || normalized === 'bearer';
    if (secretKeys.size < 10_000) secretKeys.set(key, secret);
  }
  return secret;
}

const secretKeys = new Map<string, boolean>();

/** Diagnostics codes whose source line must be shown with its value masked. */
export function isSecretDiagnostic(code: string): boolean {
  return code.startsWith('secret.');
}

/** Every secret-looking key in the file, and every `tokenEnv` that is not a variable name. */
export function checkSecrets(source: ConfigSource): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // A file whose key names are known and none looks secret has nothing to find by walking it.
  if (source.fast === undefined || [...source.fast.keys].some(isSecretKey)) keyFindings(source, diagnostics);
  const environments = isRecord(source.value) ? source.value.environments : undefined;
  if (isRecord(environments)) {
    for (const [name, environment] of Object.entries(environments)) {
      if (!isRecord(environment) || typeof environment.tokenEnv !== 'string' || ENV_VAR_NAME.test(environment.tokenEnv)) continue;
      diagnostics.push({
        severity: 'error',
        code: 'secret.tokenEnv',
        summary: `\`environments.${name}.tokenEnv\` must be the name of an environment variable (capital letters, digits and \`_\`), not a token`,
        hint: `for example \`tokenEnv: STEWARD_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_TOKEN\`, with the token in that variable`,
        location: locateInDocument(source, ['environments', name, 'tokenEnv']),
        ...secretValue(source, rangeOf(source.doc, ['environments', name, 'tokenEnv'])),
      });
    }
  }
  return diagnostics;
}

/** A `secret.key` finding for every key of the file that looks like a secret. */
function keyFindings(source: ConfigSource, diagnostics: Diagnostic[]): void {
  const { isPair, isScalar } = yaml();
  forEachInOrder(source.doc, (pair) => {
    if (!isPair(pair) || !isScalar(pair.key) || typeof pair.key.value !== 'string' || !isSecretKey(pair.key.value)) return;
    if (pair.key.range === undefined || pair.key.range === null) return;
    diagnostics.push({
      severity: 'error',
      code: 'secret.key',
      summary: `\`${pair.key.value}\` looks like a literal secret; API tokens never go into a configuration file`,
      hint: 'put the token in an environment variable and name that variable in the environment\'s `tokenEnv`',
      location: positionAt(source, pair.key.range[0]),
      ...secretValue(source, (pair.value as { range?: [number, number, number] | null } | null)?.range ?? undefined),
    });
  });
}

/** The `secretValue` of a finding about the value written at `range`, when it has one. */
function secretValue(source: ConfigSource, range: readonly number[] | undefined): { secretValue?: { start: SourceLocation; end: SourceLocation } } {
  if (range === undefined || range[1]! <= range[0]!) return {};
  return { secretValue: { start: positionAt(source, range[0]!), end: positionAt(source, range[1]!) } };
}
