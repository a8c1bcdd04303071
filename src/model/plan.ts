// The plan: plain data made by a pure function of (desired, live). Rendering, saving and
// applying all read this shape; nothing in it is a token or a live connection.
//
// Steps are typed by their kind. Each kind declares what its steps' `before`, `after` and `ref`
// hold by adding its entry to KindSteps from its own folder (module augmentation), so this file
// names no kind and a new kind brings its step types with its module, as it brings its code.
// `PlanStep<K>` is a step of kind K, what that kind's module receives; `PlanStep` is a step of
// any kind, and narrowing it on `kind` gives that kind's. Chosen over one open state for all
// (`Record<string, unknown>`, where every read was a cast or a `!`) and over a table of the kinds'
// shapes written here (the model would name every kind). A plan file's steps take these types
// where the file is decoded (engine/planFile.ts).
import type { ConfigPath, Kind } from '../config/types.js';
import type { PlanIdentities } from '../resolve/identities.js';
import type { PolicyViolation } from './policy.js';
import type { RunWeek } from '../domain/runWeek.js';
import type { Exposure } from '../domain/exposure.js';

export type { Exposure } from '../domain/exposure.js';

export type { PlanGroup, PlanIdentities, PlanModel, PlanUser } from '../resolve/identities.js';

export type Action = 'create' | 'update' | 'replace' | 'delete';

/** Severity order used to lead with the worst (cloudformation-diff's worstImpact). */
export const ACTION_SEVERITY: Record<Action, number> = { delete: 3, replace: 2, update: 1, create: 0 };

/** One changed field, by dotted path within the object (`destination.recipientEmails`). */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

/**
 * What each kind's steps hold, by kind: `state`, the compared fields of its object (a step's
 * `before` and `after`), and `ref`, the ids its applier needs that are not compared. An interface,
 * because only an interface can be added to from elsewhere; each kind adds its entry in its module:
 *
 *     declare module '../../model/plan.js' {
 *       interface KindSteps { routines: { state: Partial<RoutineState>; ref: RoutineRef } }
 *     }
 *
 * A state is an object type whose fields can be listed (a type literal, a `Partial<…>`, not an
 * interface): code that handles any step reads it field by field.
 */
export interface KindSteps {}

/**
 * The kinds whose steps a plan may hold: every kind declares its step types in KindSteps. The
 * registry is keyed by it, so a step's `kind` finds its module whether or not the config names
 * the kind (config/types.ts `Kind` lists those it does: every kind steward ships).
 */
export type StepKind = keyof KindSteps;

interface StepBase<K extends StepKind> {
  /** Unique within a plan: `kind/key`. Dependencies refer to it. */
  id: string;
  kind: K;
  /** The object's identity in the domain: a routine name, a label name, a user e-mail. */
  key: string;
  /** Steps that must succeed before this one runs (ids). */
  dependsOn: string[];
  /** Ids the applier needs that are not compared (a user id, a routine owner's id). */
  ref: KindSteps[K]['ref'];
  /** Why the step is there, when it is not obvious (e.g. "topicName changed", "pruned"). */
  reason?: string;
  /** A routine created, updated or replaced: its next runs after the plan was made, ISO-8601 UTC. */
  nextRuns?: string[];
  /**
   * Fields the config ignores on this object (`ignore:`): written when it is created, never
   * changed afterwards; applying a saved plan neither compares them nor overwrites their live value.
   */
  ignore?: string[];
  /** Ignored fields where the config differs from the live object: `before` live (kept), `after` the config's (not written). */
  ignored?: FieldChange[];
  /** The entry is in force until then (`until:`), and undone from then on. */
  until?: PlanExpiry;
  /** A routine created, updated or replaced: the recipients it adds and removes, each classified. */
  recipients?: PlanRecipient[];
}

/** When an entry with `until:` stops being in force. */
export interface PlanExpiry {
  /** The first instant it is expired, ISO-8601 UTC. */
  at: string;
  /** The day as the plan says it: `31 Dec 2026` (with the zone when `until` names one). */
  day: string;
}

/**
 * What a recipient is: a user of the instance, an e-mail that is no user (outside the instance),
 * a deactivated user, a user group, a Slack channel or user (Slack ids steward cannot look up),
 * or an e-mail not checked because the API key cannot read the directory (a personal token).
 */
export const RECIPIENT_CLASSES = ['user', 'not-a-user', 'deactivated-user', 'user-group', 'slack-channel', 'slack-user', 'not-checked'] as const;
export type RecipientClass = (typeof RECIPIENT_CLASSES)[number];

/** One recipient a step adds to or removes from a routine's output. */
export interface PlanRecipient {
  /** An e-mail address, a user group id, or a Slack channel or user id. */
  recipient: string;
  change: 'added' | 'removed';
  is: RecipientClass;
  /** For `not-a-user`: the directory's closest user, when one is a typo away. */
  didYouMean?: string;
}

/** Recipients that are not an active user of the instance: no user at all, or a deactivated one. */
export function outsideTheInstance(recipient: PlanRecipient): boolean {
  return recipient.is === 'not-a-user' || recipient.is === 'deactivated-user';
}

export interface CreateStep<K extends StepKind> extends StepBase<K> {
  action: 'create';
  after: KindSteps[K]['state'];
}
export interface UpdateStep<K extends StepKind> extends StepBase<K> {
  action: 'update';
  before: KindSteps[K]['state'];
  after: KindSteps[K]['state'];
  fields: FieldChange[];
}
export interface ReplaceStep<K extends StepKind> extends StepBase<K> {
  action: 'replace';
  before: KindSteps[K]['state'];
  after: KindSteps[K]['state'];
  fields: FieldChange[];
}
export interface DeleteStep<K extends StepKind> extends StepBase<K> {
  action: 'delete';
  before: KindSteps[K]['state'];
}

/**
 * A step of kind K, a discriminated union on `action`: every `switch` over it ends in
 * `unreachable` (errors.ts). Without K, a step of any kind, discriminated on `kind` too: code that
 * handles any step reads what all steps have, and narrowing on `kind` gives that kind's step.
 */
export type PlanStep<K extends StepKind = StepKind> = { [Of in K]: CreateStep<Of> | UpdateStep<Of> | ReplaceStep<Of> | DeleteStep<Of> }[K];

export interface PlanSummary {
  create: number;
  update: number;
  replace: number;
  delete: number;
}

/** Requests applying makes (writes, and reading the live state again) and the time they take at the plan's budget. */
export interface PlanApplyCost {
  requests: number;
  ms: number;
}

export interface PlanWarning {
  code: string;
  message: string;
  /**
   * The config names something this deployment does not have (a document, a folder): likely a
   * typo that `--strict` makes an error, where other warnings only inform.
   */
  namesMissing?: true;
  /** Where the configuration writes what the warning is about (the missing document's entry), for `--strict` to point at. */
  configPath?: ConfigPath;
}

/**
 * What a step that lowers a credit limit does to this period's usage once applied: a threshold
 * the organization has passed, a user whose usage is at or above her new limit. `certain` is
 * false where the organization's total stands in for usage that is not read one by one (the
 * default, a user group's or an entity group's members).
 */
export interface PlanImpact {
  /** The step whose write has this consequence. */
  step: string;
  kind: StepKind;
  /** Whose AI use it concerns. */
  scope: 'organization' | 'user' | 'default' | 'userGroup' | 'entityGroup';
  /** The object as people know it: `credit controls`, `grace@acme.example`, a group's name. */
  subject: string;
  /** The field lowered: `shutoffCredits`, `downgradeCredits`, `userDefaultCredits`, `creditLimit`. */
  field: string;
  /** Its new value. */
  limit: number;
  /** Credits used this period: the user's own, or the organization's. */
  used: number;
  /** What happens once applied: AI shuts off, moves to a cheaper model, or the user is cut off. */
  effect: 'shutoff' | 'downgrade' | 'cutoff';
  certain: boolean;
  /** One sentence saying the consequence. */
  message: string;
}

export const PLAN_FORMAT_VERSION = 1;

/** Where a promotion plan's desired state came from (`steward diff --env TARGET --against SOURCE`). */
export interface PlanPromotion {
  /** The source environment, whose live state the plan's environment is made to match. */
  from: string;
  fromBaseUrl: string;
  /** sha256 of the source's live state as mapped through the config; apply refuses the plan once it differs. */
  sourceDigest: string;
  /** Made with --require-healthy: apply refuses it too once a routine carried stops working in the source. */
  requireHealthy?: boolean;
  /** Declared fields kept at the target's own value, where the source's differed (per-environment values). */
  held?: PlanHeldField[];
}

/** A declared field a promotion kept at the target's value, and why. */
export interface PlanHeldField {
  kind: Kind;
  /** The object as the config names it: a routine or label name, a user's e-mail or id, a group, an entity. */
  key: string;
  /** The object's top-level field (`paused`, `creditLimit`, `destination`). */
  field: string;
  /** Why, in words: `variable routinesPaused differs by environment`. */
  reason: string;
  /** Held because these variables differ by environment (absent: held by the source's policy). */
  variables?: string[];
}

export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  stewardVersion: string;
  environment: string;
  baseUrl: string;
  /**
   * The request budget the live state was read at; `apply FILE` paces at it (absent from plans
   * made before it was recorded: apply then paces at the config's).
   */
  requestsPerMinute?: number;
  /** Digest of the config the plan was made from; apply refuses a plan whose config changed. */
  configDigest: string;
  createdAt: string;
  /** Kinds whose live state was read (and so whose steps this plan may contain). */
  kinds: Kind[];
  steps: PlanStep[];
  summary: PlanSummary;
  warnings: PlanWarning[];
  /** Requests made while planning (the cost at 60 requests/minute). */
  requests: number;
  /** What `steward plan` expected applying to cost, at `requestsPerMinute`; `steward show` says it again. */
  applyCost?: PlanApplyCost;
  /** Present on a promotion plan: the desired state is another environment's live state. */
  promotion?: PlanPromotion;
  /**
   * What steps that lower credit limits do to this period's usage (creditLimits.belowUsage);
   * present when the plan lowers one. When usage cannot be read, a warning says so instead.
   */
  impacts?: PlanImpact[];
  /**
   * The most credits per period the configuration allows once applied (an estimate: the rule
   * is stated in it); present when the plan changes a credit value (creditLimits.maxExposure).
   */
  exposure?: Exposure;
  /** The environment's policy rules this plan breaks (src/policy/); apply refuses it unless each rule is overridden. */
  policyViolations?: PolicyViolation[];
  /**
   * A plan that changes routines: how many of the configured routines start in each hour of the
   * week from the plan's day (the Markdown form shows it as a heatmap).
   */
  routineRuns?: RunWeek;
  /** What planning resolved (e-mails, group and model names → ids); `apply PLANFILE` reuses it instead of resolving again. */
  identities?: PlanIdentities;
}

/** Counts steps by action. */
export function summarize(steps: readonly PlanStep[]): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const step of steps) summary[step.action] += 1;
  return summary;
}

/** True when the plan deletes or replaces something (CI may gate on it). */
export function isDestructive(plan: Pick<Plan, 'steps'>): boolean {
  return plan.steps.some((step) => step.action === 'delete' || step.action === 'replace');
}
