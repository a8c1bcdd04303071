// The small interface every resource kind implements: derive the desired state from config,
// read the live state, diff the two (pure), and carry out steps. Adding a kind is one module
// implementing this plus one line in registry.ts.
import type { PlatformApi } from '../api/platform.js';
import type { Whoami } from '../api/types.js';
import type { IdEnvironment } from '../config/environmentIds.js';
import type { EnvironmentConfig, Kind, LoadedConfig, StewardConfig } from '../config/types.js';
import type { PlanImpact, PlanStep, PlanWarning, StepKind } from './plan.js';
import type { ScheduledRoutine } from '../domain/runWeek.js';
import type { CallerUser, Directory } from '../resolve/directory.js';
import type { UserGroups } from '../resolve/groups.js';
import type { IdentityBook } from '../resolve/identities.js';
import type { KindAccess } from '../resolve/preflight.js';

export type { KindAccess } from '../resolve/preflight.js';

/** What `desired()` may look at: the config, the selected environment and resolved identities. */
export interface DesiredInput {
  config: StewardConfig;
  environment: EnvironmentConfig;
  directory: Directory;
  /** The instant entries with `until:` are judged at (in force, or expired); default: now. */
  now?: Date;
}

/** What `read()` may use: the API, identities, and the live state of kinds read before it. */
export interface ReadContext {
  api: PlatformApi;
  directory: Directory;
  live: Partial<Record<Kind, unknown>>;
  /** What this kind's `start` began, while identities were being resolved (if it has one). */
  started?: Promise<unknown>;
}

export interface DiffResult<K extends StepKind = StepKind> {
  steps: PlanStep<K>[];
  warnings: PlanWarning[];
  /** Dependencies this kind adds to other kinds' steps (`step` waits for `on`). */
  dependencies?: { step: string; on: string }[];
}

/** The outcome of one step during apply. */
export type StepOutcome =
  | { status: 'done'; detail?: string }
  | { status: 'already-applied'; detail?: string }
  | StepFailure
  /** `notStarted`: the run stopped (interrupt, refused credentials) before this step's turn. */
  | { status: 'skipped'; reason: string; notStarted?: true }
  | { status: 'stale'; reason: string };

/** A failed step, with what the executor needs to judge it (contract 5 of the parallel work). */
export interface StepFailure {
  status: 'failed';
  error: string;
  /** What to do about it, when steward knows (a config setting the server refuses). */
  hint?: string;
  /** The write may have been carried out (response lost, or 5xx): read back before believing it failed. */
  outcomeUnknown?: true;
  /** With `outcomeUnknown`: what failed, without the clause that the outcome is unknown. */
  summary?: string;
  /** The HTTP status of the refusal, when the server answered one. */
  httpStatus?: number;
  /** 401 or 403: retrying cannot help, and no further write is sent. */
  fatal?: 'auth';
  /** The kind already sent the write a second time after looking (a create): read back, never resend. */
  sentTwice?: true;
  /** Dropped before it was sent, as the run was stopped: the server did nothing. */
  notSent?: true;
  /** A bulk write the server answered as done, but not for these steps (by id, with words). */
  notTaken?: ReadonlyMap<string, string>;
}

/**
 * What a kind's `apply` may use. Every write goes through `attempt`, which belongs to the
 * executor: it starts nothing once the run is stopped (interrupt, refused credentials), records
 * each step's outcome the moment it is known, and reads back a write whose answer was lost.
 */
export interface ApplyContext {
  api: PlatformApi;
  /** Live state read just before applying (a saved plan) or while planning (apply without one). */
  live: unknown;
  /**
   * Carries out one write (one request, or the few one step needs) covering `steps`; resolves
   * once their outcomes are recorded, never rejects. `write` may be called a second time, when
   * reading back shows the first was not carried out.
   */
  attempt(steps: readonly PlanStep[], write: () => Promise<unknown>): Promise<void>;
}

/** What reading back found for a step that `current` alone cannot judge (a step spanning two objects). */
export type ReadBackVerdict = { found: string; /** What the next apply does about it, said after a failed write. */ remedy?: string } | undefined;

/** How a kind's steps read to people: render/describe.ts asks the kind, never switching on kinds. */
export interface KindPresentation<K extends StepKind = StepKind> {
  /** `routine`, `routines`. */
  readonly noun: readonly [singular: string, plural: string];
  /** One line naming the step's object, before escaping: `routine "Weekly digest"`. */
  title(step: PlanStep<K>): string;
  /** What null means in a field, in words (`unlimited`, `off`); undefined prints `null`. */
  nullMeans?(path: string): string | undefined;
  /** False where the title says it all (a limit's value, a link): no detail lines under it. */
  readonly details?: boolean;
  /**
   * A field holding the id of something the config names by name (a routine's `modelId`, named
   * `model:`): what the config calls it. Text and Markdown then show the name; JSON keeps the id.
   */
  namedBy?(path: string): 'model' | 'branch' | undefined;
}

/** Where a kind's steps run among the others (engine/order.ts). */
export interface KindOrder {
  /** Creates and changes go top-down by level, deletes bottom-up: a level needs the one above it. */
  readonly level: number;
  /** Its deletes are resets to a default that nothing depends on: they run with its changes. */
  readonly deletesAreResets?: boolean;
}

/** How `--target KIND/NAME` and `--exclude` name the kind's objects (engine/targeting.ts). */
export interface KindTargeting<K extends StepKind = StepKind> {
  /** How a selector's object is called in messages: `routine`, `user credit limit for`. */
  readonly noun: string;
  /** The names the config declares; undefined for a kind that is one object with no name. */
  names(config: StewardConfig): string[] | undefined;
  /** Whether undeclared live objects are deleted, so a name may be a live object's. */
  pruned(config: StewardConfig): boolean;
  /** The kind whose objects these belong to (a label's document links): planned and targeted with it. */
  readonly partOf?: Kind;
  /** The name a selector gives a step's object, where it is not the step's key. */
  stepName?(step: PlanStep<K>): string;
  /** A name the config cannot list before identities are resolved, that may still be right. */
  mayName?(name: string, config: StewardConfig): boolean;
}

/**
 * Who a kind's steps send output to (a routine's recipients), before anyone is looked up: the
 * planner classifies the e-mails against the directory (engine/recipients.ts).
 */
export interface KindAudience<K extends StepKind = StepKind> {
  /** The recipients a step adds and removes; nothing for a step that changes none. Pure. */
  changes(step: PlanStep<K>): AudienceChange[];
}

/** One recipient added or removed, as the step names it. */
export interface AudienceChange {
  recipient: string;
  change: 'added' | 'removed';
  /** `email` is looked up in the directory; the others are what they are. */
  channel: 'email' | 'user-group' | 'slack-channel' | 'slack-user';
}

/**
 * How the config names the entries of a kind that is a list (`userCreditLimits:`, `routines:`):
 * what promotion matches a source's entry to the config's by, and what `protect` lists name.
 */
export interface KindEntries {
  /** The entry's key as the config and `protect` lists name it: an e-mail or id, a group, a name. */
  keyOf(entry: Readonly<Record<string, unknown>>): string | undefined;
  /** Whether the entry is the one `key` names (e-mails and label names compare without case). */
  hasKey(entry: Readonly<Record<string, unknown>>, key: string): boolean;
  /**
   * Fields (dotted where nested) that name the object, or hold ids each deployment translates:
   * a promotion never keeps them at the target's value.
   */
  readonly identityFields: readonly string[];
}

/**
 * How `steward export` reads a kind whole and writes it as its config section, and how a promotion
 * reads its source through the same snapshot and carries that section to the target: src/export/
 * and src/promote/ ask each kind, never switching on kinds. The section is the inverse of
 * `desired`: planned against the state it was read from, it plans nothing. Steps run in this
 * order: `problems` and `start`, then `identify`, then `read`.
 */
export interface KindExport<Desired = unknown, Live = unknown, Snapshot = unknown, Identified = unknown> {
  /** What this key cannot read of it, before anything is read (another user's routines with a personal token). */
  problems?(whoami: Whoami, owners: readonly string[]): string[];
  /**
   * Present on kinds whose objects belong to a user (routines): the owners the config names, by
   * e-mail. `--owner` selects whose objects are read; a kind without this takes none.
   */
  owners?(config: StewardConfig): string[];
  /** Begins the part of the read that needs no identity, while owners are looked up (`read` gets it as `started`). */
  start?(api: PlatformApi, signal: AbortSignal): Promise<unknown>;
  /** Whether what `start` began names users: owners are then looked up by the directory's listing, which names them too. */
  namesUsers?(started: Promise<unknown>): Promise<boolean>;
  /** Looks up, before any kind reads, the identities its read needs (whose routines); `read` gets them as `identified`. */
  identify?(context: ExportIdentifyContext): Promise<Identified>;
  /**
   * Reads everything live (`context.read` with a desired state that covers everything) and names its
   * ids as the config does (users by e-mail, groups by display name). Undefined, after
   * `context.warn`, when it cannot be read (routines no owner was found for).
   */
  read(context: ExportReadContext<Desired, Live, Identified>): Promise<Snapshot | undefined>;
  /**
   * Its config section, entries in a fixed order so two exports of one state are equal. A part of
   * another kind (`targeting.partOf`) writes into that kind's section, given as `section` (a label's
   * documents into its entry). `whole`: the kind was asked for itself, not only read for its parts. Pure.
   */
  section(snapshot: Snapshot, context: { section: unknown; whole: boolean }): unknown;
  /**
   * What the file holds of it, for the header (`user group credit limits`). A part says what it
   * adds (`documents`); the kind it belongs to says it in its own words, given as `parts`.
   */
  holds(snapshot: Snapshot, context: { whole: boolean; parts: readonly string[]; caller: CallerUser | undefined }): string;
  /** The section as a file writes it, where that leaves out what a default gives (an e-mail destination's empty lists). Pure. */
  written?(section: unknown): unknown;
  /**
   * How a file writes fields of its section, by name, wherever they are in it; a part names those it
   * writes into the section of the kind it belongs to (a label's `documents`).
   */
  readonly styles?: KindFieldStyles;
  /**
   * What besides `prune:` makes the file the whole truth of it, for the header; undefined where
   * nothing does. A part names its flag (`` `pruneDocuments: true` ``); the kind it belongs to says
   * where the flags go, given them as `parts` (`… on labels`).
   */
  pruning?(parts: readonly string[]): string | undefined;
  /**
   * The ids of its section that differ between deployments (a routine's model, branch and e-mail
   * user groups; a user group limit SCIM does not name): export writes them as `${var.NAME}`, a
   * promotion takes them to the target's.
   */
  readonly environmentIds?: KindEnvironmentIds;
  /** What a promotion carries from the config onto each promoted entry, for a kind that is a list (`entries`). */
  readonly promoted?: KindPromotedEntries;
  /** Throws where a promotion cannot carry what was read (a limit of a user SCIM names no e-mail for). */
  refusePromotion?(snapshot: Snapshot, source: string): void;
  /** What was read that does not work where it is, and how a promotion words it (a routine the platform disabled, or whose last run failed). */
  readonly health?: KindHealth<Snapshot>;
  /**
   * For a kind that is `accountWide`: the note a promotion between two environments sharing an
   * account gives where the config declares the kind, which is then neither read nor promoted.
   */
  sharedNote?(context: { source: string; target: string; account: string }): PlanWarning;
  /**
   * The field of its entries that keeps what `runs` gives from running (`paused`): a promotion from
   * an environment whose policy `routines.requirePaused` is set keeps it at the target's value.
   */
  readonly pausedField?: string;
  /** What a promotion warns of in the section the source gives, against the config (an owner it names who has no routines there). Pure. */
  promotionWarnings?(section: unknown, context: { config: StewardConfig; source: string; target: string }): PlanWarning[];
}

/**
 * The ids of a kind's config section that differ between deployments, which the environments'
 * variables name (config/environmentIds.ts finds the variable and the target's id); the kind
 * says where they are and words what no variable names. Pure.
 */
export interface KindEnvironmentIds<Section = unknown> {
  /**
   * Export: each id a variable of the environment holds as `${var.NAME}` (the first such
   * variable); the others stay literal, with a warning each. Given text already escaped, so the
   * references written here stay references.
   */
  refer(section: Section, environment: IdEnvironment): { section: Section; warnings: string[] };
  /** Promotion: each id of the source as the target's, through the variable of the same name; throws a StewardError for one none maps. */
  translate(section: Section, source: IdEnvironment, target: IdEnvironment): Section;
}

/**
 * What a promotion carries from the config onto an entry of a kind that is a list: the source
 * gives the entry, the config its own say over it (`protect`, `ignore`, a rename). Pure.
 */
export interface KindPromotedEntries<Entry = unknown> {
  /**
   * The declared entry a promoted one takes its flags from, where that is not the entry its key
   * names (`entries.hasKey`): a user's limit by e-mail where the promoted one has an e-mail, else by user id.
   */
  declaredFor?(entry: Entry, declared: readonly Entry[]): Entry | undefined;
  /** `entry` with the flags of `declared`, the config's entry for it; `section` is every entry the source gives. */
  withFlags(entry: Entry, declared: Entry, section: readonly Entry[]): Entry;
}

/**
 * How a file writes fields of a section, by name: `quoted` text (and a list's items) in double
 * quotes, as the examples write colours, schedules and document identifiers; `inline` lists of up
 * to INLINE_LIST_MAX (export/yaml.ts) items on one line (`[a, b]`), longer ones an item a line.
 */
export interface KindFieldStyles {
  readonly quoted?: readonly string[];
  readonly inline?: readonly string[];
}

/**
 * What of a kind does not work where it was read, and the kind's words for it: a promotion warns
 * of each object (promoted, it is what the target would run) and, under `--require-healthy`,
 * refuses them all with the kind's sentence (StewardError `promote.unhealthy`, its code). Pure.
 */
export interface KindHealth<Snapshot = unknown> {
  unhealthy(snapshot: Snapshot): UnhealthyObject[];
  /** The warning of one object read from `source`, with its code. */
  warning(object: UnhealthyObject, source: string): PlanWarning;
  /** The refusal under `--require-healthy` of every object found, and its hint. */
  refusal(objects: readonly UnhealthyObject[], source: string): { message: string; hint: string };
}

/** What every step of a kind's export may use. */
export interface ExportContext {
  api: PlatformApi;
  directory: Directory;
  /**
   * A promotion's configuration (none for export): a kind reads only what it manages where that
   * reads less (the documents and folders of the labels that declare them).
   */
  declared?: StewardConfig;
}

/** What `KindExport.identify` is given. */
export interface ExportIdentifyContext extends ExportContext {
  /** E-mails of the users whose objects are read besides the key's own user's. */
  owners: readonly string[];
  /** Whether a read begun early (`start`) names users: looking owners up by the listing then costs nothing more. */
  listingAhead(): Promise<boolean>;
}

/** What `KindExport.read` is given. */
export interface ExportReadContext<Desired = unknown, Live = unknown, Identified = unknown> extends ExportContext {
  /** What the kinds it reads after (`readAfter`) read, as their exports hold it. */
  live: Partial<Record<Kind, unknown>>;
  /** What its `start` began. */
  started?: Promise<unknown>;
  /** What its `identify` found. */
  identified?: Identified;
  /** The kind's own `read`, in this context. */
  read(desired: Desired): Promise<Live>;
  /** Says what of the kind is not exported, and why (a warning shown before the file). */
  warn(message: string): void;
}

/** An object read that does not work where it is, and why in words. */
export interface UnhealthyObject {
  name: string;
  /** The owner's e-mail where the config names one. */
  owner?: string;
  problem: 'platform-disabled' | 'last-run-failed';
  detail: string;
}

/** `K`: the name its steps carry, whose step types it declares in KindSteps (model/plan.ts); its methods receive its own steps. */
export interface ResourceKind<Desired = unknown, Live = unknown, K extends StepKind = StepKind> {
  readonly kind: Kind;
  readonly presentation: KindPresentation<K>;
  /** Present on kinds the config declares as a list of entries. */
  readonly entries?: KindEntries;
  /** How export (and a promotion's source) reads it whole and writes its config section. */
  readonly export?: KindExport<Desired, Live>;
  /**
   * Settings of the whole account rather than of one deployment: environments that name the same
   * `account` share them, so a promotion between two of them has nothing of this kind to carry.
   */
  readonly accountWide?: boolean;
  readonly order: KindOrder;
  readonly targeting: KindTargeting<K>;
  readonly access?: KindAccess;
  /** Who its steps send output to, when they send any (routines). */
  readonly audience?: KindAudience<K>;
  /** What of the config runs on a schedule (routines): `steward schedule`, a plan's week of runs and routines.maxRunsPerHour. Pure. */
  runs?(config: StewardConfig): ScheduledRoutine[];
  /**
   * Resolves the names the deployment gives ids (a routine's model and branch), before whoami is
   * asked about them; returns the config with the ids. Unknown names are one error at their positions.
   */
  resolveNames?(context: { api: PlatformApi; loaded: Pick<LoadedConfig, 'config' | 'locate'>; identities?: IdentityBook }): Promise<StewardConfig>;
  /**
   * Resolves the user groups it names, once users are known; returns the config with their ids.
   * A kind that has this is read after resolution, never early. `started` is what its `start` began.
   */
  resolveGroups?(context: {
    api: PlatformApi;
    loaded: Pick<LoadedConfig, 'config' | 'locate'>;
    keyScope: 'user' | 'organization';
    identities?: IdentityBook;
    groups: UserGroups;
    started?: Promise<unknown>;
  }): Promise<StewardConfig>;
  /**
   * Whether its live state, begun early (`started`), names users the config does not: the
   * directory then lists users page by page rather than looking each e-mail up.
   */
  namesUndeclaredUsers?(config: StewardConfig, started: Promise<unknown>): Promise<boolean>;
  /** Checks the config against the resolved users (one user named twice); throws a StewardError. */
  checkResolved?(loaded: Pick<LoadedConfig, 'config' | 'locate'>, directory: Directory): void;
  /**
   * Checks, against the deployment, what its steps would write (a new routine's topic), as soon
   * as its live state is read while other kinds still read; and again before a saved plan is applied.
   */
  checkPlanned?(context: { api: PlatformApi; steps: readonly PlanStep<K>[]; desired: Desired; loaded: Pick<LoadedConfig, 'config' | 'locate'>; identities?: IdentityBook }): Promise<void>;
  /** What the kind adds to its planned steps once they are made (a routine's next runs), and warns of; it is given every kind's steps, and returns them all. Pure. */
  annotate?(steps: readonly PlanStep[], now: Date): { steps: PlanStep[]; warnings: PlanWarning[] };
  /** Kinds whose live state `read` needs first. */
  readonly readAfter: readonly Kind[];
  /** True when the config manages this kind at all (undeclared kinds are never read). */
  declared(config: StewardConfig): boolean;
  /** E-mail addresses this kind needs resolved to user ids before `desired`. */
  emails(config: StewardConfig): string[];
  /** User ids the config names directly; planning checks they exist (where SCIM allows). */
  userIds?(config: StewardConfig): string[];
  /** User ids the live state names (an undeclared limit's user): a plan records them by e-mail. */
  liveUserIds?(live: Live): Iterable<string>;
  /** The desired state, with identities resolved. Pure. */
  desired(input: DesiredInput): Desired;
  /**
   * Begins the part of the read that needs neither identities nor other kinds' live state (a
   * listing), as soon as the preflight has passed, so it runs while users and groups are being
   * resolved; `read` receives the promise as `context.started`. Once `signal` is aborted (the
   * plan failed meanwhile) it sends no further request and rejects.
   */
  start?(api: PlatformApi, signal: AbortSignal): Promise<unknown>;
  /** Reads the live state with the fewest requests (list endpoints only). */
  read(context: ReadContext, desired: Desired): Promise<Live>;
  /** The steps that turn live into desired. Pure: no I/O, no printing. */
  diff(desired: Desired, live: Live, allLive: Partial<Record<Kind, unknown>>): DiffResult<K>;
  /**
   * The current state of a step's object in `live`: the applier compares it with the step's
   * `after` (already applied) and `before` (safe to run); anything else is stale.
   */
  current(step: PlanStep<K>, live: Live): Record<string, unknown> | undefined;
  /**
   * Carries out steps of this kind (batched where the API allows), every write through
   * `context.attempt`, so that each step gets exactly one outcome.
   */
  apply(steps: PlanStep<K>[], context: ApplyContext): Promise<void>;
  /** How many write requests carrying out these steps takes (the cost shown before approval). */
  writeRequests(steps: readonly PlanStep<K>[]): number;
  /**
   * After a write whose answer was lost: a verdict where the generic judgement of `current`
   * against before/after would be wrong (e.g. a replacement whose new object exists while the
   * old one is still there). Undefined leaves it to the generic judgement.
   */
  readBack?(step: PlanStep<K>, live: Live): ReadBackVerdict;
  /**
   * The credit values a step writes (a limit, a threshold, a default), for the creditLimits
   * policy (src/policy/). A kind that carries credit values declares them here; others omit it.
   */
  credits?(step: PlanStep<K>): CreditValue[];
  /**
   * The limits a step lowers, judged against the live state of every kind read (a new user limit
   * is lower than the default it replaces only where the credit controls were read). Pure.
   */
  lowered?(step: PlanStep<K>, allLive: Partial<Record<Kind, unknown>>): LoweredLimit[];
  /** What the kind allows to be spent once `steps` (its own) are applied to `live`, for the plan's exposure. Pure. */
  allowance?(live: Live, steps: readonly PlanStep<K>[]): Allowance;
}

/** A kind's credit limits after a plan: users' or groups' limits by id, or the organization's default. */
export type Allowance =
  | { scope: 'users' | 'userGroups'; limits: Map<string, number | null> }
  | { scope: 'organization'; userDefault: number | null; accountCreditLimit: number | null };

/**
 * A credit limit a step lowers (or sets where there was none), for the plan's impacts on this
 * period's usage. `used` is given where the live state already says it (the organization's usage
 * from the credit controls); a `user` lowering names the user whose usage is to be read.
 */
export interface LoweredLimit {
  scope: PlanImpact['scope'];
  field: string;
  limit: number;
  effect: PlanImpact['effect'];
  /** The membership id whose own usage decides (scope `user`). */
  userId?: string;
  /** Usage already known: the organization's, for organization-wide thresholds and the estimates. */
  used?: number;
}

/** One credit value a step writes: a number, or null (unlimited, or a threshold switched off). */
export interface CreditValue {
  field: string;
  value: number | null;
  /** What null means for this field, in messages. */
  nullMeans: 'unlimited' | 'off';
}
