// The group credit-limit kinds as pure functions: desired (names already resolved to ids) against
// live gives create / update / reset steps, prune resets what is not declared unless protected,
// resets run with the changes so one PATCH carries both, a batch is one write per 1000 steps, and
// group names resolve exactly through SCIM with one error listing every unknown or ambiguous name.
import { describe, expect, it } from 'vitest';
import type { PlatformApi } from '../../src/api/platform.js';
import type { ScimGroup } from '../../src/api/types.js';
import type { SourceLocation } from '../../src/config/types.js';
import { StewardError } from '../../src/errors.js';
import { entityGroupCreditLimits, entityLimitWrite } from '../../src/kinds/limits/entityGroupCreditLimits.js';
import { groupLimitWrite, userGroupCreditLimits } from '../../src/kinds/limits/userGroupCreditLimits.js';
import { resolveUserGroups } from '../../src/resolve/groups.js';
import type { PlanStep } from '../../src/model/plan.js';
import { ENVIRONMENT, planOffline, stepsOf } from './builders.js';

const liveGroups = (entries: [string, number | null][], names: [string, string][] = []) => ({ limits: new Map(entries), names: new Map(names) });
const summary = (steps: readonly PlanStep[]) => steps.map((step) => `${step.action} ${step.id} ${JSON.stringify('after' in step ? step.after : step.before)}`);

describe('user group limits', () => {
  it('creates, changes, makes unlimited and resets declared groups, and leaves equal ones alone', () => {
    const { steps } = planOffline(
      {
        userGroupCreditLimits: [
          { group: 'Finance', userGroupId: 'fin1', creditLimit: 1500 },
          { group: 'Sales Ops', userGroupId: 'ops1', creditLimit: null },
          { group: 'Analysts', userGroupId: 'ana1', creditLimit: 'default' },
          { userGroupId: 'exe1', creditLimit: 10 },
        ],
      },
      { userGroupCreditLimits: liveGroups([['ops1', 400], ['ana1', 100], ['exe1', 10], ['old1', 5]]) },
    );
    expect(summary(steps)).toEqual([
      'delete userGroupCreditLimits/ana1 {"creditLimit":100}',
      'create userGroupCreditLimits/fin1 {"creditLimit":1500}',
      'update userGroupCreditLimits/ops1 {"creditLimit":null}',
    ]);
    expect(steps.map((step) => step.key)).toEqual(['Analysts', 'Finance', 'Sales Ops']);
    expect(stepsOf(steps, 'userGroupCreditLimits').map(groupLimitWrite)).toEqual([
      { userGroupId: 'ana1', useDefaultLimit: true },
      { userGroupId: 'fin1', creditLimit: 1500 },
      { userGroupId: 'ops1', creditLimit: null },
    ]);
  });

  it('prunes undeclared limits by their display name, except groups protected by name or id', () => {
    const environment = { ...ENVIRONMENT, protect: { userGroupCreditLimits: ['Executives', 'keep1'] } };
    const { steps } = planOffline(
      { userGroupCreditLimits: [{ group: 'Finance', userGroupId: 'fin1', creditLimit: 1500 }], prune: { userGroupCreditLimits: true } },
      { userGroupCreditLimits: liveGroups([['fin1', 1500], ['old1', 5], ['exe1', 7], ['keep1', 3], ['gone1', 2]], [['old1', 'Old team'], ['exe1', 'Executives']]) },
      environment,
    );
    expect(steps.map((step) => `${step.action} ${step.key} (${step.reason})`)).toEqual([
      'delete gone1 (pruned: not in the config; resets to the default limit)',
      'delete Old team (pruned: not in the config; resets to the default limit)',
    ]);
  });

  it('refuses to reset a group whose entry is protected', () => {
    expect(() =>
      planOffline(
        { userGroupCreditLimits: [{ group: 'Finance', userGroupId: 'fin1', creditLimit: 'default', protect: true }] },
        { userGroupCreditLimits: liveGroups([['fin1', 1500]]) },
      ),
    ).toThrow('the credit limit of user group "Finance" is protected, but the config resets it to the default');
  });

  it('warns when the live list holds uuids while the groups named here resolved to short SCIM ids', () => {
    const { warnings } = planOffline(
      { userGroupCreditLimits: [{ group: 'Finance', userGroupId: 'fin7q2k', creditLimit: 1 }] },
      { userGroupCreditLimits: liveGroups([['5d8c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', 100]]) },
    );
    expect(warnings.map((warning) => warning.code)).toEqual(['userGroupCreditLimits.id-form']);
    const byId = planOffline(
      { userGroupCreditLimits: [{ userGroupId: '5d8c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', creditLimit: 1 }] },
      { userGroupCreditLimits: liveGroups([['5d8c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', 100]]) },
    );
    expect(byId.warnings).toEqual([]);
  });

  it('writes one bulk PATCH per 1000 steps, sets and resets together', async () => {
    const { steps } = planOffline(
      { userGroupCreditLimits: Array.from({ length: 2400 }, (_, index) => ({ userGroupId: `g${index}`, creditLimit: index % 2 === 0 ? 1 : 'default' as const })) },
      { userGroupCreditLimits: liveGroups(Array.from({ length: 2400 }, (_, index): [string, number] => [`g${index}`, 5])) },
    );
    expect(steps).toHaveLength(2400);
    expect(userGroupCreditLimits.writeRequests(stepsOf(steps, 'userGroupCreditLimits'))).toBe(3);
    const bodies: number[] = [];
    const api = {
      patchUserGroupCreditLimits: async (body: { userGroups: unknown[] }) => {
        bodies.push(body.userGroups.length);
        return { userGroups: [] };
      },
    } as unknown as PlatformApi;
    await userGroupCreditLimits.apply(stepsOf(steps, 'userGroupCreditLimits'), { api, live: undefined, attempt: async (_steps, write) => void (await write()) });
    expect(bodies).toEqual([1000, 1000, 400]);
  });
});

describe('entity group limits', () => {
  it('sets, resets and prunes by entity name, with the resets among the changes', () => {
    const { steps } = planOffline(
      {
        creditControls: { entityGroupDefaultCredits: 500 },
        entityGroupCreditLimits: [
          { entity: 'embed-partners', creditLimit: 2500 },
          { entity: 'embed-resellers', creditLimit: null },
          { entity: 'embed-legacy', creditLimit: 'default' },
        ],
        labels: [],
        prune: { entityGroupCreditLimits: true, labels: true },
      },
      {
        creditControls: { accountCreditLimit: 0, creditsUsed: 0, periodStart: 0, periodEnd: 0, downgradeCredits: null, shutoffCredits: null, userDefaultCredits: null, entityGroupDefaultCredits: null },
        entityGroupCreditLimits: new Map([['embed-partners', 1000], ['embed-legacy', 10], ['embed-trial', 50]]),
        labels: [{ name: 'obsolete', color: null, description: null, homepage: false, verified: false, usage_count: 0 }],
        documentLabels: new Map(),
      },
    );
    // Credit controls first; the entity limits' resets with their changes; a label's delete last.
    expect(steps.map((step) => `${step.action} ${step.id}`)).toEqual([
      'update creditControls/settings',
      'delete entityGroupCreditLimits/embed-legacy',
      'update entityGroupCreditLimits/embed-partners',
      'create entityGroupCreditLimits/embed-resellers',
      'delete entityGroupCreditLimits/embed-trial',
      'delete labels/obsolete',
    ]);
    expect(steps.filter((step) => step.kind === 'entityGroupCreditLimits').map(entityLimitWrite)).toEqual([
      { entity: 'embed-legacy', useDefaultLimit: true },
      { entity: 'embed-partners', creditLimit: 2500 },
      { entity: 'embed-resellers', creditLimit: null },
      { entity: 'embed-trial', useDefaultLimit: true },
    ]);
    expect(entityGroupCreditLimits.writeRequests(steps.filter((step) => step.kind === 'entityGroupCreditLimits'))).toBe(1);
  });
});

describe('resolving group names through SCIM', () => {
  const GROUPS: ScimGroup[] = [
    { schemas: [], id: 'fin1', displayName: 'Finance', members: [] },
    { schemas: [], id: 'fin2', displayName: 'finance', members: [] },
    { schemas: [], id: 'ops1', displayName: 'Sales Ops', members: [] },
    { schemas: [], id: 'ops2', displayName: 'Sales Ops', members: [] },
  ];
  /**
   * A SCIM server whose listing pages hold at most `pageSize` groups; records its requests
   * (`listing` for a whole listing, or `page STARTINDEX`).
   * `afterPage1` changes its groups once page 1 has been served (a group added meanwhile).
   */
  const scim = (pageSize = 100, afterPage1?: (groups: ScimGroup[]) => void) => {
    const requests: string[] = [];
    const groups = [...GROUPS];
    const api = {
      async *listScimGroups() {
        requests.push('listing');
        yield* [...groups];
      },
      async scimGroupsPage(startIndex: number, count: number) {
        requests.push(`page ${startIndex}`);
        const Resources = groups.slice(startIndex - 1, startIndex - 1 + Math.min(count, pageSize));
        const page = { schemas: [], Resources, totalResults: groups.length, itemsPerPage: Resources.length, startIndex };
        if (startIndex === 1) afterPage1?.(groups);
        return page;
      },
    };
    return { api, requests };
  };
  const at = (line: number): SourceLocation => ({ file: 'limits.yaml', line, col: 12 });
  /** Where the config lists the group limits, as the kind tells the resolution. */
  const SECTION = ['userGroupCreditLimits'];
  const loaded = (groups: string[]) => ({
    config: { version: 1 as const, environments: {}, userGroupCreditLimits: groups.map((group) => ({ group, creditLimit: 1 })) },
    locate: (path: readonly (string | number)[]) => at(Number(path[1]) * 2 + 3),
  });

  it('reads the listing for one name (the groups list documents no filter), matching names exactly', async () => {
    const { api, requests } = scim();
    const config = await resolveUserGroups(api, loaded(['finance']), SECTION, 'organization');
    expect(config.userGroupCreditLimits?.map((entry) => entry.userGroupId)).toEqual(['fin2']);
    expect(requests).toEqual(['page 1']);
  });

  it('reads page 1 of the listing for more names: a deployment whose groups it holds costs one request', async () => {
    const { api, requests } = scim();
    const config = await resolveUserGroups(api, loaded(['Finance', 'finance', 'Finance', 'Sales Ops']), SECTION, 'organization').catch((error: unknown) => error);
    expect((config as StewardError).message).toContain('user group "Sales Ops" names 2 groups');
    const exact = await resolveUserGroups(api, loaded(['Finance', 'finance', 'Finance']), SECTION, 'organization');
    expect(exact.userGroupCreditLimits?.map((entry) => entry.userGroupId)).toEqual(['fin1', 'fin2', 'fin1']);
    expect(requests).toEqual(['page 1', 'page 1']);
  });

  it('reads the pages after page 1 side by side, whatever the number of names', async () => {
    // Two groups per page: 1 page left, 3 names.
    const { api, requests } = scim(2);
    const config = await resolveUserGroups(api, loaded(['Finance', 'Sales Ops', 'ops-team']), SECTION, 'organization').catch((error: unknown) => error);
    expect((config as StewardError).message).toContain('user group "Sales Ops" names 2 groups of this deployment (ids ops1, ops2)');
    expect((config as StewardError).message).toContain('user group "ops-team" is not a group of this deployment; its groups: "Finance", "Sales Ops", "finance"');
    expect(requests).toEqual(['page 1', 'page 3']);
  });

  it('never takes a name seen on page 1 as answered: a namesake on a later page makes it ambiguous', async () => {
    // Three groups per page: Sales Ops is on page 1 (ops1) and on page 2 (ops2).
    const paged = scim(3);
    const byPages = await resolveUserGroups(paged.api, loaded(['Sales Ops']), SECTION, 'organization').catch((error: unknown) => error);
    expect((byPages as StewardError).message).toBe('user group "Sales Ops" names 2 groups of this deployment (ids ops1, ops2)');
    expect(paged.requests).toEqual(['page 1', 'page 4']);
  });

  it('reads the listing again, as a whole, when its pages shifted while they were read', async () => {
    // A group is added once page 1 is served: page 2 tells another total, so the pages read hold
    // as many groups as page 1's total without holding them all.
    const { api, requests } = scim(2, (groups) => groups.push({ schemas: [], id: 'new1', displayName: 'Analysts', members: [] }));
    const config = await resolveUserGroups(api, loaded(['Analysts', 'finance']), SECTION, 'organization');
    expect(config.userGroupCreditLimits?.map((entry) => entry.userGroupId)).toEqual(['new1', 'fin2']);
    expect(requests).toEqual(['page 1', 'page 3', 'listing']);
  });

  it('lists the groups once when pruning will name undeclared limits: the listing resolves the names too', async () => {
    const { api, requests } = scim();
    const prune = { ...loaded(['finance']), config: { ...loaded(['finance']).config, prune: { userGroupCreditLimits: true } } };
    const live = new Map([['fin2', 5], ['ops1', 7]]);
    const config = await resolveUserGroups(api, prune, SECTION, 'organization', undefined, { liveLimits: Promise.resolve(live) });
    expect(config.userGroupCreditLimits?.map((entry) => entry.userGroupId)).toEqual(['fin2']);
    expect(requests).toEqual(['page 1']);
  });

  it('names every unknown and ambiguous group at its position, with the groups the deployment has', async () => {
    const { api } = scim();
    const error = await resolveUserGroups(api, loaded(['Sales Ops', 'Finanse']), SECTION, 'organization').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(StewardError);
    expect((error as StewardError).message).toBe(
      '2 user group credit limits name groups this deployment cannot resolve:\n' +
        '  limits.yaml:3:12: user group "Sales Ops" names 2 groups of this deployment (ids ops1, ops2)\n' +
        '  limits.yaml:5:12: user group "Finanse" is not a group of this deployment; its groups: "Finance", "Sales Ops", "finance" (did you mean "Finance"?)',
    );
    expect((error as StewardError).details).toMatchObject({ position: at(3), positions: [at(3), at(5)] });
  });

  it('refuses names with a personal token, which cannot use SCIM', async () => {
    const { api, requests } = scim();
    await expect(resolveUserGroups(api, loaded(['Finance']), SECTION, 'user')).rejects.toThrow('SCIM needs an organization API key');
    expect(requests).toEqual([]);
  });
});
