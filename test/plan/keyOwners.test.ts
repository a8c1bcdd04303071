// Whose routines, by the API key (gaps.md, whoami and organization keys): a personal token's own
// routines need no userId; an organization key passes userId for every owner, its creator's id
// for routines without `owner:`; a key tied to no user needs every routine to name its owner.
// And a document link to a document the deployment lacks is a warning, never a step.
import { describe, expect, it } from 'vitest';
import type { Whoami } from '../../src/api/types.js';
import type { LoadedConfig, RoutineConfig, StewardConfig } from '../../src/config/types.js';
import { StewardError } from '../../src/errors.js';
import { routines } from '../../src/kinds/routines/routines.js';
import { Directory } from '../../src/resolve/directory.js';
import { requireRoutineOwners } from '../../src/kinds/routines/routineOwners.js';
import { keyUser, refuseUnplannable } from '../../src/resolve/preflight.js';
import { REGISTRY } from '../../src/kinds/registry.js';
import { config, ENVIRONMENT, liveLabel, liveRoutine, planOffline, USERS } from './builders.js';

const ROUTINE = {
  name: 'Digest',
  prompt: 'Summarise revenue.',
  schedule: '0 9 ? * MON *',
  timezone: 'UTC',
  modelId: 'm-sales',
  destination: { type: 'slack', recipientId: 'C0ABCDEF1', slackRecipientType: 'channel' },
} satisfies RoutineConfig;

function whoami(keyScope: 'user' | 'organization', user: unknown): Whoami {
  return { keyScope, orgRole: 'ORG_ADMIN', rolesByModel: {}, user } as Whoami;
}

/** A loaded config whose routine i sits at routines.yaml line 10 + 10·i, column 5. */
function loaded(parts: Partial<StewardConfig>): Pick<LoadedConfig, 'config' | 'locate'> {
  return {
    config: config(parts),
    locate: (path) => (path[0] === 'routines' && typeof path[1] === 'number' ? { file: 'routines.yaml', line: 10 + 10 * path[1], col: 5 } : undefined),
  };
}

function owners(directory: Directory, declared: RoutineConfig[]) {
  const desired = routines.desired({ config: config({ routines: declared }), environment: ENVIRONMENT, directory });
  return { owners: desired.owners, of: desired.routines.map((routine) => routine.owner) };
}

describe('the key\'s user, from whoami', () => {
  it('is the membership id whoami names, never its user id', () => {
    expect(keyUser(whoami('organization', { id: 'user-of-ada', membershipId: 'u-ada' }))).toEqual({ id: 'u-ada', userId: 'user-of-ada' });
    expect(keyUser(whoami('user', { id: null, membershipId: 'u-ada' }))).toEqual({ id: 'u-ada' });
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['null ids', { id: null, membershipId: null }],
    ['an empty membership id', { id: 'user-of-ada', membershipId: '' }],
  ])('is nobody when the user is %s', (_, user) => {
    expect(keyUser(whoami('organization', user))).toBeUndefined();
  });
});

describe('routine owners', () => {
  it('a personal token lists its own routines without userId, as it always did', () => {
    const { owners: read, of } = owners(Directory.of(USERS, { id: 'u-ada', email: 'ada@acme.example' }, 'user'), [ROUTINE]);
    expect(read).toEqual([{ key: '', userId: undefined, display: undefined }]);
    expect(of).toEqual([read[0]]);
  });

  it('an organization key passes its creator\'s id for owner-less routines and for routines naming her, as one owner', () => {
    const directory = Directory.of(USERS, { id: 'u-ada', email: 'ada@acme.example' }, 'organization');
    const { owners: read, of } = owners(directory, [ROUTINE, { ...ROUTINE, name: 'Named', owner: 'ADA@acme.example' }, { ...ROUTINE, name: 'Grace', owner: 'grace@acme.example' }]);
    expect(read).toEqual([
      { key: '', userId: 'u-ada', display: undefined },
      { key: 'u-grace', userId: 'u-grace', display: 'grace@acme.example' },
    ]);
    expect(of.map((owner) => owner.userId)).toEqual(['u-ada', 'u-ada', 'u-grace']);
  });

  it('an organization key tied to no user reads only the owners the config names, each by userId', () => {
    const directory = Directory.of(USERS, undefined, 'organization');
    const { owners: read } = owners(directory, [{ ...ROUTINE, owner: 'ada@acme.example' }, { ...ROUTINE, name: 'Grace', owner: 'grace@acme.example' }]);
    expect(read).toEqual([
      { key: 'u-ada', userId: 'u-ada', display: 'ada@acme.example' },
      { key: 'u-grace', userId: 'u-grace', display: 'grace@acme.example' },
    ]);
  });

  it('plans against the list read for each userId, and steps carry it for apply', () => {
    const directory = Directory.of(USERS, undefined, 'organization');
    const desired = routines.desired({ config: config({ routines: [{ ...ROUTINE, owner: 'ada@acme.example', schedule: '0 8 ? * MON *' }] }), environment: ENVIRONMENT, directory });
    const { steps } = routines.diff(desired, new Map([['u-ada', [liveRoutine({ name: 'Digest', id: 'r-1', destination: ROUTINE.destination })]]]), {});
    expect(steps.map((step) => [step.action, step.id, step.key, step.ref])).toEqual([
      ['update', 'routines/u-ada/Digest', 'ada@acme.example/Digest', { ownerId: 'u-ada', routineId: 'r-1' }],
    ]);
  });
});

describe('requireRoutineOwners', () => {
  const noUser = whoami('organization', { id: null, membershipId: null });

  it('lists every routine without owner: at its position, in one error, with the fix', () => {
    const config = loaded({ routines: [ROUTINE, { ...ROUTINE, name: 'Named', owner: 'grace@acme.example' }, { ...ROUTINE, name: 'Other' }] });
    let error: StewardError | undefined;
    try {
      requireRoutineOwners(noUser, config);
    } catch (thrown) {
      error = thrown as StewardError;
    }
    expect(error?.code).toBe('plan.routine-owner');
    expect(error?.message).toBe(
      '2 routines have no `owner:`, and this organization API key is tied to no user (whoami names none), so steward cannot tell whose they are:\n' +
        '  routines.yaml:10:5: routine "Digest"\n' +
        '  routines.yaml:30:5: routine "Other"',
    );
    expect(error?.hint).toBe('add `owner: <e-mail of the user whose routine it is>` to each, or use a personal token of that user');
    expect(error?.details).toEqual({
      position: { file: 'routines.yaml', line: 10, col: 5 },
      positions: [{ file: 'routines.yaml', line: 10, col: 5 }, { file: 'routines.yaml', line: 30, col: 5 }],
      routines: ['Digest', 'Other'],
    });
  });

  it('refuses a prune of routines that names no owner', () => {
    expect(() => requireRoutineOwners(noUser, loaded({ routines: [], prune: { routines: true } }))).toThrow(
      '`prune: routines: true` deletes the undeclared routines of the owners the config names, and it names none',
    );
  });

  it('lets everything else through: keys with a user, personal tokens, configs naming every owner, plans without routines', () => {
    const ownerless = loaded({ routines: [ROUTINE], prune: { routines: true } });
    expect(() => requireRoutineOwners(whoami('organization', { id: 'user-of-ada', membershipId: 'u-ada' }), ownerless)).not.toThrow();
    expect(() => requireRoutineOwners(whoami('user', { id: 'user-of-ada', membershipId: 'u-ada' }), ownerless)).not.toThrow();
    expect(() => refuseUnplannable([REGISTRY.get('labels')!], noUser, ownerless)).not.toThrow();
    expect(() => requireRoutineOwners(noUser, loaded({ routines: [{ ...ROUTINE, owner: 'ada@acme.example' }], prune: { routines: true } }))).not.toThrow();
  });
});

describe('document links to documents the deployment lacks', () => {
  it('are warnings naming the document, where the config lists it, and no step; the other links are planned', () => {
    const carrying = Object.assign(new Map([['marketing', new Map([['d1', 'Funnel']])]]), { missing: new Map([['d-elsewhere', undefined]]) });
    const { steps, warnings } = planOffline(
      { labels: [{ name: 'marketing', documents: ['d1', 'd2', 'd-elsewhere'] }] },
      { labels: [liveLabel({ name: 'marketing', usage_count: 1 })], documentLabels: carrying },
    );
    expect(steps.map((step) => step.id)).toEqual(['documentLabels/d2/marketing']);
    expect(warnings).toEqual([
      {
        code: 'documentLabels.missing-document',
        namesMissing: true,
        message: 'document d-elsewhere does not exist in this deployment, so label "marketing" is not applied to it (document identifiers may differ between deployments)',
        configPath: ['labels', 0, 'documents', 2],
      },
    ]);
  });

  it('suggest the listed document a missing one is likely a typo of', () => {
    const carrying = Object.assign(new Map([['marketing', new Map<string, string | undefined>()]]), { missing: new Map([['5e4d3c2c', '5e4d3c2b']]) });
    const { warnings } = planOffline({ labels: [{ name: 'marketing', documents: ['5e4d3c2c'] }] }, { labels: [liveLabel({ name: 'marketing' })], documentLabels: carrying });
    expect(warnings[0]?.message).toBe('document 5e4d3c2c does not exist in this deployment, so label "marketing" is not applied to it (did you mean 5e4d3c2b? document identifiers may differ between deployments)');
  });
});
