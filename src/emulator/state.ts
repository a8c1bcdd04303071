// The emulator's whole world as plain JSON-serialisable data: what a seed becomes, what a reset
// restores, what `--state FILE` persists. Handlers read and change it; wire shapes are derived
// from it by the area modules.
import { stableUuid } from './ids.js';
import type {
  ApiKeyType,
  CreditControlSettings,
  OrgRole,
  RoutineDestination,
  RoutineLastRun,
} from '../api/types.js';
import type { SeedDocument, SeedModel } from './seedTypes.js';

export const STATE_VERSION = 1;

/** The emulator's model roles, as a seed names them (whoami reports each as `baseRole`, possibly under a custom `roleName`). */
export type ModelRoleName = NonNullable<SeedModel['defaultRole']>;

export interface StoredOrganization {
  id: string;
  name: string;
  /** false: every credit-control endpoint answers 403. */
  creditControlsEnabled: boolean;
  /** false: every routine endpoint answers 403. */
  routinesEnabled: boolean;
  /** Creating or resuming a routine beyond this many active ones answers 429. */
  maxActiveRoutinesPerUser: number;
  /** whoami without `modelId` lists at most this many models and sets `rolesByModelTruncated`. */
  whoamiModelLimit: number;
  /** How long a triggered run stays in progress (a second trigger meanwhile answers 409). */
  routineRunSeconds: number;
}

export interface StoredUser {
  /**
   * Membership id: the `userId` of credit limits and routines, whoami's `user.membershipId`, and
   * (unless `scimUserIds: user`) the SCIM user id. The user's own id is `baseUserId(user)`.
   */
  id: string;
  email: string;
  displayName: string;
  role: OrgRole;
  active: boolean;
  embedExternalId: string | null;
}

export interface StoredGroup {
  /** Short SCIM id. */
  id: string;
  /** The uuid form that routine `userGroupIds` use. */
  uuid: string;
  displayName: string;
  memberIds: string[];
}

export interface StoredModel {
  id: string;
  name: string;
  /** Role of users not listed in `roles`; null = no access. */
  defaultRole: ModelRoleName | null;
  /** Per-user roles by user id. */
  roles: Record<string, ModelRoleName>;
  topics: string[];
  branches: { id: string; name: string }[];
  /** Custom role names whoami reports as `roleName` (default: the base role's name). */
  roleNames?: Partial<Record<ModelRoleName, string>>;
  /** The model kind the models list reports; absent (state files from before) = SHARED. */
  modelKind?: string;
  createdAt?: string;
}

export interface StoredDocument {
  identifier: string;
  name: string;
  description: string | null;
  ownerId: string;
  connectionId: string;
  /** The folder as the seed gives it: its `scope` is any text there, not only `restricted` or `organization`. */
  folder: NonNullable<SeedDocument['folder']> | null;
  scope: 'restricted' | 'organization';
  hasDashboard: boolean;
  deleted: boolean;
  updatedAt: string | null;
  /** Ids of the labels applied (ids, so a renamed label stays applied). */
  labelIds: string[];
}

/** A folder; labels are kept by id, so a renamed label stays applied. */
export interface StoredFolder {
  id: string;
  name: string;
  /** Where it sits, as the folders list gives and filters it (`finance/board-packs`). */
  path: string;
  scope: 'restricted' | 'organization';
  ownerId: string;
  labelIds: string[];
}

export interface StoredLabel {
  id: string;
  name: string;
  color: string | null;
  description: string | null;
  verified: boolean;
  homepage: boolean;
}

export interface StoredRoutine {
  id: string;
  ownerId: string;
  name: string;
  prompt: string;
  schedule: string;
  timezone: string;
  modelId: string;
  branchId: string | null;
  topicName: string | null;
  description: string | null;
  destination: RoutineDestination;
  disabled: boolean;
  systemDisabled: boolean;
  systemDisabledReason: string | null;
  lastRun: RoutineLastRun | null;
  /** The latest triggered run; it counts as `lastRun` once `completesAt` has passed. */
  pendingRun: { id: string; startedAt: string; completesAt: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface StoredCreditControls extends CreditControlSettings {
  /** Stored whatever the knobs serve (null = unlimited). */
  entityGroupDefaultCredits: number | null;
  accountCreditLimit: number;
  creditsUsed: number;
}

export interface StoredApiToken {
  id: string;
  name: string;
  type: ApiKeyType;
  /** Role of an organization key; null for user-scoped tokens (they carry their user's role). */
  role: OrgRole | null;
  /** Personal and MCP tokens: their user. Organization keys: the user who created the key. */
  ownerId: string;
  enabled: boolean;
  createdAt: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  tokenSha256: string;
}

export interface EmulatorState {
  version: typeof STATE_VERSION;
  organization: StoredOrganization;
  users: StoredUser[];
  groups: StoredGroup[];
  models: StoredModel[];
  documents: StoredDocument[];
  /** Absent from state files written before folders were kept: read as none. */
  folders: StoredFolder[];
  labels: StoredLabel[];
  routines: StoredRoutine[];
  creditControls: StoredCreditControls;
  /** Individual user credit limits by user id; null = explicit unlimited override. */
  userCreditLimits: Record<string, number | null>;
  /** This period's usage by user id (absent = 0); absent from state files written before it was kept. */
  userCreditUsage?: Record<string, number>;
  /** User group credit limits by SCIM group id (the API speaks SCIM ids or uuids: a knob); null = unlimited. */
  userGroupCreditLimits: Record<string, number | null>;
  /** Embed entity groups the organization knows (limits can be set only for these). */
  entityGroups: string[];
  entityGroupCreditLimits: Record<string, number | null>;
  apiTokens: StoredApiToken[];
}

/** The user with this membership id, if any. */
export function findUser(state: EmulatorState, id: string): StoredUser | undefined {
  return state.users.find((user) => user.id === id);
}

/**
 * The user's own id (whoami's `user.id`), distinct from the membership id as the vendor
 * documents: derived from it, so it is stable across starts and never stored.
 */
export function baseUserId(user: Pick<StoredUser, 'id'>): string {
  return stableUuid(`user-of-membership:${user.id}`);
}

/** The role a user holds on a model, or null when the model is not accessible to them. */
export function modelRoleOf(model: StoredModel, userId: string): ModelRoleName | null {
  return model.roles[userId] ?? model.defaultRole;
}

// Permission names from the vendor's whoami enum; which role holds which is the emulator's choice.
const VIEWER_PERMISSIONS = ['RUN_CONTENT_QUERIES', 'DOWNLOAD_CONTENT_QUERY'];
const QUERIER_PERMISSIONS = [...VIEWER_PERMISSIONS, 'QUERY_FULL_MODEL', 'QUERY_TOPICS', 'SCHEDULE', 'USE_AI', 'USE_WORKBOOKS', 'SAVE_SPREADSHEETS'];
const EDITOR_PERMISSIONS = [...QUERIER_PERMISSIONS, 'QUERY_SQL', 'VIEW_SQL', 'UPLOAD_CSV', 'UPDATE_RESTRICTED'];
const PERMISSIONS: Record<ModelRoleName, string[]> = {
  VIEWER: VIEWER_PERMISSIONS,
  QUERIER: QUERIER_PERMISSIONS,
  EDITOR: EDITOR_PERMISSIONS,
  MANAGER: [...EDITOR_PERMISSIONS, 'UPDATE'],
};

/** Effective permissions of a model role, as whoami reports them. */
export function permissionsOf(role: ModelRoleName): string[] {
  return [...PERMISSIONS[role]];
}
