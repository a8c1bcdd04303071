// Users named by e-mail are resolved with the fewest requests: one filter per name when the
// names are fewer than the listing's remaining pages, else the listing (page 1 tells the org size).

import { describe, expect, it } from 'vitest';
import type { ScimList, ScimUser } from '../../src/api/types.js';
import { Directory, nearestEmail, SUGGESTION_PAGES } from '../../src/resolve/directory.js';
import { ApiError } from '../../src/api/errors.js';


/** The 404 a SCIM user read answers for an id the instance does not know. */
function notFound(id: string): ApiError {
  return new ApiError({ code: 'api.not-found', summary: `user ${id} not found`, fault: 'user', status: 404, serverMessage: 'User not found', method: 'GET', route: 'GET /api/scim/v2/users/{id}', operation: `reading user ${id}` });
}
/** A fake SCIM users endpoint over `size` users, counting the requests of each kind. */
function org(size: number, extra: ScimUser[] = []) {
  const users: ScimUser[] = [...Array.from({ length: size }, (_, i) => ({ id: `u${i}`, userName: `user${i}@acme.example` }) as ScimUser), ...extra];
  size = users.length;
  const calls = { filters: 0, pages: 0, reads: 0 };
  const api = {
    async *listScimUsers(options: { filter?: string } = {}) {
      calls.filters += 1;
      const wanted = /"(.*)"/.exec(options.filter ?? '')?.[1];
      // `co` matches regardless of case, as SCIM's does.
      yield* users.filter((user) => user.userName.toLowerCase().includes((wanted ?? '').toLowerCase()) || user.id === wanted);
    },
    async getScimUser(id: string): Promise<ScimUser> {
      calls.reads += 1;
      const user = users.find((candidate) => candidate.id === id);
      if (user === undefined) throw notFound(id);
      return user;
    },
    async scimUsersPage(startIndex: number, count: number): Promise<ScimList<ScimUser>> {
      calls.pages += 1;
      return { schemas: [], Resources: users.slice(startIndex - 1, startIndex - 1 + count), totalResults: size, startIndex };
    },
  };
  return { directory: new Directory(api, undefined, 'organization'), calls };
}

const emails = (indexes: number[]) => indexes.map((i) => `user${i}@acme.example`);

describe('an e-mail that is the userName of two users', () => {
  const twin = { id: 'u3-old', userName: 'USER3@acme.example', active: false } as ScimUser;

  it.each([
    ['a filter', 1],
    ['the listing', 300],
  ])('is refused when found by %s, naming both users, not resolved to the last one', async (_, count) => {
    const { directory } = org(200, [twin]);
    const wanted = count === 1 ? emails([3]) : emails(Array.from({ length: count }, (_, i) => i % 200));
    await expect(directory.resolveEmails(wanted)).rejects.toThrow(
      'this e-mail address is the userName of more than one user of the instance: user3@acme.example (users u3, u3-old (not active))',
    );
    expect(() => directory.idOf('user3@acme.example')).toThrow('more than one user');
  });

  it('is no ambiguity when the second address is only another user\'s secondary e-mail', async () => {
    const alias = { id: 'u9', userName: 'nine@acme.example', emails: [{ value: 'user3@acme.example' }] } as ScimUser;
    const { directory } = org(200, [alias]);
    await directory.resolveEmails(emails([3]));
    expect(directory.idOf('user3@acme.example')).toBe('u3');
  });
});

describe('resolving e-mails', () => {
  it('filters for one name', async () => {
    const { directory, calls } = org(24_000);
    await directory.resolveEmails(emails([12_345]));
    expect(calls).toEqual({ filters: 1, pages: 0, reads: 0 });
    expect(directory.idOf('user12345@acme.example')).toBe('u12345');
  });

  it('filters for 50 names in a 24,000-user org after the one page that tells its size', async () => {
    const { directory, calls } = org(24_000);
    await directory.resolveEmails(emails(Array.from({ length: 50 }, (_, i) => 1_000 + i * 100)));
    expect(calls).toEqual({ filters: 50, pages: 1, reads: 0 });
  });

  it('lists a 6,000-user org for 5,000 names: 60 pages', async () => {
    const { directory, calls } = org(6_000);
    await directory.resolveEmails(emails(Array.from({ length: 5_000 }, (_, i) => i)));
    expect(calls).toEqual({ filters: 0, pages: 60, reads: 0 });
    expect(directory.idOf('user4999@acme.example')).toBe('u4999');
  });

  it('needs nothing more when page 1 holds every name', async () => {
    const { directory, calls } = org(500);
    await directory.resolveEmails(emails([3, 40, 99]));
    expect(calls).toEqual({ filters: 0, pages: 1, reads: 0 });
  });

  it('names every unknown address after listing', async () => {
    const { directory } = org(300);
    await expect(directory.resolveEmails([...emails([1, 2, 250]), 'nobody@acme.example', 'ghost@acme.example'])).rejects.toThrow(
      'these e-mail addresses are not a user of the instance: nobody@acme.example, ghost@acme.example',
    );
  });
});

describe('the did-you-mean from the directory', () => {
  it('is the active user a typo away, and nobody for an address far from every user', () => {
    const users = ['grace@acme.example', 'greg@acme.example', 'ada@acme.example', 'analyst01@acme.example'];
    expect(nearestEmail('grase@acme.example', users)).toBe('grace@acme.example');
    expect(nearestEmail('Grace@acme.exmaple', users)).toBe('grace@acme.example');
    expect(nearestEmail('analyst1@acme.example', users)).toBe('analyst01@acme.example');
    expect(nearestEmail('nobody@acme.example', users)).toBeUndefined();
    expect(nearestEmail('bob@acme.example', users)).toBeUndefined();
  });

  it('names the closest user in the error of an unknown e-mail, reading the listing of a small org for it', async () => {
    const { directory, calls } = org(150);
    await expect(directory.resolveEmails(['user42@acme.exampel'])).rejects.toThrow(
      'this e-mail address is not a user of the instance: user42@acme.exampel (did you mean user42@acme.example?)',
    );
    // One lookup by filter, then the listing (2 pages) for the suggestion.
    expect(calls).toEqual({ filters: 1, pages: 2, reads: 0 });
  });

  it('suggests from the users already known on an org too large to list for it', async () => {
    const { directory, calls } = org(100 * (SUGGESTION_PAGES + 2));
    const suggestions = await directory.suggest(['user7@acme.exampel', 'user650@acme.exampel']);
    // Page 1 only (users 0 to 99): user650, on a page not read, is never the suggestion.
    expect(calls.pages).toBe(1);
    expect(suggestions.get('user7@acme.exampel')).toBe('user7@acme.example');
    expect(suggestions.get('user650@acme.exampel')).not.toBe('user650@acme.example');
  });

  it('tells recipients apart: users, deactivated users and no users, without failing', async () => {
    const { directory } = org(10, [{ id: 'gone', userName: 'leaver@acme.example', active: false } as ScimUser]);
    const standings = await directory.standings(['user1@acme.example', 'LEAVER@acme.example', 'usr1@acme.example', 'stranger@partner.example']);
    expect(Object.fromEntries(standings)).toEqual({
      'user1@acme.example': { is: 'user' },
      'leaver@acme.example': { is: 'deactivated-user' },
      'usr1@acme.example': { is: 'not-a-user', didYouMean: 'user1@acme.example' },
      'stranger@partner.example': { is: 'not-a-user' },
    });
  });

  it('cannot read the directory with a personal token', () => {
    expect(new Directory(undefined, { id: 'me' }, 'user').canRead).toBe(false);
    expect(Directory.of([]).canRead).toBe(true);
  });
});
