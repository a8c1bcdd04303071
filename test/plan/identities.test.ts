// What a plan resolved is recorded for its file and, from a trusted saved plan, reused: the
// Directory asks SCIM only for users the file lacks, the key's own user as whoami gives it beats
// the file, an id is shown by its first e-mail, and a saved model is used only when it holds every
// branch and topic asked for.
import { describe, expect, it } from 'vitest';
import type { ScimList, ScimUser } from '../../src/api/types.js';
import type { StewardConfig } from '../../src/config/types.js';
import { userCreditLimits } from '../../src/kinds/limits/userCreditLimits.js';
import { Directory } from '../../src/resolve/directory.js';
import { ApiError } from '../../src/api/errors.js';
import { IdentityBook } from '../../src/resolve/identities.js';
import { recordIdentities } from '../../src/engine/recordIdentities.js';


/** The 404 a SCIM user read answers for an id the instance does not know. */
function notFound(id: string): ApiError {
  return new ApiError({ code: 'api.not-found', summary: `user ${id} not found`, fault: 'user', status: 404, serverMessage: 'User not found', method: 'GET', route: 'GET /api/scim/v2/users/{id}', operation: `reading user ${id}` });
}
/** A fake SCIM users endpoint over `size` users (user0@… is u0), counting requests. */
function org(size: number, caller?: { id: string; email: string }) {
  const users: ScimUser[] = Array.from({ length: size }, (_, i) => ({ id: `u${i}`, userName: `user${i}@acme.example` }) as ScimUser);
  let requests = 0;
  const api = {
    async *listScimUsers(options: { filter?: string } = {}) {
      requests += 1;
      const wanted = /"(.*)"/.exec(options.filter ?? '')?.[1];
      yield* users.filter((user) => user.userName === wanted || user.id === wanted);
    },
    async getScimUser(id: string): Promise<ScimUser> {
      requests += 1;
      const user = users.find((candidate) => candidate.id === id);
      if (user === undefined) throw notFound(id);
      return user;
    },
    async scimUsersPage(startIndex: number, count: number): Promise<ScimList<ScimUser>> {
      requests += 1;
      return { schemas: [], Resources: users.slice(startIndex - 1, startIndex - 1 + count), totalResults: size, startIndex };
    },
  };
  return { directory: new Directory(api, caller, 'organization'), requests: () => requests };
}

describe('a directory seeded with a saved plan\'s users', () => {
  it('asks SCIM for nothing the seed holds, and still for what it lacks', async () => {
    const { directory, requests } = org(24_000);
    directory.seed([{ email: 'user7@acme.example', id: 'u7' }, { email: 'user8@acme.example', id: 'u8' }]);
    await directory.resolveEmails(['User7@acme.example', 'user8@acme.example']);
    await directory.requireIds(['u7']);
    expect(requests()).toBe(0);
    await directory.resolveEmails(['user7@acme.example', 'user9@acme.example']);
    expect(requests()).toBe(1); // one filter, for user9
    expect(directory.idOf('user9@acme.example')).toBe('u9');
  });

  it('keeps the key\'s own user as whoami gave it, and shows an id by its first e-mail', () => {
    const { directory } = org(10, { id: 'u1', email: 'user1@acme.example' });
    directory.seed([
      { email: 'user1@acme.example', id: 'u-old' },
      { email: 'user2@acme.example', id: 'u2' },
      { email: 'user2.alias@acme.example', id: 'u2' },
    ]);
    expect(directory.idOf('user1@acme.example')).toBe('u1');
    expect(directory.idOf('user2.alias@acme.example')).toBe('u2');
    expect(directory.display('u2')).toBe('user2@acme.example');
  });
});

describe('the identities a plan records', () => {
  const config = {
    version: 1,
    userCreditLimits: [{ email: 'User1@acme.example', creditLimit: 10 }, { email: 'user2.alias@acme.example', creditLimit: 20 }],
    prune: { userCreditLimits: true },
  } as unknown as StewardConfig;

  it('lists declared users by the e-mail they are shown by, another address after it, and the users live limits only show', async () => {
    const directory = Directory.of([
      { id: 'u1', email: 'user1@acme.example' },
      { id: 'u2', email: 'user2@acme.example' },
      { id: 'u3', email: 'user3@acme.example' },
    ]);
    directory.seed([{ email: 'user2.alias@acme.example', id: 'u2' }]);
    const live = new Map<string, number | null>([['u3', 5], ['u-gone', 7]]);
    const book = new IdentityBook();
    const identities = recordIdentities(book, { kinds: [userCreditLimits], config, directory, steps: [], live: { userCreditLimits: live } });
    expect(identities.users).toEqual([
      { email: 'user1@acme.example', id: 'u1' },
      { email: 'user2@acme.example', id: 'u2' },
      { email: 'user2.alias@acme.example', id: 'u2' },
      { email: 'user3@acme.example', id: 'u3' },
    ]);
    expect(identities).toMatchObject({ groups: [], models: [] });
    expect(identities.seal).toBeUndefined();
  });

  it('merges what one model was found by (name, branches, topics) into one entry', () => {
    const book = new IdentityBook();
    book.recordModel({ id: 'm1', name: 'Sales', branches: [{ name: 'beta', id: 'b1' }], topics: ['orders'] });
    book.recordModel({ id: 'm1', branches: [{ name: 'beta', id: 'b1' }, { name: 'q4', id: 'b2' }], topics: ['orders', 'pipeline'] });
    book.recordGroup('Finance', 'g1');
    const identities = recordIdentities(book, { kinds: [], config, directory: Directory.of([]), steps: [], live: {} });
    expect(identities.models).toEqual([{ id: 'm1', name: 'Sales', branches: [{ name: 'beta', id: 'b1' }, { name: 'q4', id: 'b2' }], topics: ['orders', 'pipeline'] }]);
    expect(identities.groups).toEqual([{ name: 'Finance', id: 'g1' }]);
  });
});

describe('a saved plan\'s models', () => {
  const book = new IdentityBook({ users: [], groups: [{ name: 'Finance', id: 'g1' }], models: [{ id: 'm1', name: 'Sales', branches: [{ name: 'beta', id: 'b1' }], topics: ['orders'] }] });

  it('are reused only with every branch and topic asked for', () => {
    expect(book.modelNamed('Sales', ['beta'])?.id).toBe('m1');
    expect(book.modelNamed('Sales', ['beta', 'q4'])).toBeUndefined();
    expect(book.modelNamed('Marketing', [])).toBeUndefined();
    expect(book.modelWithId('m1', [])?.name).toBe('Sales');
    expect(book.topicsChecked('m1', ['orders'])).toBe(true);
    expect(book.topicsChecked('m1', ['orders', 'pipeline'])).toBe(false);
    expect(book.groupNamed('Finance')).toBe('g1');
    expect(book.groupNamed('finance')).toBeUndefined();
  });
});
