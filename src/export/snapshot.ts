// Reading an instance's live state as a whole, for export and promotion: the same list endpoints
// and read functions a plan uses (pageSize 100, one documents query per label in use), with a
// "desired" that covers everything live, and user ids resolved to e-mails through SCIM.
import type { PlatformApi } from '../api/platform.js';
import type { CreditControls, Label, ModelRecord, Routine, Whoami } from '../api/types.js';
import type { Kind } from '../config/types.js';
import { emailKey, labelKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { creditControls } from '../kinds/creditControls/creditControls.js';
import { documentLabels } from '../kinds/labels/documentLabels.js';
import type { ReadContext } from '../model/kind.js';
import { labels, type DesiredLabels } from '../kinds/labels/labels.js';
import { REGISTRY } from '../kinds/registry.js';
import { listKey, routines, type RoutineOwner } from '../kinds/routines/routines.js';
import { userCreditLimits, type LiveUserLimits } from '../kinds/limits/userCreditLimits.js';
import { entityGroupCreditLimits } from '../kinds/limits/entityGroupCreditLimits.js';
import { userGroupCreditLimits } from '../kinds/limits/userGroupCreditLimits.js';
import { Directory, type CallerUser } from '../resolve/directory.js';
import { isRoutineModel, ROUTINE_MODEL_KIND } from '../resolve/models.js';
import { adminProblem, keyUser } from '../resolve/preflight.js';

/** One individual credit limit, with the user's e-mail when SCIM knows it. */
export interface LiveUserLimit {
  userId: string;
  email: string | undefined;
  creditLimit: number | null;
}

/** One user group limit, with the group's display name when SCIM gives it (and no other group has it). */
export interface LiveGroupLimit {
  userGroupId: string;
  /** Undefined when SCIM does not know the id (a uuid-keyed API, a key without SCIM) or the name is not unique. */
  name: string | undefined;
  creditLimit: number | null;
}

/** One entity group limit. */
export interface LiveEntityLimit {
  entity: string;
  creditLimit: number | null;
}

/** The routines of one owner: `owner` undefined is the API key's own user (routines without `owner:`). */
export interface LiveOwnerRoutines {
  owner: string | undefined;
  routines: Routine[];
}

/** What was read, per kind; a kind not asked for is absent. */
export interface LiveSnapshot {
  creditControls?: CreditControls;
  userCreditLimits?: LiveUserLimit[];
  userGroupCreditLimits?: LiveGroupLimit[];
  entityGroupCreditLimits?: LiveEntityLimit[];
  routines?: LiveOwnerRoutines[];
  /** The shared models with their branches, read with routines: routines name them by name. */
  models?: ModelRecord[];
  labels?: Label[];
  /** Label name (as live) → identifiers of the documents carrying it. */
  documents?: Map<string, string[]>;
  /** Label name (as live) → the folders carrying it (by path, or id where the server gives no path). */
  folders?: Map<string, string[]>;
  /** The user the API key acts as; none for an organization key tied to no user. */
  caller: CallerUser | undefined;
  /** Why routines were asked for but not read (a key tied to no user, and no owner named). */
  routinesNotRead?: string;
}

export interface SnapshotRequest {
  kinds: readonly Kind[];
  /**
   * E-mails of users whose routines are read too (organization keys), with `owner:`. The key's
   * own user is read as well when it has one; named here, its routines carry `owner:` too.
   */
  owners?: readonly string[];
  /**
   * E-mails whose routines are read instead when `owners` is empty and the key has no user of its
   * own (an organization key tied to no user): export passes the owners the config names.
   */
  ownersWithoutKeyUser?: readonly string[];
  /** Labels (by name) whose documents are read; every label in use when absent. */
  documentsOf?: readonly string[];
  /** Labels (by name) whose folders are read; every label when absent. */
  foldersOf?: readonly string[];
  /** Checks whoami before anything else is read (e.g. that every routine can be given an owner). */
  checkKey?: (whoami: Whoami) => void;
}

/** Reads the live state of `kinds` with the fewest requests; throws one clear error when the key cannot. */
export async function readSnapshot(api: PlatformApi, request: SnapshotRequest): Promise<LiveSnapshot> {
  const kinds = new Set(request.kinds);
  const whoami = await api.whoami();
  checkPermissions(whoami, kinds, request.owners ?? []);
  request.checkKey?.(whoami);
  const caller = keyUser(whoami);
  const directory = new Directory(whoami.keyScope === 'organization' ? api : undefined, caller, whoami.keyScope);
  const named = request.owners ?? [];
  const emails = named.length === 0 && caller === undefined && whoami.keyScope === 'organization' ? request.ownersWithoutKeyUser ?? [] : named;
  // The live user limits need no identity: listed while the routine owners are resolved. Their
  // users are named after that, so when some are live, even one owner is looked up by the SCIM
  // listing's page 1, which may name them too (a listing that failed says no: its error is its
  // own read's, and an unknown owner is still told as such).
  const stopping = new AbortController();
  const userLimits = kinds.has('userCreditLimits') ? (userCreditLimits.start!(api, stopping.signal) as Promise<LiveUserLimits>) : undefined;
  userLimits?.catch(() => undefined); // awaited below, or settled before an error is thrown
  let owners: Awaited<ReturnType<typeof routineOwners>> = [];
  try {
    if (kinds.has('routines')) owners = await routineOwners(directory, emails, async () => (userLimits === undefined ? false : userLimits.then((live) => live.size > 0, () => false)));
  } catch (error) {
    stopping.abort();
    await Promise.allSettled([userLimits]);
    throw error;
  }
  const context: ReadContext = { api, directory, live: {} };
  const snapshot: LiveSnapshot = { caller };
  if (kinds.has('routines') && owners.length === 0) {
    // Listing without userId would read nobody's routines (or be refused): say so instead.
    snapshot.routinesNotRead = 'this organization API key is tied to no user (whoami names none), so it has no routines of its own, and no routine owner was named';
  }
  const documentsOf = request.documentsOf === undefined ? undefined : new Set(request.documentsOf.map(labelKey));
  const foldersOf = request.foldersOf === undefined ? undefined : new Set(request.foldersOf.map(labelKey));
  await Promise.all([
    kinds.has('creditControls') ? creditControls.read(context, {}).then((live) => void (snapshot.creditControls = live)) : undefined,
    userLimits !== undefined ? readUserLimits({ ...context, started: userLimits }).then((live) => void (snapshot.userCreditLimits = live)) : undefined,
    kinds.has('userGroupCreditLimits') ? readGroupLimits(context).then((live) => void (snapshot.userGroupCreditLimits = live)) : undefined,
    kinds.has('entityGroupCreditLimits')
      ? entityGroupCreditLimits.read(context, { limits: [], prune: false, isProtected: () => false }).then((live) => {
        snapshot.entityGroupCreditLimits = [...live].map(([entity, creditLimit]) => ({ entity, creditLimit }));
      })
      : undefined,
    owners.length > 0 ? readRoutines(context, owners).then((live) => void (snapshot.routines = live)) : undefined,
    owners.length > 0 ? readModels(api).then((live) => void (snapshot.models = live)) : undefined,
    kinds.has('labels') || kinds.has('documentLabels') || kinds.has('folderLabels')
      ? readLabels(context, { documents: kinds.has('documentLabels'), folders: kinds.has('folderLabels') }, documentsOf, foldersOf).then((live) => Object.assign(snapshot, live))
      : undefined,
  ]);
  // The key's own user by e-mail, when the reads above happened to name it.
  const callerEmail = caller === undefined ? undefined : directory.emailOf(caller.id);
  if (caller !== undefined && callerEmail !== undefined) snapshot.caller = { id: caller.id, email: callerEmail };
  return snapshot;
}

function checkPermissions(whoami: Whoami, kinds: ReadonlySet<Kind>, owners: readonly string[]): void {
  const problems: string[] = [];
  const admin = adminProblem(whoami, [...kinds].flatMap((kind) => REGISTRY.get(kind) ?? []));
  if (admin !== undefined) problems.push(admin);
  if (whoami.keyScope === 'user' && kinds.has('routines') && owners.length > 0) {
    problems.push('reading other users\' routines needs an organization API key; this is a personal (user-scoped) token');
  }
  if (problems.length > 0) {
    throw new StewardError('read.permissions', `this API key cannot read what was asked:\n  - ${problems.join('\n  - ')}`, 'user', {
      hint: 'leave those kinds out (--kind), or use an organization key with the Organization Admin role',
    });
  }
}

/**
 * The owners whose routines are read, as `desired()` of routines makes them: the key's own user
 * first (if it has one; by `userId` for an organization key), then each other e-mail once. The
 * key's own routines are written without `owner:` unless its user is named explicitly.
 */
async function routineOwners(directory: Directory, emails: readonly string[], listingAhead: () => Promise<boolean>): Promise<(RoutineOwner & { email: string | undefined })[]> {
  await directory.resolveEmails(emails, { listingAhead });
  const caller = directory.caller;
  const owners = new Map<string, RoutineOwner & { email: string | undefined }>();
  if (directory.keyScope === 'user') owners.set('', { key: '', userId: undefined, display: undefined, email: undefined });
  else if (caller !== undefined) owners.set('', { key: '', userId: caller.id, display: undefined, email: undefined });
  for (const email of emails) {
    const userId = directory.idOf(email);
    const self = owners.get('');
    if (self !== undefined && userId === caller?.id) {
      self.email = emailKey(email);
      continue;
    }
    if (owners.has(userId)) continue;
    owners.set(userId, { key: userId, userId, display: emailKey(email), email: emailKey(email) });
  }
  return [...owners.values()];
}

async function readUserLimits(context: ReadContext): Promise<LiveUserLimit[]> {
  const everyone = { users: [], prune: false, isProtected: () => false, display: (userId: string) => userId, named: () => true, scim: false };
  const live = await userCreditLimits.read(context, everyone);
  // Export names every user it can by e-mail (reading resolves only those a prune would touch),
  // and the key's own user with them (whoami gives no e-mail), in the same lookups.
  const caller = context.directory.caller;
  await context.directory.resolveIds([...live.keys(), ...(caller === undefined || live.size === 0 ? [] : [caller.id])]);
  return [...live].map(([userId, creditLimit]) => ({ userId, email: context.directory.emailOf(userId), creditLimit }));
}

/**
 * Every user group limit, named by display name where SCIM knows its id under a name no other
 * group has (one listing of the groups, organization keys only); by id otherwise.
 */
async function readGroupLimits(context: ReadContext): Promise<LiveGroupLimit[]> {
  const live = await userGroupCreditLimits.read(context, { limits: [], prune: false, isProtected: () => false });
  const groups = context.directory.groups(context.api);
  if (live.limits.size > 0 && context.directory.keyScope === 'organization') await groups.listAll();
  return [...live.limits].map(([userGroupId, creditLimit]) => {
    const name = groups.nameOf(userGroupId);
    return { userGroupId, name: name !== undefined && groups.named(name).length === 1 ? name : undefined, creditLimit };
  });
}

async function readRoutines(context: ReadContext, owners: (RoutineOwner & { email: string | undefined })[]): Promise<LiveOwnerRoutines[]> {
  const live = await routines.read(context, { routines: [], owners, prune: false, isProtected: () => false, update: 'put' });
  return owners.map((owner) => ({ owner: owner.email, routines: live.get(listKey(owner)) ?? [] }));
}

/** Every shared model with its branches: one listing (a page per hundred models). */
async function readModels(api: PlatformApi): Promise<ModelRecord[]> {
  const models: ModelRecord[] = [];
  for await (const model of api.listModels({ modelKind: ROUTINE_MODEL_KIND, branches: true })) if (isRoutineModel(model)) models.push(model);
  return models;
}

/**
 * Every label; with `with.documents`, the documents of each label in use (none asked for unused
 * ones), only of the labels in `documentsOf` (label keys) when given; with `with.folders`, the
 * folders of each label (one listing of the folders, made when some label is in use), only of
 * the labels in `foldersOf` when given.
 */
async function readLabels(
  context: ReadContext,
  withCarriers: { documents: boolean; folders: boolean },
  documentsOf: ReadonlySet<string> | undefined,
  foldersOf: ReadonlySet<string> | undefined,
): Promise<Pick<LiveSnapshot, 'labels' | 'documents' | 'folders'>> {
  const live = await labels.read(context, { labels: [], prune: false, isProtected: () => false });
  const [documents, folders] = await Promise.all([
    withCarriers.documents ? readDocuments(context, live, documentsOf) : undefined,
    withCarriers.folders ? readFolders(context, live, foldersOf) : undefined,
  ]);
  return { labels: live, ...(documents === undefined ? {} : { documents }), ...(folders === undefined ? {} : { folders }) };
}

async function readDocuments(context: ReadContext, live: Label[], documentsOf: ReadonlySet<string> | undefined): Promise<Map<string, string[]>> {
  const included = live.filter((label) => documentsOf === undefined || documentsOf.has(labelKey(label.name)));
  const everyLabel: DesiredLabels = {
    labels: included.map((label) => ({ name: label.name, renamedFrom: [], fields: {}, documents: [], pruneDocuments: false, folders: undefined, pruneFolders: false, ignore: [] })),
    prune: false,
    isProtected: () => false,
  };
  const carrying = await documentLabels.read({ ...context, live: { labels: live } }, everyLabel);
  return new Map(included.map((label) => [label.name, [...(carrying.get(labelKey(label.name))?.keys() ?? [])]]));
}

async function readFolders(context: ReadContext, live: Label[], foldersOf: ReadonlySet<string> | undefined): Promise<Map<string, string[]>> {
  const included = live.filter((label) => foldersOf === undefined || foldersOf.has(labelKey(label.name)));
  const folders = new Map(included.map((label) => [labelKey(label.name), [] as string[]]));
  // A label in use may be on a folder; with none in use, no folder carries any.
  if (included.some((label) => label.usage_count > 0)) {
    for await (const folder of context.api.listFolders({ include: ['labels'] })) {
      for (const name of folder.labels ?? []) folders.get(labelKey(name))?.push(folder.path ?? folder.id);
    }
  }
  return new Map(included.map((label) => [label.name, folders.get(labelKey(label.name))!]));
}
