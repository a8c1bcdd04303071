// The pages of one listing share its sorted records until the state changes (Store.memo): a write
// between two pages is seen by the next page, a failed write leaves nothing stale, and a write
// reads the state itself, never a kept copy.
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/emulator/store.js';
import { seedToState } from '../../src/emulator/seed.js';
import { datasetSeed } from '../../src/emulator/datasets.js';
import { useEmulator } from './helpers.js';

const fixture = useEmulator();
const USERS = '/api/v1/ai/credit-controls/users';

describe('Store.memo', () => {
  const store = () => new Store(seedToState(datasetSeed('demo'), 'dataset demo'));

  it('computes once until the state changes, by a write, a failed write or a reset', () => {
    const memoStore = store();
    let computed = 0;
    const read = () => memoStore.memo('count', () => (computed += 1));
    expect([read(), read()]).toEqual([1, 1]);
    memoStore.transaction(() => ({ status: 200 }));
    expect(read()).toBe(2);
    expect(() => memoStore.transaction(() => { throw new Error('refused'); })).toThrow('refused');
    expect(read()).toBe(3);
    memoStore.transaction(() => ({ status: 400 }));
    expect(read()).toBe(4);
    memoStore.reset();
    expect([read(), read()]).toEqual([5, 5]);
  });

  it('keeps a bounded number of values between two changes', () => {
    const memoStore = store();
    let computed = 0;
    for (let round = 0; round < 2; round += 1) for (let index = 0; index < 100; index += 1) memoStore.memo(`listing ${index}`, () => (computed += 1));
    // More names than it keeps: each round computes them all again, and nothing grows without bound.
    expect(computed).toBe(200);
    expect(memoStore.memo('listing 99', () => -1)).toBe(200);
  });

  it('computes afresh within a write, which sees its own changes', () => {
    const memoStore = store();
    const users = () => memoStore.memo('users', () => memoStore.state.users.length);
    const before = users();
    memoStore.transaction((state) => {
      state.users.push({ ...state.users[0]!, id: 'new-user', email: 'new@acme.example' });
      expect(users()).toBe(before + 1);
      return { status: 200 };
    });
    expect(users()).toBe(before + 1);
  });
});

describe('a listing read page by page', () => {
  it('shows on its next page a limit set after its first page', async () => {
    const first = await fixture.api.get(USERS, { pageSize: 2 });
    expect(first.body.pageInfo.totalRecords).toBe(4);
    const userId = fixture.emulator.state.userId('ada@acme.example');
    const patched = await fixture.api.patch(USERS, { users: [{ userId, creditLimit: 7 }] });
    expect(patched.status).toBe(200);
    const rest = await fixture.api.get(USERS, { pageSize: 100, cursor: first.body.pageInfo.nextCursor });
    expect(rest.body.pageInfo.totalRecords).toBe(5);
    const all = await fixture.api.get(USERS, { pageSize: 100 });
    expect(all.body.records).toContainEqual({ userId, creditLimit: 7 });
  });
});
