// The configuration a user writes, after loading, merging and variable interpolation. These types
// mirror schemas/steward.schema.json (a test keeps the two in step); the planner consumes them.
import type { RoutineDestination } from '../api/types.js';

/** The resource kinds steward manages, in the order a user reads about them. */
export const KINDS = ['creditControls', 'userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits', 'routines', 'labels', 'documentLabels', 'folderLabels'] as const;
export type Kind = (typeof KINDS)[number];

/** Kinds whose undeclared live objects may be pruned (deleted or reset). */
export const PRUNABLE_KINDS = ['userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits', 'routines', 'labels'] as const;
export type PrunableKind = (typeof PRUNABLE_KINDS)[number];

export interface EnvironmentConfig {
  /** Instance origin, e.g. `https://acme.example.com` (a trailing `/api` is accepted). */
  baseUrl: string;
  /** Name of the process environment variable that holds the API token (never the token). */
  tokenEnv: string;
  /** Request budget for this deployment's key; default 60. */
  requestsPerMinute?: number;
  /**
   * The account (organization) the deployment belongs to: deployments naming one account share its
   * AI credit controls (the vendor: they apply to every instance of an organization).
   */
  account?: string;
  /**
   * How the deployment updates routines: `put` (default), the documented PUT; `patch`, where the
   * server also has the generated client's PATCH (timezone and destination change in place too).
   */
  routineUpdate?: 'put' | 'patch';
  /** Values for `${var.NAME}` references. */
  variables?: Record<string, string | number | boolean | null>;
  /**
   * Objects this environment never deletes, per kind: `true` protects the whole kind, a list
   * protects the named objects (routine and label names, user e-mails or ids, group names or ids, entity names).
   */
  protect?: Partial<Record<PrunableKind, true | string[]>>;
  /** This environment's rules; each one set here replaces the top-level one (null = off here). */
  policies?: PoliciesConfig;
}

/**
 * Rules every plan must pass before anything is written (src/policy/). `null` switches a rule
 * off, e.g. in an environment that overrides the top level.
 */
export interface PoliciesConfig {
  /** At most this many deletes plus replacements in one plan. */
  maxDestroy?: number | null;
  /** At most this many steps in one plan. */
  maxChanges?: number | null;
  /**
   * No credit value written above `max`, nor unlimited (null) unless `allowUnlimited`; with
   * `belowUsage: deny`, no limit lowered to or below what its subject has used this period;
   * with `maxExposure`, no plan that leaves the configuration allowing more credits per period.
   */
  creditLimits?: { max?: number | null; allowUnlimited?: boolean; belowUsage?: 'deny' | 'warn'; maxExposure?: number | null } | null;
  routines?: {
    /** E-mail recipients only at these domains (`*.acme.example` admits subdomains). */
    recipientDomains?: string[] | null;
    slackRecipientTypes?: ('channel' | 'users')[] | null;
    /** Every e-mail recipient a plan adds must be an active user of the instance. */
    recipientsMustBeUsers?: boolean | null;
    /** At most this many routines may start in one hour (UTC) of the coming week, counted over the configured routines. */
    maxRunsPerHour?: number | null;
    /** Every routine created or changed must be paused. */
    requirePaused?: boolean | null;
  } | null;
}

/** Absent field = not managed; null = off (thresholds) / unlimited (defaults). */
export interface CreditControlsConfig {
  downgradeCredits?: number | null;
  shutoffCredits?: number | null;
  userDefaultCredits?: number | null;
  entityGroupDefaultCredits?: number | null;
}

/**
 * One user's credit limit. `creditLimit`: a number; `null` = explicit unlimited override;
 * `'default'` = no individual limit, follow `userDefaultCredits`.
 */
export type UserCreditLimitConfig = ({ email: string; userId?: never } | { userId: string; email?: never }) & {
  creditLimit: number | null | 'default';
  /** When the entry stops being in force (domain/expiry.ts reads it); the limit then goes back to `then`. */
  until?: string;
  /** The limit once `until` has passed; default: "default" (no limit of its own). */
  then?: number | null | 'default';
  /** Fields steward sets on create and never changes afterwards (config/ignore.ts says which may be). */
  ignore?: string[];
  protect?: boolean;
};

/**
 * One user group's credit limit (it applies to each member individually). A file names the group
 * by exactly one of `group` (its SCIM display name, resolved per environment) and `userGroupId`
 * (the id the credit-limit API takes); once planning resolves a name, both are set.
 */
export interface UserGroupCreditLimitConfig {
  group?: string;
  userGroupId?: string;
  creditLimit: number | null | 'default';
  /** When the entry stops being in force (domain/expiry.ts reads it); the limit then goes back to `then`. */
  until?: string;
  /** The limit once `until` has passed; default: "default" (no limit of its own). */
  then?: number | null | 'default';
  /** Fields steward sets on create and never changes afterwards (config/ignore.ts says which may be). */
  ignore?: string[];
  protect?: boolean;
}

/** One embed entity group's credit limit; entity names are the same in every deployment. */
export interface EntityGroupCreditLimitConfig {
  entity: string;
  creditLimit: number | null | 'default';
  /** When the entry stops being in force (domain/expiry.ts reads it); the limit then goes back to `then`. */
  until?: string;
  /** The limit once `until` has passed; default: "default" (no limit of its own). */
  then?: number | null | 'default';
  /** Fields steward sets on create and never changes afterwards (config/ignore.ts says which may be). */
  ignore?: string[];
  protect?: boolean;
}

export interface RoutineConfig {
  name: string;
  /** E-mail of the owning user, for organization keys acting for a user; default: the caller. */
  owner?: string;
  prompt: string;
  schedule: string;
  timezone: string;
  /** The shared model by name, resolved per environment (exactly one of `model` and `modelId`). */
  model?: string;
  /** The shared model by id (ids differ per deployment: prefer `model`). */
  modelId?: string;
  /** A branch of the model by name, resolved per environment; alternative to `branchId`. */
  branch?: string | null;
  branchId?: string | null;
  topicName?: string | null;
  /** Former names: a live routine of the same owner under one of them is renamed, keeping its id. */
  renamedFrom?: string[];
  description?: string | null;
  destination: RoutineDestination;
  /** Paused by its owner; default false. */
  paused?: boolean;
  /** When the routine stops being in force (domain/expiry.ts reads it): it is then deleted, or paused. */
  until?: string;
  /** What happens once `until` has passed; default delete. */
  onExpiry?: 'delete' | 'pause';
  /** Fields steward sets on create and never changes afterwards (config/ignore.ts says which may be). */
  ignore?: string[];
  protect?: boolean;
  /** Live namesakes identical to the oldest match: refused (default) or planned for deletion. */
  duplicates?: 'refuse' | 'delete-identical';
}

export interface LabelConfig {
  name: string;
  /** Former names: a live label under one of them is renamed, so documents keep it. */
  renamedFrom?: string[];
  color?: string | null;
  description?: string | null;
  verified?: boolean;
  homepage?: boolean;
  /** Document identifiers that carry this label. Absent = document links not managed. */
  documents?: string[];
  /** When true, the label is taken off documents not listed in `documents`. Default false. */
  pruneDocuments?: boolean;
  /** Folders that carry this label, by path or id. Absent = folder labels not managed. */
  folders?: string[];
  /** When true, the label is taken off folders not listed in `folders`. Default false. */
  pruneFolders?: boolean;
  /** Fields steward sets on create and never changes afterwards (config/ignore.ts says which may be). */
  ignore?: string[];
  protect?: boolean;
}

export interface StewardConfig {
  version: 1;
  environments: Record<string, EnvironmentConfig>;
  creditControls?: CreditControlsConfig;
  userCreditLimits?: UserCreditLimitConfig[];
  userGroupCreditLimits?: UserGroupCreditLimitConfig[];
  entityGroupCreditLimits?: EntityGroupCreditLimitConfig[];
  routines?: RoutineConfig[];
  labels?: LabelConfig[];
  /** Per kind: delete (or reset) live objects the config does not declare. Default: never. */
  prune?: Partial<Record<PrunableKind, boolean>>;
  /** Per kind: fields ignored on every object of the kind (besides each object's own `ignore`). */
  ignore?: Partial<Record<PrunableKind, string[]>>;
  /** Rules every plan must pass; environments may override them. */
  policies?: PoliciesConfig;
}

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
