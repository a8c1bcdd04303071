// The entry points of a configuration's analysis: loadConfig (a validated configuration for one
// environment, or every diagnostic) and validateConfig (the diagnostics of `steward validate`).
// Each takes the kinds' declarations of their parts of the config (their checks among them), which
// config/ cannot import: the rest of steward calls them through app/config.ts, which hands in
// every kind's.
import { analyzeConfig } from './analyze.js';
import type { KindConfigSchema } from './assembleSchema.js';
import { locateMerged } from './merge.js';
import type { Diagnostic, EnvironmentConfig, LoadedConfig, StewardConfig } from './types.js';

export type ConfigLoadResult =
  | { ok: true; loaded: LoadedConfig; /** Warnings only. */ diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[]; /** Declared environment names, for the CLI's --env message. */ environments: string[] };

export interface LoadOptions {
  /** Environment to select; may be omitted when exactly one is declared. */
  environment?: string;
  /** Values for `${env.NAME}`; default `process.env`. */
  processEnv?: Record<string, string | undefined>;
  /** Directory that displayed file names (positions) are relative to; default the process's. */
  cwd?: string;
}

/**
 * Loads the configuration at `path` (a file, or a directory of *.yaml files) for one
 * environment. `ok: true` guarantees the configuration passed every check and matches
 * StewardConfig, with every reference resolved; otherwise every diagnostic is returned.
 */
export async function loadConfig(path: string, declarations: readonly KindConfigSchema[], options: LoadOptions = {}): Promise<ConfigLoadResult> {
  const analysis = await analyzeConfig(path, declarations, { ...options, selectionRequired: true });
  const { merged, selected } = analysis;
  if (analysis.diagnostics.some((diagnostic) => diagnostic.severity === 'error') || selected === undefined || merged === undefined) {
    return { ok: false, diagnostics: analysis.diagnostics, environments: analysis.environments };
  }
  const config = checkedConfig(selected.config);
  return {
    ok: true,
    diagnostics: analysis.diagnostics,
    loaded: {
      config,
      environmentName: selected.name,
      environment: config.environments[selected.name] as EnvironmentConfig,
      files: analysis.files.map((file) => file.path),
      digest: analysis.digest,
      locate: (target) => locateMerged(merged, target),
      variableReferences: selected.variableReferences,
    },
  };
}

/**
 * Every diagnostic of the configuration at `path`, ordered by file, line and column. With an
 * environment, references are checked against it; without, against every declared environment.
 */
export async function validateConfig(path: string, declarations: readonly KindConfigSchema[], options: LoadOptions = {}): Promise<Diagnostic[]> {
  return (await analyzeConfig(path, declarations, { ...options, selectionRequired: false })).diagnostics;
}

/**
 * The selected environment's configuration, once every check has passed: the one place the
 * checked value (plain data the schema and the semantic checks vouch for) becomes a
 * StewardConfig. Call it only when the analysis has no error.
 */
export function checkedConfig(value: Record<string, unknown>): StewardConfig {
  return value as unknown as StewardConfig;
}
