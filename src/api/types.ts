// Wire shapes of the platform API, as api.md and gaps.md settle them. The HTTP client returns
// these (checked against the schemas of shapes.ts, which must describe every field here) and
// the emulator serves them, so the three cannot drift apart silently.

/** Cursor pagination envelope (`pageInfo`). */
export interface PageInfo {
  hasNextPage: boolean;
  nextCursor: string | null;
  /** Page size in effect; a server may leave it out. */
  pageSize?: number;
  totalRecords?: number;
}

/** Body of the two error forms of api.md. */
export interface DetailErrorBody {
  detail: string;
  status: number;
}
export interface CodeErrorBody {
  error: string;
  message: string;
}

// ---- whoami ---------------------------------------------------------------------------------

export type KeyScope = 'user' | 'organization';
/** The organization roles the documents name. */
export type OrgRole = 'MEMBER' | 'ORG_ADMIN';
/** The emulator's model roles (whoami reports each as `baseRole`, possibly under a custom `roleName`). */
export type ModelRoleName = 'VIEWER' | 'QUERIER' | 'EDITOR' | 'MANAGER';

/**
 * What steward reads of one model's role: the permissions (`USE_AI`, ...). `baseRole`,
 * `roleName` (custom names) and `connectionId` are passed over whatever they hold.
 */
export interface WhoamiModelRole {
  permissions: string[];
}

/** The key's user: `id` is the user id, `membershipId` the id every `userId` parameter takes. */
export interface WhoamiUser {
  id: string | null;
  membershipId: string;
}

export interface Whoami {
  keyScope: KeyScope;
  /**
   * `MEMBER` or `ORG_ADMIN` as documented; read as text, so a role the documents do not name
   * yet is not refused: only `ORG_ADMIN` grants what an Organization Admin may do.
   */
  orgRole: string;
  rolesByModel: Record<string, WhoamiModelRole>;
  rolesByModelTruncated?: boolean;
  /**
   * The caller's user; for an organization key, the user the key was created by, or null when
   * the server names none (absent, null, or a user whose ids are null all arrive as null).
   */
  user: WhoamiUser | null;
}

// ---- AI credit controls ---------------------------------------------------------------------

/**
 * The settings a PATCH may carry; null = off (thresholds) or unlimited (defaults). The vendor
 * documents three; `entityGroupDefaultCredits` is the generated client's, absent from the
 * documented answer (undefined here: an instance that does not show it).
 */
export interface CreditControlSettings {
  downgradeCredits: number | null;
  shutoffCredits: number | null;
  userDefaultCredits: number | null;
  entityGroupDefaultCredits?: number | null;
}
export const CREDIT_CONTROL_FIELDS = [
  'downgradeCredits',
  'shutoffCredits',
  'userDefaultCredits',
  'entityGroupDefaultCredits',
] as const satisfies readonly (keyof CreditControlSettings)[];

export interface CreditControls extends CreditControlSettings {
  /** 0 = no account limit; null = the answer did not carry it. */
  accountCreditLimit: number | null;
  /** The organization's usage this period; null = the answer did not carry it. */
  creditsUsed: number | null;
  /** Unix milliseconds, UTC calendar-month bounds. */
  periodStart: number;
  periodEnd: number;
}

export type CreditControlsPatch = Partial<CreditControlSettings>;

/** One user's usage this period (`POST /v1/ai/credit-usage/users`; the answer's shape is OPEN). */
export interface UserCreditUsage {
  /** The membership id asked about. */
  userId: string;
  creditsUsed: number;
}
export interface UserCreditUsageList {
  users: UserCreditUsage[];
}

export interface UserCreditLimitRecord {
  userId: string;
  /** null = explicit unlimited override (differs from following the default). */
  creditLimit: number | null;
}
export interface UserCreditLimitList {
  records: UserCreditLimitRecord[];
  pageInfo: PageInfo;
}
export type UserCreditLimitWrite =
  | { userId: string; creditLimit: number | null }
  | { userId: string; useDefaultLimit: true };
export interface UserCreditLimitPatch {
  users: UserCreditLimitWrite[];
}
export interface UserCreditLimitPatchResult {
  users: { userId: string; creditLimit: number | null; usesDefaultLimit: boolean }[];
}

export interface UserGroupCreditLimitRecord {
  /** The group's id in the credit-limit API (gaps.md: the SCIM id or a uuid; OPEN). */
  userGroupId: string;
  /** null = explicit unlimited override (differs from following the default). */
  creditLimit: number | null;
}
export interface UserGroupCreditLimitList {
  records: UserGroupCreditLimitRecord[];
  pageInfo: PageInfo;
}
export type UserGroupCreditLimitWrite =
  | { userGroupId: string; creditLimit: number | null }
  | { userGroupId: string; useDefaultLimit: true };
export interface UserGroupCreditLimitPatch {
  userGroups: UserGroupCreditLimitWrite[];
}
export interface UserGroupCreditLimitPatchResult {
  userGroups: { userGroupId: string; creditLimit: number | null; usesDefaultLimit: boolean }[];
}

export interface EntityGroupCreditLimitRecord {
  entity: string;
  creditLimit: number | null;
}
export interface EntityGroupCreditLimitList {
  records: EntityGroupCreditLimitRecord[];
  pageInfo: PageInfo;
}
export type EntityGroupCreditLimitWrite =
  | { entity: string; creditLimit: number | null }
  | { entity: string; useDefaultLimit: true };
export interface EntityGroupCreditLimitPatch {
  entityGroups: EntityGroupCreditLimitWrite[];
}
export interface EntityGroupCreditLimitPatchResult {
  entityGroups: { entity: string; creditLimit: number | null; usesDefaultLimit: boolean }[];
}

// ---- AI routines ----------------------------------------------------------------------------

export interface EmailDestination {
  type: 'email';
  recipientEmails: string[];
  userGroupIds: string[];
}
export interface SlackDestination {
  type: 'slack';
  /** `C…` for a channel, `U…` for a user. */
  recipientId: string;
  slackRecipientType: 'channel' | 'users';
}
export type RoutineDestination = EmailDestination | SlackDestination;

/** Body of `POST /api/v1/ai/routines`. */
export interface RoutineCreate {
  name: string;
  prompt: string;
  schedule: string;
  timezone: string;
  modelId: string;
  destination: RoutineDestination;
  branchId?: string | null;
  description?: string | null;
  topicName?: string | null;
}

/**
 * Body of `PATCH /api/v1/ai/routines/{id}`, the generated client's update (not in the vendor's
 * documents): every field optional; no isActive, model, branch or topic.
 */
export interface RoutinePatch {
  name?: string;
  prompt?: string;
  schedule?: string;
  timezone?: string;
  description?: string | null;
  destination?: RoutineDestination;
}

/**
 * Body of `PUT /api/v1/ai/routines/{id}`, the documented update: name, prompt and schedule
 * required; description, model and `isActive` (pause/resume) optional. It has no timezone,
 * destination, branch or topic.
 */
export interface RoutinePut {
  name: string;
  prompt: string;
  schedule: string;
  description?: string | null;
  modelId?: string;
  isActive?: boolean;
}

export interface RoutineLastRun {
  /** Null while the run has not completed. */
  completedAt: string | null;
  label: string;
  state: string;
}

export interface Routine {
  id: string;
  name: string;
  prompt: string;
  schedule: string;
  timezone: string;
  modelId: string;
  branchId: string | null;
  topicName: string | null;
  description: string | null;
  destination: RoutineDestination;
  /** Paused by its owner. */
  disabled: boolean;
  /** Disabled by the platform (server-managed). */
  systemDisabled: boolean;
  systemDisabledReason: string | null;
  lastRun: RoutineLastRun | null;
  recipientCount: number;
  /** Null from a server that leaves it out. */
  createdAt: string | null;
  updatedAt: string;
}
export interface RoutineList {
  records: Routine[];
  pageInfo: PageInfo;
}

// ---- labels and documents -------------------------------------------------------------------

export interface Label {
  name: string;
  color: string | null;
  description: string | null;
  homepage: boolean;
  verified: boolean;
  usage_count: number;
}
export interface LabelList {
  labels: Label[];
}
export interface LabelCreate {
  name: string;
  color?: string | null;
  description?: string | null;
  verified?: boolean;
  homepage?: boolean;
}
/** `PUT /api/v1/labels/{name}`: any subset; a new `name` renames. */
export type LabelUpdate = Partial<LabelCreate>;

export interface DocumentFolder {
  id: string;
  name: string;
  path: string;
  scope: string;
}
export interface DocumentRecord {
  identifier: string;
  /** Null only from a server that leaves it out (the shape check reads a missing name as null). */
  name: string | null;
  connectionId: string;
  deleted: boolean;
  description: string | null;
  folder: DocumentFolder | null;
  hasDashboard: boolean;
  owner: { id: string; name: string };
  /** `restricted` or `organization` as seen; other values are passed through. */
  scope: string;
  /** `document` as seen. */
  type: string;
  updatedAt: string | null;
  url: string;
  /** Present when `include=labels`. */
  labels?: string[];
}
export interface DocumentList {
  records: DocumentRecord[];
  pageInfo: PageInfo;
}
export interface DocumentLabelsPatch {
  add?: string[];
  remove?: string[];
}
export interface DocumentLabelsPatchResult {
  labels: string[];
}

// ---- folders -------------------------------------------------------------------------------

/** A folder as `GET /api/v1/folders` lists it; steward reads its id, path and (with include=labels) labels. */
export interface FolderRecord {
  id: string;
  /** Where it sits, as the list filters it; null from a server that leaves it out. */
  path: string | null;
  name: string | null;
  /** Present with `include=labels`. */
  labels?: string[];
}
export interface FolderList {
  records: FolderRecord[];
  pageInfo: PageInfo;
}
/** `PATCH /api/v1/folders/{folderId}/labels`: label names to add and to remove, atomically. */
export interface FolderLabelsPatch {
  add?: string[];
  remove?: string[];
}
export interface FolderLabelsPatchResult {
  labels: string[];
}

// ---- SCIM -----------------------------------------------------------------------------------

export interface ScimEmail {
  value: string;
  primary: boolean;
}
export interface ScimUser {
  schemas: string[];
  id: string;
  userName: string;
  displayName: string;
  active: boolean;
  emails: ScimEmail[];
  groups: { value: string; display: string }[];
}
export interface ScimGroup {
  schemas: string[];
  id: string;
  displayName: string;
  members: { value: string; display: string }[];
}
export interface ScimList<T> {
  schemas: string[];
  Resources: T[];
  totalResults: number;
  /** Required by SCIM only for partial results. */
  itemsPerPage?: number;
  startIndex?: number;
}

// ---- API keys -------------------------------------------------------------------------------

export type ApiKeyType = 'organization' | 'personal' | 'mcp';
export interface ApiKeyRecord {
  id: string;
  name: string;
  type: ApiKeyType;
  enabled: boolean;
  createdAt: string;
  membershipId: string | null;
}
export interface ApiKeyList {
  records: ApiKeyRecord[];
  pageInfo: PageInfo;
}

// ---- models ---------------------------------------------------------------------------------

/** An active branch of a model (`include=activeBranches`); the vendor lets its name be null. */
export interface ModelBranch {
  id: string;
  name: string | null;
}
/** A model as `GET /api/v1/models` lists it (gaps.md "Models"). */
export interface ModelRecord {
  id: string;
  name: string | null;
  modelKind: string | null;
  baseModelId: string | null;
  connectionId: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** Present with `include=activeBranches`. */
  branches?: ModelBranch[];
}
export interface ModelList {
  records: ModelRecord[];
  pageInfo: PageInfo;
}
/** One topic of a model; steward reads only its name. */
export interface ModelTopic {
  name: string;
  label?: string;
  hidden?: boolean;
}
export interface ModelTopicList {
  success: boolean;
  topics: ModelTopic[];
}
