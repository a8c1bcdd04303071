// A typed, read-only window on the emulator's state for tests and tools: wire shapes (the same
// functions the endpoints use) looked up without HTTP, tokens or rate limits.
import type {
  ApiKeyRecord,
  CreditControls,
  EntityGroupCreditLimitRecord,
  Label,
  DocumentedRoutine,
  UserCreditLimitRecord,
  UserGroupCreditLimitRecord,
} from '../api/types.js';
import { emailKey } from '../domain/rules.js';
import { apiKeyRecords } from './areas/apiKeys.js';
import { toCreditControls } from './areas/creditControls.js';
import { folderLabelNames } from './areas/folders.js';
import { entityGroupCreditLimitRecords, userCreditLimitRecords, userGroupCreditLimitRecords } from './areas/creditLimits.js';
import { documentLabelNames } from './areas/documents.js';
import { labelList } from './areas/labels.js';
import { toRoutine } from './areas/routines.js';
import type { EmulatorState, StoredUser } from './state.js';

export interface EmulatorStateView {
  /** A deep copy of the whole state. */
  snapshot(): EmulatorState;
  users(): StoredUser[];
  /** The membership id of the user with this e-mail; throws when there is none. */
  userId(email: string): string;
  /** Routines as the API shows them, oldest first; only those of `ownerEmail` when given. */
  routines(ownerEmail?: string): DocumentedRoutine[];
  routine(id: string): DocumentedRoutine | undefined;
  labels(): Label[];
  /** Label names on a document, ordered by name; throws for an unknown document. */
  documentLabels(identifier: string): string[];
  /** Label names on the folder at `path`, ordered by name; throws for an unknown folder. */
  folderLabels(path: string): string[];
  creditControls(): CreditControls;
  userCreditLimits(): UserCreditLimitRecord[];
  /** User group limits as the API lists them, by SCIM id (`userGroupIdForm` only changes the wire). */
  userGroupCreditLimits(): UserGroupCreditLimitRecord[];
  entityGroupCreditLimits(): EntityGroupCreditLimitRecord[];
  apiKeys(): ApiKeyRecord[];
}

/** A view reading the current state each call (so it follows writes, resets and reloads). */
export function createStateView(current: () => EmulatorState, clock: () => number = Date.now): EmulatorStateView {
  const userId = (email: string): string => {
    const user = current().users.find((candidate) => emailKey(candidate.email) === emailKey(email));
    if (!user) throw new Error(`no user with e-mail ${email} in the emulator`);
    return user.id;
  };
  return {
    snapshot: () => structuredClone(current()),
    users: () => structuredClone(current().users),
    userId,
    routines: (ownerEmail) => {
      const state = current();
      const ownerId = ownerEmail === undefined ? undefined : userId(ownerEmail);
      return [...state.routines]
        .filter((routine) => ownerId === undefined || routine.ownerId === ownerId)
        .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
        .map((routine) => toRoutine(routine, state, new Date(clock())));
    },
    routine: (id) => {
      const state = current();
      const routine = state.routines.find((candidate) => candidate.id === id);
      return routine ? toRoutine(routine, state, new Date(clock())) : undefined;
    },
    labels: () => labelList(current()),
    documentLabels: (identifier) => {
      const state = current();
      const document = state.documents.find((candidate) => candidate.identifier === identifier);
      if (!document) throw new Error(`no document ${identifier} in the emulator`);
      return documentLabelNames(document, state);
    },
    // The whole stored state, the entity-group default included, whatever the knobs serve.
    folderLabels: (path) => {
      const state = current();
      const folder = state.folders.find((candidate) => candidate.path === path);
      if (!folder) throw new Error(`no folder ${path} in the emulator`);
      return folderLabelNames(folder, state);
    },
    creditControls: () => toCreditControls(current(), new Date(clock()), true),
    userCreditLimits: () => userCreditLimitRecords(current()),
    userGroupCreditLimits: () => userGroupCreditLimitRecords(current(), 'scim'),
    entityGroupCreditLimits: () => entityGroupCreditLimitRecords(current()),
    apiKeys: () => apiKeyRecords(current()),
  };
}
