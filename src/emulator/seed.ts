// Turns a seed (file contents or object) into the emulator's state: structural check with the
// JSON Schema, then the cross-references a schema cannot express (e-mails that name users,
// labels that exist, models a routine's owner can use, valid schedules...), all reported at once.
import { EMAIL_PATTERN, labelKey, emailKey, SLACK_ID_RULE, SLACK_RECIPIENT_PATTERN } from '../domain/rules.js';
import { checkSchedule, checkTimeZone } from '../domain/schedule.js';
import type { RoutineDestination } from '../api/types.js';
import { stableUuid, tokenDigest } from './ids.js';
import { checkSeedShape, invalidSeed, readSeedFile } from './seedFile.js';
import type { Seed } from './seedTypes.js';
import {
  modelRoleOf,
  permissionsOf,
  STATE_VERSION,
  type EmulatorState,
  type StoredDocument,
  type StoredFolder,
  type StoredModel,
  type StoredRoutine,
} from './state.js';

/** Timestamps of seed objects that give none: fixed, so every start yields the same state. */
const SEED_EPOCH = Date.parse('2025-01-06T09:00:00.000Z');
const HOUR = 3_600_000;

/** Reads, checks and converts a seed file; throws a StewardError listing every problem. */
export function loadSeedFile(path: string): EmulatorState {
  return seedToState(readSeedFile(path), path);
}

/** Checks and converts a seed object; throws a StewardError listing every problem. */
export function seedToState(data: unknown, source: string): EmulatorState {
  checkSeedShape(data, source);
  const problems: string[] = [];
  const state = convert(data, problems);
  if (problems.length > 0) throw invalidSeed(source, problems);
  return state;
}

function duplicates<T>(items: readonly T[], key: (item: T) => string, path: (index: number) => string, what: string, problems: string[]): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const value = key(item);
    const first = seen.get(value);
    if (first !== undefined) problems.push(`${path(index)}: duplicate ${what} \`${value}\` (first at ${path(first)})`);
    else seen.set(value, index);
  });
}

function convert(seed: Seed, problems: string[]): EmulatorState {
  const organizationId = seed.organization.id ?? stableUuid(`organization:${seed.organization.name}`);
  const scoped = (name: string) => stableUuid(`${organizationId}:${name}`);

  duplicates(seed.users, (user) => user.id, (i) => `/users/${i}/id`, 'user id', problems);
  duplicates(seed.users, (user) => emailKey(user.email), (i) => `/users/${i}/email`, 'e-mail', problems);
  const userIdByEmail = new Map(seed.users.map((user) => [emailKey(user.email), user.id]));
  const userRef = (email: string, path: string): string => {
    const id = userIdByEmail.get(emailKey(email));
    if (id === undefined) problems.push(`${path}: no user with e-mail \`${email}\``);
    return id ?? '';
  };
  const firstAdmin = seed.users.find((user) => user.role === 'ORG_ADMIN') ?? seed.users[0]!;

  const groups = (seed.groups ?? []).map((group, index) => ({
    id: group.id,
    uuid: group.uuid ?? scoped(`group:${group.id}`),
    displayName: group.displayName,
    memberIds: (group.members ?? []).map((email, m) => userRef(email, `/groups/${index}/members/${m}`)),
  }));
  duplicates(groups, (group) => group.id, (i) => `/groups/${i}/id`, 'group id', problems);
  duplicates(groups, (group) => group.uuid, (i) => `/groups/${i}/uuid`, 'group uuid', problems);

  const models: StoredModel[] = (seed.models ?? []).map((model, index) => ({
    id: model.id,
    name: model.name,
    defaultRole: model.defaultRole ?? null,
    roles: Object.fromEntries(
      Object.entries(model.roles ?? {}).map(([email, role]) => [userRef(email, `/models/${index}/roles/${email}`), role]),
    ),
    topics: [...(model.topics ?? [])],
    branches: (model.branches ?? []).map((branch) => ({ ...branch })),
    modelKind: model.modelKind ?? 'SHARED',
    ...(model.roleNames === undefined || Object.keys(model.roleNames).length === 0 ? {} : { roleNames: { ...model.roleNames } }),
  }));
  duplicates(models, (model) => model.id, (i) => `/models/${i}/id`, 'model id', problems);

  const labels = (seed.labels ?? []).map((label) => ({
    id: scoped(`label:${labelKey(label.name)}`),
    name: label.name,
    color: label.color ?? null,
    description: label.description ?? null,
    verified: label.verified ?? false,
    homepage: label.homepage ?? false,
  }));
  duplicates(labels, (label) => labelKey(label.name), (i) => `/labels/${i}/name`, 'label name', problems);
  const labelIdByKey = new Map(labels.map((label) => [labelKey(label.name), label.id]));

  const documents: StoredDocument[] = (seed.documents ?? []).map((document, index) => ({
    identifier: document.identifier,
    name: document.name,
    description: document.description ?? null,
    ownerId: document.owner === undefined ? firstAdmin.id : userRef(document.owner, `/documents/${index}/owner`),
    connectionId: document.connectionId ?? scoped('connection'),
    folder: document.folder ? { ...document.folder } : null,
    scope: document.scope ?? 'organization',
    hasDashboard: document.hasDashboard ?? true,
    deleted: document.deleted ?? false,
    updatedAt: document.updatedAt === undefined ? new Date(SEED_EPOCH + index * 60_000).toISOString() : document.updatedAt,
    labelIds: (document.labels ?? []).map((name, l) => {
      const id = labelIdByKey.get(labelKey(name));
      if (id === undefined) problems.push(`/documents/${index}/labels/${l}: no label named \`${name}\` in /labels`);
      return id ?? '';
    }),
  }));
  duplicates(documents, (document) => document.identifier, (i) => `/documents/${i}/identifier`, 'document identifier', problems);

  const folders: StoredFolder[] = (seed.folders ?? []).map((folder, index) => ({
    id: folder.id ?? scoped(`folder:${folder.path}`),
    name: folder.name,
    path: folder.path,
    scope: folder.scope ?? 'organization',
    ownerId: folder.owner === undefined ? firstAdmin.id : userRef(folder.owner, `/folders/${index}/owner`),
    labelIds: (folder.labels ?? []).map((name, l) => {
      const id = labelIdByKey.get(labelKey(name));
      if (id === undefined) problems.push(`/folders/${index}/labels/${l}: no label named \`${name}\` in /labels`);
      return id ?? '';
    }),
  }));
  duplicates(folders, (folder) => folder.id, (i) => `/folders/${i}/id`, 'folder id', problems);
  duplicates(folders, (folder) => folder.path, (i) => `/folders/${i}/path`, 'folder path', problems);

  const routines = (seed.routines ?? []).map((routine, index) => {
    const path = `/routines/${index}`;
    const ownerId = userRef(routine.owner, `${path}/owner`);
    checkRoutine(routine, path, ownerId, models, groups, problems);
    const createdAt = routine.createdAt ?? new Date(SEED_EPOCH + index * HOUR).toISOString();
    const destination: RoutineDestination =
      routine.destination.type === 'email'
        ? {
            type: 'email',
            recipientEmails: [...(routine.destination.recipientEmails ?? [])],
            userGroupIds: [...(routine.destination.userGroupIds ?? [])],
          }
        : { ...routine.destination };
    const stored: StoredRoutine = {
      id: routine.id ?? scoped(`routine:${emailKey(routine.owner)}:${routine.name}:${index}`),
      ownerId,
      name: routine.name,
      prompt: routine.prompt,
      schedule: routine.schedule,
      timezone: routine.timezone,
      modelId: routine.modelId,
      branchId: routine.branchId ?? null,
      topicName: routine.topicName ?? null,
      description: routine.description ?? null,
      destination,
      disabled: routine.disabled ?? false,
      systemDisabled: routine.systemDisabled ?? false,
      systemDisabledReason: routine.systemDisabledReason ?? null,
      lastRun: routine.lastRun ?? null,
      pendingRun: null,
      createdAt,
      updatedAt: routine.updatedAt ?? createdAt,
    };
    return stored;
  });
  duplicates(routines, (routine) => routine.id, (i) => `/routines/${i}/id`, 'routine id', problems);

  const creditControls = {
    downgradeCredits: seed.creditControls?.downgradeCredits ?? null,
    shutoffCredits: seed.creditControls?.shutoffCredits ?? null,
    userDefaultCredits: seed.creditControls?.userDefaultCredits ?? null,
    entityGroupDefaultCredits: seed.creditControls?.entityGroupDefaultCredits ?? null,
    accountCreditLimit: seed.creditControls?.accountCreditLimit ?? 0,
    creditsUsed: seed.creditControls?.creditsUsed ?? 0,
  };
  if (
    creditControls.downgradeCredits !== null &&
    creditControls.shutoffCredits !== null &&
    creditControls.downgradeCredits > creditControls.shutoffCredits
  ) {
    problems.push('/creditControls/downgradeCredits: must be less than or equal to shutoffCredits');
  }

  const userLimits = seed.userCreditLimits ?? [];
  duplicates(userLimits, (limit) => emailKey(limit.user), (i) => `/userCreditLimits/${i}/user`, 'user', problems);
  const userCreditLimits = Object.fromEntries(
    userLimits.map((limit, index) => [userRef(limit.user, `/userCreditLimits/${index}/user`), limit.creditLimit]),
  );
  const usage = seed.userCreditUsage ?? [];
  duplicates(usage, (entry) => emailKey(entry.user), (i) => `/userCreditUsage/${i}/user`, 'user', problems);
  const userCreditUsage = Object.fromEntries(usage.map((entry, index) => [userRef(entry.user, `/userCreditUsage/${index}/user`), entry.creditsUsed]));
  const groupLimits = seed.userGroupCreditLimits ?? [];
  duplicates(groupLimits, (limit) => limit.group, (i) => `/userGroupCreditLimits/${i}/group`, 'group', problems);
  groupLimits.forEach((limit, index) => {
    if (!groups.some((group) => group.id === limit.group)) problems.push(`/userGroupCreditLimits/${index}/group: no group with id \`${limit.group}\` in /groups`);
  });
  const entityLimits = seed.entityGroupCreditLimits ?? [];
  duplicates(entityLimits, (limit) => limit.entity, (i) => `/entityGroupCreditLimits/${i}/entity`, 'entity', problems);
  const entityGroups = [...new Set([...(seed.entityGroups ?? []), ...entityLimits.map((limit) => limit.entity)])];

  const apiTokens = seed.apiTokens.map((token, index) => ({
    id: token.id ?? scoped(`token:${token.name}:${index}`),
    name: token.name,
    type: token.type,
    role: token.type === 'organization' ? token.role : null,
    ownerId: userRef(token.owner, `/apiTokens/${index}/owner`),
    enabled: token.enabled ?? true,
    createdAt: token.createdAt ?? new Date(SEED_EPOCH + index * 24 * HOUR).toISOString(),
    tokenSha256: tokenDigest(token.token),
  }));
  // Compared by digest so the message never shows a token.
  duplicates(apiTokens, (token) => token.tokenSha256, (i) => `/apiTokens/${i}/token`, 'token (same value as another token)', problems);
  duplicates(apiTokens, (token) => token.id, (i) => `/apiTokens/${i}/id`, 'token id', problems);

  return {
    version: STATE_VERSION,
    organization: {
      id: organizationId,
      name: seed.organization.name,
      creditControlsEnabled: seed.organization.creditControlsEnabled ?? true,
      routinesEnabled: seed.organization.routinesEnabled ?? true,
      maxActiveRoutinesPerUser: seed.organization.maxActiveRoutinesPerUser ?? 50,
      whoamiModelLimit: seed.organization.whoamiModelLimit ?? 50,
      routineRunSeconds: seed.organization.routineRunSeconds ?? 0,
    },
    users: seed.users.map((user) => ({
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      role: user.role,
      active: user.active ?? true,
      embedExternalId: user.embedExternalId ?? null,
    })),
    groups,
    models,
    documents,
    folders,
    labels,
    routines,
    creditControls,
    userCreditLimits,
    userCreditUsage,
    userGroupCreditLimits: Object.fromEntries(groupLimits.map((limit) => [limit.group, limit.creditLimit])),
    entityGroups,
    entityGroupCreditLimits: Object.fromEntries(entityLimits.map((limit) => [limit.entity, limit.creditLimit])),
    apiTokens,
  };
}

function checkRoutine(
  routine: NonNullable<Seed['routines']>[number],
  path: string,
  ownerId: string,
  models: StoredModel[],
  groups: { uuid: string }[],
  problems: string[],
): void {
  const schedule = checkSchedule(routine.schedule);
  if (!schedule.ok) problems.push(`${path}/schedule: ${schedule.reason}`);
  const timezone = checkTimeZone(routine.timezone);
  if (!timezone.ok) problems.push(`${path}/timezone: ${timezone.reason}`);
  const model = models.find((candidate) => candidate.id === routine.modelId);
  if (!model) {
    problems.push(`${path}/modelId: no model with id ${routine.modelId} in /models`);
  } else {
    const role = ownerId === '' ? null : modelRoleOf(model, ownerId);
    if (ownerId !== '' && (role === null || !permissionsOf(role).includes('USE_AI'))) {
      problems.push(`${path}/owner: ${routine.owner} has no role with USE_AI on model ${model.name}`);
    }
    if (routine.branchId && !model.branches.some((branch) => branch.id === routine.branchId)) {
      problems.push(`${path}/branchId: model ${model.name} has no branch ${routine.branchId}`);
    }
    if (routine.topicName && !model.topics.includes(routine.topicName)) {
      problems.push(`${path}/topicName: model ${model.name} has no topic \`${routine.topicName}\``);
    }
  }
  const destination = routine.destination;
  if (destination.type === 'email') {
    const emails = destination.recipientEmails ?? [];
    const groupIds = destination.userGroupIds ?? [];
    if (emails.length + groupIds.length === 0) problems.push(`${path}/destination: needs at least one recipient`);
    emails.forEach((email, i) => {
      if (!EMAIL_PATTERN.test(email)) problems.push(`${path}/destination/recipientEmails/${i}: invalid e-mail address`);
    });
    groupIds.forEach((id, i) => {
      if (!groups.some((group) => group.uuid === id)) {
        problems.push(`${path}/destination/userGroupIds/${i}: no group with uuid ${id} in /groups`);
      }
    });
  } else if (!SLACK_RECIPIENT_PATTERN[destination.slackRecipientType].test(destination.recipientId)) {
    const kind = destination.slackRecipientType;
    problems.push(`${path}/destination/recipientId: not a Slack ${kind === 'channel' ? 'channel' : 'user'} id (${SLACK_ID_RULE[kind]})`);
  }
}
