// User groups by display name (`group: Finance`): group ids differ between deployments, so each
// plan resolves the names in its own deployment through SCIM, by its listing
// (`GET /api/scim/v2/groups`, 100 a page): the groups list documents no filter, and display names
// are not unique, so only the whole listing answers a name. Page 1 is read first (its
// `totalResults` is the number of groups), then the other pages side by side. Names are compared
// exactly here. Per gaps.md, the credit-limit API is sent the SCIM id (whether it wants that or a
// uuid is OPEN: a config may give `userGroupId:` directly instead).
import type { PlatformApi } from '../api/platform.js';
import type { ScimGroup } from '../api/types.js';
import { closest } from '../config/suggest.js';
import type { ConfigPath, LoadedConfig, SourceLocation, StewardConfig, UserGroupCreditLimitConfig } from '../config/types.js';
import { StewardError } from '../errors.js';
import type { IdentityBook } from './identities.js';
import { ScimListing } from './scimListing.js';

/** At most this many candidates are listed in an error; the rest are counted. */
const CANDIDATES_SHOWN = 12;

/** A SCIM group as steward uses it. */
export interface UserGroup {
  id: string;
  displayName: string;
  /** Member ids (membership ids), as the listing gave them. */
  members: readonly string[];
}

export type GroupsApi = Pick<PlatformApi, 'listScimGroups' | 'scimGroupsPage'>;

/** The groups of a deployment steward has looked up, by display name (exact) and by id. */
export class UserGroups {
  private readonly byName = new Map<string, UserGroup[]>();
  private readonly byId = new Map<string, UserGroup>();
  /** Read to its end by the self-checking listing. */
  private listedAll = false;
  /** The listing read by pages. */
  private readonly listing: ScimListing<ScimGroup>;

  constructor(private readonly api: GroupsApi) {
    this.listing = new ScimListing((startIndex, count, page) => api.scimGroupsPage(startIndex, count, page), (group) => this.remember(group));
  }

  /** Looks up these display names: the whole listing, once, when any is asked for. */
  async lookUp(names: readonly string[]): Promise<void> {
    if (names.length > 0) await this.listAll();
  }

  /**
   * Reads every group of the deployment, once: page 1 (unless read already), then the other pages
   * side by side. Pages that shifted while being read, or a page 1 without a total, leave the
   * listing to be read again from its start as a listing that checks itself.
   */
  async listAll(): Promise<void> {
    if (this.whole()) return;
    await this.listing.readFirst();
    await this.listing.readRest();
    if (this.whole()) return;
    for await (const group of this.api.listScimGroups()) this.remember(group);
    this.listedAll = true;
  }

  private whole(): boolean {
    return this.listedAll || this.listing.whole;
  }

  /** The groups whose display name is exactly `name`. */
  named(name: string): UserGroup[] {
    return this.byName.get(name) ?? [];
  }

  /** The display name of a group id, when looked up. */
  nameOf(id: string): string | undefined {
    return this.byId.get(id)?.displayName;
  }

  /** The member ids of a group id, when looked up. */
  membersOf(id: string): readonly string[] | undefined {
    return this.byId.get(id)?.members;
  }

  /** Every display name known (all of them once `listAll` ran), sorted. */
  names(): string[] {
    return [...new Set([...this.byId.values()].map((group) => group.displayName))].sort();
  }

  private remember(group: ScimGroup): void {
    if (this.byId.has(group.id)) return;
    const known: UserGroup = { id: group.id, displayName: group.displayName, members: (group.members ?? []).map((member) => member.value) };
    this.byId.set(group.id, known);
    this.byName.set(group.displayName, [...(this.byName.get(group.displayName) ?? []), known]);
  }
}

interface GroupProblem {
  code: 'plan.unknown-group' | 'plan.ambiguous-group' | 'plan.group-needs-scim';
  path: ConfigPath;
  message: string;
  unknownName?: string;
}

/**
 * The configuration with `userGroupId` set on every `userGroupCreditLimits` entry that names a
 * `group` (which is kept, for display), resolved in the deployment `api` talks to, or taken from
 * `identities` (a saved plan's, where it has the name; this plan's are recorded there). Throws one
 * StewardError listing every name that matches no group or several, each at its file:line:col,
 * with the deployment's groups as candidates. A personal token cannot use SCIM: names are then
 * an error pointing at each of them.
 */
export async function resolveUserGroups(
  api: GroupsApi,
  loaded: Pick<LoadedConfig, 'config' | 'locate'>,
  /** Where the config lists the group limits (errors point into it). */
  section: ConfigPath,
  keyScope: 'user' | 'organization',
  identities?: IdentityBook,
  /**
   * `groups`: where the groups looked up are kept (the plan's Directory holds one, which the
   * pruning read then uses); `liveLimits`: the live group limits, being listed, for a config that
   * prunes them.
   */
  options: { groups?: UserGroups; liveLimits?: Promise<ReadonlyMap<string, unknown>> } = {},
): Promise<StewardConfig> {
  const config = loaded.config;
  const entries = config.userGroupCreditLimits ?? [];
  const names = entries.flatMap((entry) => (entry.group !== undefined && entry.userGroupId === undefined ? [entry.group] : []));
  if (names.length === 0) return config;
  const problems: GroupProblem[] = [];
  if (keyScope === 'user') {
    entries.forEach((entry, index) => {
      if (entry.group === undefined) return;
      problems.push({
        code: 'plan.group-needs-scim',
        path: [...section, index, 'group'],
        message: `user group "${entry.group}" is named by display name, which steward resolves through SCIM, and SCIM needs an organization API key; this is a personal (user-scoped) token`,
      });
    });
    throw groupError(problems, loaded, 'use an organization API key, or name the groups by `userGroupId:`');
  }
  const groups = options.groups ?? new UserGroups(api);
  const wanted = names.filter((name) => identities?.groupNamed(name) === undefined);
  // Pruning names each undeclared live limit's group from the whole listing: when more limits are
  // live than the config declares, some are undeclared, and that listing resolves the names too.
  const live = wanted.length > 0 && config.prune?.userGroupCreditLimits === true ? await options.liveLimits : undefined;
  if (live !== undefined && live.size > entries.length) await groups.listAll();
  await groups.lookUp(wanted);
  const resolved = entries.map((entry, index): UserGroupCreditLimitConfig => {
    if (entry.group === undefined || entry.userGroupId !== undefined) return entry;
    const path: ConfigPath = [...section, index, 'group'];
    const saved = identities?.groupNamed(entry.group);
    const matches = saved === undefined ? groups.named(entry.group) : [{ id: saved, displayName: entry.group }];
    if (matches.length === 1) {
      identities?.recordGroup(entry.group, matches[0]!.id);
      return { ...entry, userGroupId: matches[0]!.id };
    }
    if (matches.length === 0) {
      problems.push({ code: 'plan.unknown-group', path, message: `user group "${entry.group}" is not a group of this deployment`, unknownName: entry.group });
    } else {
      problems.push({
        code: 'plan.ambiguous-group',
        path,
        message: `user group "${entry.group}" names ${matches.length} groups of this deployment (ids ${matches.map((group) => group.id).join(', ')})`,
      });
    }
    return entry;
  });
  if (problems.length === 0) return { ...config, userGroupCreditLimits: resolved };
  if (problems.some((problem) => problem.unknownName !== undefined)) {
    await groups.listAll();
    const known = groups.names();
    for (const problem of problems) {
      if (problem.unknownName === undefined) continue;
      const suggestion = closest(problem.unknownName, known);
      problem.message += known.length === 0 ? '; it has no user groups' : `; its groups: ${listed(known)}${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}`;
    }
  }
  const ambiguous = problems.some((problem) => problem.code === 'plan.ambiguous-group');
  throw groupError(problems, loaded, ambiguous ? 'name a group that shares its display name by `userGroupId:`, or rename one of them' : 'display names are matched exactly, case included; the list above is what this deployment has');
}

/** The one error for every problem, each at its position. */
function groupError(problems: readonly GroupProblem[], loaded: Pick<LoadedConfig, 'locate'>, hint: string): StewardError {
  const located = problems.map((problem) => ({ ...problem, at: loaded.locate(problem.path) }));
  const where = (at: SourceLocation | undefined) => (at === undefined ? '' : `${at.file}:${at.line}:${at.col}: `);
  const first = located[0]!;
  const message = located.length === 1
    ? first.message
    : `${located.length} user group credit limits name groups this deployment cannot resolve:\n${located.map((problem) => `  ${where(problem.at)}${problem.message}`).join('\n')}`;
  const positions = located.flatMap((problem) => (problem.at === undefined ? [] : [problem.at]));
  return new StewardError(first.code, message, 'user', {
    hint,
    details: { ...(positions[0] === undefined ? {} : { position: positions[0] }), positions },
  });
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, CANDIDATES_SHOWN).map((name) => `"${name}"`).join(', ');
  return names.length > CANDIDATES_SHOWN ? `${shown} and ${names.length - CANDIDATES_SHOWN} more` : shown;
}
