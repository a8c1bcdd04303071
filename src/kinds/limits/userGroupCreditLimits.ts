// Credit limits per user group (each member gets the group's limit individually). Identity is the
// user group id the credit-limit API takes; the config names groups by SCIM display name, resolved
// per deployment before `desired` (src/resolve/groups.ts), or by id. A limit is a number, `null`
// (explicit unlimited) or "default" (no group limit). Writes are bulk PATCHes of up to 1000
// groups, sets and resets in one body, each applied atomically.
//
// Whether the API's `userGroupId` is the SCIM id or a uuid is OPEN (gaps.md). steward sends the
// SCIM id for a group named by display name; a server that wants uuids answers 404, and the
// failure says so (and the plan warns when the live list already shows uuids).
import { ApiError } from '../../api/errors.js';
import type { PlatformApi } from '../../api/platform.js';
import type { UserGroupCreditLimitWrite } from '../../api/types.js';
import { idInTarget, variableReference, type IdEnvironment } from '../../config/environmentIds.js';
import type { UserGroupCreditLimitConfig } from '../../config/types.js';
import { CREDIT_LIMIT_BATCH_MAX, idKey, UUID_PATTERN } from '../../domain/rules.js';
import { StewardError } from '../../errors.js';
import type { PlanStep, PlanWarning } from '../../model/plan.js';
import type { KindExport, ResourceKind } from '../../model/kind.js';
import { compareText, creditLimitValues, expectLimitsTaken, textOf, withOwnFlags } from '../shared.js';
import { type DesiredLimit, limitInForce, limitPresentation, limitsAfter, type LimitState, limitSteps, limitValue } from './limitSteps.js';
import { resolveUserGroups } from '../../resolve/groups.js';
import { groupLowered, liveCreditControls } from '../lowered.js';
import { protectedInEnvironment } from '../protection.js';
import { ignoredFields } from '../../config/ignore.js';

declare module '../../model/plan.js' {
  interface KindSteps {
    /** A user group's limit; `ref.userGroupId` names the group, `ref.group` its display name when the config names it so. */
    userGroupCreditLimits: { state: LimitState; ref: { userGroupId: string; group?: string } };
  }
}

export interface DesiredUserGroupLimits {
  limits: (DesiredLimit & { byName: boolean })[];
  prune: boolean;
  /** Whether a live limit of this group must survive pruning (by id, or by its display name). */
  isProtected: (userGroupId: string, name: string | undefined) => boolean;
}

export interface LiveUserGroupLimits {
  /** userGroupId → limit (null = explicit unlimited). */
  limits: Map<string, number | null>;
  /** Display names of the groups SCIM was asked about (undeclared ones, when pruning). */
  names: Map<string, string>;
}

// Export: every group limit, its group named by display name where SCIM gives one no other group has.

/** One user group limit, with the group's display name when SCIM gives it (and no other group has it). */
export interface LiveGroupLimit {
  userGroupId: string;
  /** Undefined when SCIM does not know the id (a uuid-keyed API, a key without SCIM) or the name is not unique. */
  name: string | undefined;
  creditLimit: number | null;
}

const userGroupCreditLimitsExport: KindExport<DesiredUserGroupLimits, LiveUserGroupLimits, LiveGroupLimit[]> = {
  async read(context) {
    const live = await context.read({ limits: [], prune: false, isProtected: () => false });
    // The groups' names: one listing of the groups (a page per hundred), organization keys only.
    const groups = context.directory.groups(context.api);
    if (live.limits.size > 0 && context.directory.keyScope === 'organization') await groups.listAll();
    return [...live.limits].map(([userGroupId, creditLimit]) => {
      const name = groups.nameOf(userGroupId);
      return { userGroupId, name: name !== undefined && groups.named(name).length === 1 ? name : undefined, creditLimit };
    });
  },
  section: userGroupCreditLimitsConfig,
  holds: () => 'user group credit limits',
  environmentIds: { refer: referGroupIds, translate: translateGroupIds },
  promoted: {
    // Groups are matched by display name (exactly, as SCIM resolves them), or by id when both sides
    // give one: a name is never taken for a declared id that spells it, as `entries.hasKey` would.
    declaredFor: (entry: UserGroupCreditLimitConfig, declared: readonly UserGroupCreditLimitConfig[]) =>
      declared.find((candidate) => (entry.group !== undefined ? candidate.group === entry.group : candidate.userGroupId === entry.userGroupId)),
    withFlags: withOwnFlags<UserGroupCreditLimitConfig>,
  },
};

/** One entry per user group limit: by display name where it names one group, else by id; sorted. */
export function userGroupCreditLimitsConfig(live: readonly LiveGroupLimit[]): UserGroupCreditLimitConfig[] {
  return live
    .map((limit): UserGroupCreditLimitConfig => (limit.name === undefined ? { userGroupId: limit.userGroupId, creditLimit: limit.creditLimit } : { group: limit.name, creditLimit: limit.creditLimit }))
    .sort((a, b) => compareText(a.group ?? '', b.group ?? '') || compareText(a.userGroupId ?? '', b.userGroupId ?? ''));
}

// The limits export and promotion cannot name (`userGroupId:` entries: SCIM does not know the id,
// as on a server that keys limits by uuid, or two groups share the name). Their ids differ between
// deployments, so they go through environment variables as a routine's model id does: export
// writes `${var.NAME}` for an id a variable holds; a promotion maps a source id to the target's
// through the variable of the same name, and refuses an id no variable maps.

/** Replaces the id of every limit not named by its group with `map(id)`. Pure. */
function mapGroupIds(limits: readonly UserGroupCreditLimitConfig[], map: (id: string) => string): UserGroupCreditLimitConfig[] {
  return limits.map((entry) => (entry.userGroupId === undefined || entry.group !== undefined ? entry : { ...entry, userGroupId: map(entry.userGroupId) }));
}

/** Export: `${var.NAME}` for each user group id a variable of the environment holds; a warning for the others. Pure. */
function referGroupIds(limits: readonly UserGroupCreditLimitConfig[], environment: IdEnvironment): { section: UserGroupCreditLimitConfig[]; warnings: string[] } {
  const warnings: string[] = [];
  const section = mapGroupIds(limits, (id) => {
    const reference = variableReference(environment, id);
    if (reference !== undefined) return reference;
    warnings.push(
      `user group credit limit: userGroupId ${id} is written as a literal id because SCIM does not name it (or two groups share its name) and no variable of environment ${environment.name} holds it; ` +
        'the file will not work against another environment until you name the group by `group:` or use ${var.NAME}',
    );
    return id;
  });
  return { section, warnings };
}

/** Promotion: each source user group id becomes the target's id through a variable of the same name; throws for an id none maps. Pure. */
function translateGroupIds(limits: readonly UserGroupCreditLimitConfig[], source: IdEnvironment, target: IdEnvironment): UserGroupCreditLimitConfig[] {
  return mapGroupIds(limits, (id) => {
    const { variables, ids } = idInTarget(id, source, target);
    const what = `user group credit limit of group ${id} in ${source.name}`;
    if (ids.length === 1) return ids[0]!;
    if (ids.length > 1) {
      throw new StewardError('promote.ambiguous-id', `${what}: variables ${variables.join(', ')} hold it, and their values in ${target.name} differ (${ids.join(', ')})`, 'user', {
        hint: 'give each id its own variable',
      });
    }
    throw new StewardError(
      'promote.unmapped-group',
      `${what}: SCIM does not name the group (or its name is not unique), so steward cannot tell which group it is in ${target.name}`,
      'user',
      {
        hint: variables.length === 0
          ? `declare a variable holding it under environments.${source.name}.variables and the same variable with ${target.name}'s id under environments.${target.name}.variables`
          : `declare ${variables[0]} under environments.${target.name}.variables with ${target.name}'s id`,
      },
    );
  });
}

export const userGroupCreditLimits: ResourceKind<DesiredUserGroupLimits, LiveUserGroupLimits, 'userGroupCreditLimits'> = {
  kind: 'userGroupCreditLimits',
  presentation: limitPresentation(['user group credit limit', 'user group credit limits'], (key) => `user group credit limit "${key}"`),
  order: { level: 1, deletesAreResets: true },
  // Groups are matched by display name exactly (as SCIM resolves them), or by id.
  entries: {
    keyOf: (entry) => textOf(entry.group) ?? textOf(entry.userGroupId),
    hasKey: (entry, key) => (textOf(entry.group) ?? textOf(entry.userGroupId)) === key,
    identityFields: ['group', 'userGroupId'],
  },
  targeting: {
    noun: 'user group credit limit for',
    names: (config) => (config.userGroupCreditLimits ?? []).map((limit) => limit.group ?? limit.userGroupId ?? ''),
    pruned: (config) => config.prune?.userGroupCreditLimits === true,
  },
  access: { adminOnly: true },
  export: userGroupCreditLimitsExport,
  resolveGroups: ({ api, loaded, keyScope, identities, groups, started }) =>
    resolveUserGroups(api, loaded, ['userGroupCreditLimits'], keyScope, identities, { groups, ...(started === undefined ? {} : { liveLimits: started as Promise<ReadonlyMap<string, unknown>> }) }),
  readAfter: [],

  declared: (config) => config.userGroupCreditLimits !== undefined || config.prune?.userGroupCreditLimits === true,

  emails: () => [],

  desired({ config, environment, now }) {
    const limits = (config.userGroupCreditLimits ?? []).flatMap((entry, index) => {
      // Planning resolves every `group` to an id first; an entry without one was reported already.
      if (entry.userGroupId === undefined) return [];
      return [{
        index,
        id: idKey(entry.userGroupId),
        display: entry.group ?? entry.userGroupId,
        ...limitInForce(entry, now),
        protect: entry.protect === true,
        ignoreLimit: ignoredFields(config, 'userGroupCreditLimits', entry).includes('creditLimit'),
        byName: entry.group !== undefined,
      }];
    });
    return {
      limits,
      prune: config.prune?.userGroupCreditLimits === true,
      isProtected: (userGroupId, name) => protectedInEnvironment(environment, 'userGroupCreditLimits', [userGroupId, name]),
    };
  },

  start: (api, signal) => listGroupLimits(api, signal),

  async read({ api, directory, started }, desired) {
    const limits = ((await started) as Map<string, number | null> | undefined) ?? (await listGroupLimits(api));
    const names = new Map<string, string>();
    // Only limits that pruning may reset need a name (for the plan and for name protection).
    const declared = new Set(desired.limits.map((limit) => limit.id));
    const undeclared = desired.prune && [...limits.keys()].some((id) => !declared.has(id));
    if (undeclared && directory.keyScope === 'organization') {
      // The groups resolving the config's names looked up are known already (a listing is not read twice).
      const groups = directory.groups(api);
      await groups.listAll();
      for (const id of limits.keys()) {
        const name = groups.nameOf(id);
        if (name !== undefined) names.set(id, name);
      }
    }
    return { limits, names };
  },

  diff(desired, live) {
    const steps = limitSteps(
      {
        kind: 'userGroupCreditLimits',
        refOf: (userGroupId) => ({ userGroupId }),
        describe: (display) => `the credit limit of user group "${display}"`,
        limits: desired.limits,
        prune: desired.prune,
        isProtected: (id) => desired.isProtected(id, live.names.get(id)),
        displayOf: (id) => live.names.get(id) ?? id,
      },
      live.limits,
    );
    // A group named by display name has a step whose `ref.group` lets a 404 say why it may have failed.
    const byName = new Set(desired.limits.filter((limit) => limit.byName).map((limit) => limit.id));
    for (const step of steps) if (byName.has(step.ref.userGroupId)) step.ref.group = step.key;
    return { steps, warnings: idFormWarnings(desired, live) };
  },

  current(step, live) {
    const userGroupId = step.ref.userGroupId;
    return live.limits.has(userGroupId) ? { creditLimit: live.limits.get(userGroupId)! } : undefined;
  },

  /** Bulk PATCHes of at most 1000 groups, sets and resets together; a batch succeeds or fails whole. */
  async apply(steps, { api, attempt }) {
    for (let start = 0; start < steps.length; start += CREDIT_LIMIT_BATCH_MAX) {
      const batch = steps.slice(start, start + CREDIT_LIMIT_BATCH_MAX);
      await attempt(batch, async () => {
        const { userGroups } = await api.patchUserGroupCreditLimits({ userGroups: batch.map(groupLimitWrite) }).catch((error: unknown) => {
          throw explainNotFound(error, batch);
        });
        expectLimitsTaken('the credit limit', batch, new Map(userGroups.map((group) => [group.userGroupId, group])), (step) => groupLimitWrite(step).userGroupId);
      });
    }
  },

  writeRequests: (steps) => Math.ceil(steps.length / CREDIT_LIMIT_BATCH_MAX),

  credits: creditLimitValues,

  allowance: (live, steps) => ({ scope: 'userGroups', limits: limitsAfter(live.limits, steps, (step) => step.ref.userGroupId) }),

  // Groups without a limit follow the user default (the emulator's reading of the "user group default").
  lowered: (step, allLive) => groupLowered(step, 'userGroup', liveCreditControls(allLive)?.userDefaultCredits, allLive),
};

/** The bulk-PATCH entry that carries out one step. */
export function groupLimitWrite(step: PlanStep<'userGroupCreditLimits'>): UserGroupCreditLimitWrite {
  return { userGroupId: step.ref.userGroupId, ...limitValue(step) };
}

/**
 * A 404 to a batch that holds groups steward resolved by display name: the server may identify
 * user groups by uuid rather than by SCIM id (gaps.md, OPEN), which the message says.
 */
function explainNotFound(error: unknown, batch: readonly PlanStep<'userGroupCreditLimits'>[]): unknown {
  if (!(error instanceof ApiError) || error.status !== 404) return error;
  const named = batch.filter((step) => step.ref.group !== undefined);
  if (named.length === 0) return error;
  const groups = named.slice(0, 3).map((step) => `"${step.ref.group}" as ${step.ref.userGroupId}`).join(', ');
  return new ApiError({
    code: error.code,
    summary: `${error.summary}; steward sent the SCIM id of each group named by display name (${groups}${named.length > 3 ? ', …' : ''}): if this deployment's credit-limit API identifies user groups by another id (a uuid), name them by \`userGroupId:\``,
    fault: error.fault,
    status: error.status,
    serverMessage: error.serverMessage,
    serverCode: error.serverCode,
    method: error.method,
    route: error.route,
    operation: error.operation,
    retries: error.retries,
    hint: 'gaps.md leaves open whether userGroupId is the SCIM id or a uuid; `userGroupId:` entries are sent exactly as written',
    cause: error,
  });
}

/**
 * Evidence that the credit-limit API keys user groups by uuid while SCIM gave short ids: the
 * live list holds uuids no group named here has, and the groups named by display name resolved
 * to ids that are not uuids. Writes by name would then answer 404.
 */
function idFormWarnings(desired: DesiredUserGroupLimits, live: LiveUserGroupLimits): PlanWarning[] {
  const named = desired.limits.filter((limit) => limit.byName);
  if (named.length === 0 || named.some((limit) => UUID_PATTERN.test(limit.id))) return [];
  const uuids = [...live.limits.keys()].filter((id) => UUID_PATTERN.test(id));
  if (uuids.length === 0) return [];
  return [{
    code: 'userGroupCreditLimits.id-form',
    message: `this deployment lists user group credit limits under uuids (e.g. ${uuids[0]}), but SCIM gives the groups this config names by display name short ids (e.g. "${named[0]!.display}" is ${named[0]!.id}); if the credit-limit API wants uuids, the writes for those groups will fail with 404: name them by \`userGroupId:\` instead`,
  }];
}

/** Every live user group limit: userGroupId → limit; stops asking for pages once `signal` is aborted. */
async function listGroupLimits(api: PlatformApi, signal?: AbortSignal): Promise<Map<string, number | null>> {
  const limits = new Map<string, number | null>();
  for await (const record of api.listUserGroupCreditLimits()) {
    signal?.throwIfAborted();
    limits.set(record.userGroupId, record.creditLimit);
  }
  return limits;
}
