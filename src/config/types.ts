// The types of a configuration and of what loading one gives. The configuration's own types
// (StewardConfig, RoutineConfig, …, with KINDS, PRUNABLE_KINDS and Kind) are generated from the
// config schema that config/schemaParts.ts and each kind folder's configSchema.ts declare
// (`npm run generate`): this module passes them on, so the rest of steward imports them from here.
export * from './configTypes.generated.js';
import type { EnvironmentConfig, StewardConfig } from './configTypes.generated.js';

/** Where a value came from, for diagnostics. Lines and columns are 1-based. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

export type Severity = 'error' | 'warning';

/** One finding of validation or planning, with a stable code and the offending position. */
export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable code, e.g. `schema.required`, `routine.schedule`. */
  code: string;
  /** One sentence. */
  summary: string;
  detail?: string;
  /** e.g. "did you mean `shutoffCredits`?" */
  hint?: string;
  location?: SourceLocation;
  /**
   * For a finding about a secret written in a file: where its value is ([start, end), in the
   * location's file). Every excerpt of those lines, whatever finding it belongs to, masks it.
   */
  secretValue?: { start: SourceLocation; end: SourceLocation };
  /** A warning that the config names something that does not exist (a protected label nobody declares): an error under `--strict`. */
  namesMissing?: true;
}

/** A JSON-pointer-like path into the merged config: `['routines', 2, 'schedule']`. */
export type ConfigPath = readonly (string | number)[];

/** The result of loading a config for one environment. */
export interface LoadedConfig {
  config: StewardConfig;
  /** The selected environment's name and settings. */
  environmentName: string;
  environment: EnvironmentConfig;
  /** Files read, in merge order (absolute paths). */
  files: string[];
  /** sha256 over the files' paths and contents; a plan file records it to detect edits. */
  digest: string;
  /** Source position of a value of the merged config (nearest existing ancestor if absent). */
  locate(path: ConfigPath): SourceLocation | undefined;
  /**
   * The values that come from `${var.NAME}` references (outside `environments`), with the
   * variables each uses: a promotion keeps the target's own value where they differ by environment.
   */
  variableReferences?: readonly { path: ConfigPath; variables: readonly string[] }[];
}
