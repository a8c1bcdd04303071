// Live state → configuration, per kind. Pure: the inverse of each kind's `desired`, so that a
// configuration made from these sections plans to nothing against the state it was read from.
// Users are named by e-mail where SCIM knows them; server-managed fields (usage_count, lastRun,
// timestamps, creditsUsed) are left out; output is sorted so two exports of one state are equal.
import type { CreditControls, Label, ModelRecord, Routine } from '../api/types.js';
import { CREDIT_CONTROL_FIELDS } from '../api/types.js';
import type {
  CreditControlsConfig,
  EntityGroupCreditLimitConfig,
  LabelConfig,
  RoutineConfig,
  StewardConfig,
  UserCreditLimitConfig,
  UserGroupCreditLimitConfig,
} from '../config/types.js';
import { labelKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { liveState } from '../kinds/routines/routineState.js';
import type { LiveEntityLimit, LiveGroupLimit, LiveOwnerRoutines, LiveSnapshot, LiveUserLimit } from './snapshot.js';

/** The kind sections of a configuration (everything but `version`, `environments` and `prune`). */
export type ConfigSections = Pick<StewardConfig, 'creditControls' | 'userCreditLimits' | 'userGroupCreditLimits' | 'entityGroupCreditLimits' | 'routines' | 'labels'>;

/** Every credit-control setting steward manages, as live (the entity-group default only where the instance shows it). */
export function creditControlsConfig(live: CreditControls): CreditControlsConfig {
  const config: CreditControlsConfig = {};
  for (const field of CREDIT_CONTROL_FIELDS) if (live[field] !== undefined) config[field] = live[field];
  return config;
}

/** One entry per individual limit: by e-mail when known, else by user id; sorted. */
export function userCreditLimitsConfig(live: readonly LiveUserLimit[]): UserCreditLimitConfig[] {
  return live
    .map((limit): UserCreditLimitConfig =>
      limit.email === undefined ? { userId: limit.userId, creditLimit: limit.creditLimit } : { email: limit.email, creditLimit: limit.creditLimit },
    )
    .sort((a, b) => compare(a.email ?? a.userId ?? '', b.email ?? b.userId ?? ''));
}

/** One entry per user group limit: by display name where it names one group, else by id; sorted. */
export function userGroupCreditLimitsConfig(live: readonly LiveGroupLimit[]): UserGroupCreditLimitConfig[] {
  return live
    .map((limit): UserGroupCreditLimitConfig => (limit.name === undefined ? { userGroupId: limit.userGroupId, creditLimit: limit.creditLimit } : { group: limit.name, creditLimit: limit.creditLimit }))
    .sort((a, b) => compare(a.group ?? '', b.group ?? '') || compare(a.userGroupId ?? '', b.userGroupId ?? ''));
}

/** One entry per entity group limit, sorted by entity. */
export function entityGroupCreditLimitsConfig(live: readonly LiveEntityLimit[]): EntityGroupCreditLimitConfig[] {
  return live.map((limit) => ({ entity: limit.entity, creditLimit: limit.creditLimit })).sort((a, b) => compare(a.entity, b.entity));
}

/**
 * Every routine with every field steward compares (nulls written out, so they are managed too;
 * `paused` only when true, its default being false). Throws when two routines share a name,
 * which a configuration cannot express.
 */
export function routinesConfig(live: readonly LiveOwnerRoutines[], models: readonly ModelRecord[] = []): RoutineConfig[] {
  const seen = new Map<string, string | undefined>();
  const result: RoutineConfig[] = [];
  for (const { owner, routines } of live) {
    for (const routine of routines) {
      if (seen.has(routine.name)) throw duplicateRoutine(routine.name, seen.get(routine.name), owner);
      seen.set(routine.name, owner);
      result.push(routineConfig(routine, owner, models));
    }
  }
  return result.sort((a, b) => compare(a.owner ?? '', b.owner ?? '') || compare(a.name, b.name));
}

/**
 * One routine as the config writes it; `owner` undefined is the API key's own user. The model and
 * branch are written by name (the same in every deployment) where `models` names them once; an
 * id where the name is ambiguous or the model is not among them.
 */
export function routineConfig(routine: Routine, owner: string | undefined, models: readonly ModelRecord[] = []): RoutineConfig {
  const state = liveState(routine);
  return {
    name: state.name,
    ...(owner === undefined ? {} : { owner }),
    description: state.description ?? null,
    prompt: state.prompt,
    schedule: state.schedule,
    timezone: state.timezone,
    ...modelReference(state.modelId, state.branchId ?? null, models),
    topicName: state.topicName ?? null,
    destination: state.destination,
    ...(state.paused ? { paused: true } : {}),
  };
}

/** `model:` and `branch:` by name where each names exactly one, else `modelId:` / `branchId:`. */
export function modelReference(modelId: string, branchId: string | null, models: readonly ModelRecord[]): Pick<RoutineConfig, 'model' | 'modelId' | 'branch' | 'branchId'> {
  const model = models.find((candidate) => candidate.id === modelId);
  const name = model?.name ?? null;
  if (model === undefined || name === null || models.filter((candidate) => candidate.name === name).length > 1) return { modelId, branchId };
  if (branchId === null) return { model: name, branch: null };
  const branch = (model.branches ?? []).find((candidate) => candidate.id === branchId);
  // A branch without a name (the vendor allows one) can only be written by id.
  const unique = branch !== undefined && branch.name !== null && (model.branches ?? []).filter((candidate) => candidate.name === branch.name).length === 1;
  return unique && branch.name !== null ? { model: name, branch: branch.name } : { model: name, branchId };
}

/**
 * Every label, sorted by name: with every field when `fields`, else the name only; with
 * `documents` (sorted identifiers, empty for a label on no document) when its documents were read,
 * and `folders` (sorted paths) when its folders were.
 */
export function labelsConfig(
  live: readonly Label[],
  documents: ReadonlyMap<string, readonly string[]> | undefined,
  fields: boolean,
  folders?: ReadonlyMap<string, readonly string[]>,
): LabelConfig[] {
  return [...live]
    .sort((a, b) => compare(labelKey(a.name), labelKey(b.name)))
    .map((label) => ({
      name: label.name,
      ...(fields ? { color: label.color, description: label.description, verified: label.verified, homepage: label.homepage } : {}),
      ...(documents?.has(label.name) === true ? { documents: [...documents.get(label.name)!].sort(compare) } : {}),
      ...(folders?.has(label.name) === true ? { folders: [...folders.get(label.name)!].sort(compare) } : {}),
    }));
}

/** The sections of a snapshot: a section for each kind read; label fields only when labels were asked for. */
export function toConfigSections(snapshot: LiveSnapshot, options: { labelFields: boolean }): ConfigSections {
  const sections: ConfigSections = {};
  if (snapshot.creditControls !== undefined) sections.creditControls = creditControlsConfig(snapshot.creditControls);
  if (snapshot.userCreditLimits !== undefined) sections.userCreditLimits = userCreditLimitsConfig(snapshot.userCreditLimits);
  if (snapshot.userGroupCreditLimits !== undefined) sections.userGroupCreditLimits = userGroupCreditLimitsConfig(snapshot.userGroupCreditLimits);
  if (snapshot.entityGroupCreditLimits !== undefined) sections.entityGroupCreditLimits = entityGroupCreditLimitsConfig(snapshot.entityGroupCreditLimits);
  if (snapshot.routines !== undefined) sections.routines = routinesConfig(snapshot.routines, snapshot.models);
  if (snapshot.labels !== undefined) sections.labels = labelsConfig(snapshot.labels, snapshot.documents, options.labelFields, snapshot.folders);
  return sections;
}

function duplicateRoutine(name: string, first: string | undefined, second: string | undefined): StewardError {
  const whose = (owner: string | undefined) => (owner === undefined ? 'the API key\'s user' : owner);
  const owners = first === second ? `both owned by ${whose(first)}` : `owned by ${whose(first)} and by ${whose(second)}`;
  return new StewardError(
    'export.duplicate-routine',
    `two live routines are named "${name}" (${owners}); a configuration identifies routines by name, so it cannot hold both`,
    'user',
    { hint: 'rename or delete one of them in the app, then run the command again' },
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
