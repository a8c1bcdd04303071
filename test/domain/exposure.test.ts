// The exposure estimate's rule as a pure function: a user's own limit, else the highest limit
// among her limited groups, else the default; unlimited anywhere makes the sum unlimited; what
// is not known makes it a lower bound and is named.
import { describe, expect, it } from 'vitest';
import { estimateExposure } from '../../src/domain/exposure.js';

const groups = (limits: Record<string, number | null>, members: Record<string, string[]>) => ({ limits: new Map(Object.entries(limits)), members: (id: string) => members[id] });

describe('estimateExposure', () => {
  it('takes the own limit, else the highest group limit, else the default', () => {
    const exposure = estimateExposure({
      individual: new Map([['ada', 50]]),
      groups: groups({ small: 10, large: 30 }, { small: ['ada', 'bob', 'cy'], large: ['cy'] }),
      userDefault: 5,
      users: 5,
      accountCreditLimit: 0,
    });
    // ada 50 (own), bob 10, cy 30 (the higher group), two users on the default 5.
    expect(exposure).toMatchObject({ credits: 100, individual: { users: 1, credits: 50 }, groups: { users: 2, credits: 40 }, default: { users: 2, perUser: 5, credits: 10 }, notCounted: [] });
    expect(exposure.accountCreditLimit).toBeUndefined();
  });

  it('is unlimited where any limit that applies is, and a group that is unlimited outranks a number', () => {
    expect(estimateExposure({ individual: new Map([['ada', null]]), groups: undefined, userDefault: 5, users: 1 }).credits).toBeNull();
    expect(estimateExposure({ individual: new Map(), groups: groups({ a: 10, b: null }, { a: ['x'], b: ['x'] }), userDefault: 0, users: 1 }).credits).toBeNull();
    expect(estimateExposure({ individual: new Map(), groups: undefined, userDefault: null, users: 3 }).credits).toBeNull();
  });

  it('names what it could not count, and is then a lower bound', () => {
    const exposure = estimateExposure({ individual: undefined, groups: groups({ a: 10 }, {}), userDefault: 5, users: undefined, accountCreditLimit: 1000 });
    expect(exposure.credits).toBe(0);
    expect(exposure.accountCreditLimit).toBe(1000);
    expect(exposure.notCounted).toEqual([
      'individual user limits (not read: the config does not manage them)',
      'the members of user group a (not known)',
      'the users on the default (the number of users is not known)',
    ]);
  });
});
