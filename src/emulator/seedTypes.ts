// The seed file of the emulator (`--data FILE`, YAML or JSON) as TypeScript types; the JSON
// Schema in schemas/emulator-seed.schema.json describes the same shape for ajv and editors.
import type {
  ApiKeyType,
  CreditControlSettings,
  DocumentFolder,
  OrgRole,
  RoutineDestination,
  RoutineLastRun,
} from '../api/types.js';
import type { ModelRoleName } from './state.js';

export interface SeedOrganization {
  name: string;
  id?: string;
  creditControlsEnabled?: boolean;
  routinesEnabled?: boolean;
  maxActiveRoutinesPerUser?: number;
  whoamiModelLimit?: number;
  routineRunSeconds?: number;
}

export interface SeedUser {
  id: string;
  email: string;
  displayName: string;
  role: OrgRole;
  active?: boolean;
  embedExternalId?: string;
}

export interface SeedGroup {
  id: string;
  uuid?: string;
  displayName: string;
  /** Member e-mails. */
  members?: string[];
}

export interface SeedModel {
  id: string;
  name: string;
  defaultRole?: ModelRoleName | null;
  /** Role per user e-mail. */
  roles?: Record<string, ModelRoleName>;
  /** Custom role names whoami reports as `roleName`, per base role. */
  roleNames?: Partial<Record<ModelRoleName, string>>;
  topics?: string[];
  branches?: { id: string; name: string }[];
  /** Default SHARED, the kind routines run against. */
  modelKind?: 'SCHEMA' | 'SHARED' | 'SHARED_EXTENSION' | 'BRANCH' | 'WORKBOOK' | 'QUERY';
}

export interface SeedDocument {
  identifier: string;
  name: string;
  description?: string | null;
  /** Owner e-mail. */
  owner?: string;
  labels?: string[];
  folder?: DocumentFolder | null;
  scope?: 'restricted' | 'organization';
  hasDashboard?: boolean;
  deleted?: boolean;
  updatedAt?: string | null;
  connectionId?: string;
}

export interface SeedFolder {
  id?: string;
  name: string;
  /** Where it sits, e.g. `finance/board-packs`; unique. */
  path: string;
  scope?: 'restricted' | 'organization';
  /** Owner e-mail. */
  owner?: string;
  labels?: string[];
}

export interface SeedLabel {
  name: string;
  color?: string | null;
  description?: string | null;
  verified?: boolean;
  homepage?: boolean;
}

export interface SeedRoutine {
  id?: string;
  /** Owner e-mail. */
  owner: string;
  name: string;
  prompt: string;
  schedule: string;
  timezone: string;
  modelId: string;
  branchId?: string | null;
  topicName?: string | null;
  description?: string | null;
  destination: RoutineDestination | { type: 'email'; recipientEmails?: string[]; userGroupIds?: string[] };
  disabled?: boolean;
  systemDisabled?: boolean;
  systemDisabledReason?: string | null;
  lastRun?: RoutineLastRun | null;
  createdAt?: string;
  updatedAt?: string;
}

export type SeedCreditControls = Partial<CreditControlSettings> & {
  accountCreditLimit?: number;
  creditsUsed?: number;
};

export interface SeedApiToken {
  id?: string;
  name: string;
  /** The bearer token clients send. */
  token: string;
  type: ApiKeyType;
  /** Organization keys only. */
  role?: OrgRole;
  /** E-mail of the token's user (personal, MCP) or of the key's creator (organization). */
  owner: string;
  enabled?: boolean;
  createdAt?: string;
}

export interface Seed {
  organization: SeedOrganization;
  users: SeedUser[];
  groups?: SeedGroup[];
  models?: SeedModel[];
  documents?: SeedDocument[];
  folders?: SeedFolder[];
  labels?: SeedLabel[];
  routines?: SeedRoutine[];
  creditControls?: SeedCreditControls;
  userCreditLimits?: { user: string; creditLimit: number | null }[];
  /** This period's usage per user (the credit-usage endpoint); a user left out has used 0. */
  userCreditUsage?: { user: string; creditsUsed: number }[];
  /** Limits per user group, by the group's SCIM id (`groups[].id`). */
  userGroupCreditLimits?: { group: string; creditLimit: number | null }[];
  entityGroups?: string[];
  entityGroupCreditLimits?: { entity: string; creditLimit: number | null }[];
  apiTokens: SeedApiToken[];
}
