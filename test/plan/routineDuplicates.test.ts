// Two live routines with one name: the rule that settles a race between applies (checked over
// every interleaving of two and three runs, with clocks that agree and clocks that do not), and
// the plan's way out of duplicates that already exist.
import { describe, expect, it } from 'vitest';
import type { Routine } from '../../src/api/types.js';
import type { RoutineConfig } from '../../src/config/types.js';
import { olderFirst, settleRace } from '../../src/kinds/routines/routineDuplicates.js';
import { desiredState } from '../../src/kinds/routines/routineState.js';
import { StewardError } from '../../src/errors.js';
import { liveRoutine, planOffline } from './builders.js';

const digest: RoutineConfig = {
  name: 'Weekly digest',
  prompt: 'Summarise revenue.',
  schedule: '0 9 ? * MON *',
  timezone: 'UTC',
  modelId: 'm-sales',
  destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] },
};
const digestState = desiredState(digest);
const copy = (id: string, createdAt: string, overrides: Partial<Routine> = {}) => liveRoutine({ name: 'Weekly digest', id, createdAt, ...overrides });
const own = (routines: Routine[]) => ({ routines: new Map([['', routines]]) });
const summary = (steps: { action: string; id: string }[]) => steps.map((step) => `${step.action} ${step.id}`);

describe('the order of namesakes', () => {
  it('is oldest first by createdAt, then by id, whatever the list order', () => {
    const routines = [copy('r-b', '2026-01-01T00:00:01.000Z'), copy('r-c', '2026-01-01T00:00:00.000Z'), copy('r-a', '2026-01-01T00:00:01.000Z')];
    expect([...routines].sort(olderFirst).map((routine) => routine.id)).toEqual(['r-c', 'r-a', 'r-b']);
  });

  it('compares instants, not spellings of them', () => {
    const routines = [copy('r-1', '2026-01-01T01:00:00.000+01:00'), copy('r-2', '2026-01-01T00:00:00.500Z')];
    expect([...routines].sort(olderFirst).map((routine) => routine.id)).toEqual(['r-1', 'r-2']);
  });
});

describe('settling a race after a create', () => {
  const mine = copy('r-mine', '2026-01-01T00:00:02.000Z');
  const created = { id: 'r-mine', state: digestState, known: new Set<string>() };

  it('does nothing when its routine is the only one', () => {
    expect(settleRace(created, [mine])).toEqual({ kind: 'listed', keeper: mine, remove: [] });
  });

  it('removes its own routine when a concurrent run created the same one earlier', () => {
    const theirs = copy('r-theirs', '2026-01-01T00:00:01.000Z');
    expect(settleRace(created, [mine, theirs])).toEqual({ kind: 'listed', keeper: theirs, remove: [mine] });
  });

  it('removes a newer identical routine that appeared after its read, keeping its own', () => {
    const theirs = copy('r-theirs', '2026-01-01T00:00:03.000Z');
    expect(settleRace(created, [theirs, mine])).toEqual({ kind: 'listed', keeper: mine, remove: [theirs] });
  });

  it('never removes a namesake it knew before applying, nor one with other content', () => {
    const known = copy('r-known', '2026-01-01T00:00:03.000Z');
    const other = copy('r-other', '2026-01-01T00:00:00.000Z', { prompt: 'Something else.' });
    const verdict = settleRace({ ...created, known: new Set(['r-known']) }, [mine, known, other]);
    expect(verdict).toEqual({ kind: 'listed', keeper: mine, remove: [] });
  });

  it('says who was kept when a concurrent run already removed its routine', () => {
    const theirs = copy('r-theirs', '2026-01-01T00:00:01.000Z');
    expect(settleRace(created, [theirs])).toEqual({ kind: 'gone', keeper: theirs });
  });
});

/**
 * A model of N runs applying one config that declares one routine, against a server that lists
 * consistently. Each run: read (its plan), create if the read found none, list, delete what the
 * rule says; every step of every run may interleave with every other. `stamp` gives each create
 * its createdAt and id, so clocks that follow the order of creates and clocks that do not are
 * both tried.
 */
type Stamp = (order: number, run: number) => { createdAt: string; id: string };
type RunState =
  | { phase: 'read' }
  | { phase: 'create'; known: Set<string> }
  | { phase: 'list'; known: Set<string>; id: string }
  | { phase: 'delete'; queue: string[] }
  | { phase: 'done' };

function survivorsOfEveryInterleaving(runs: number, stamp: Stamp): Set<number> {
  const outcomes = new Set<number>();
  const explore = (server: Map<string, Routine>, states: RunState[], creates: number) => {
    const active = states.map((state, index) => (state.phase === 'done' ? -1 : index)).filter((index) => index >= 0);
    if (active.length === 0) {
      outcomes.add(server.size);
      return;
    }
    for (const index of active) {
      const next = new Map(server);
      const nextStates = [...states];
      let nextCreates = creates;
      const state = states[index]!;
      switch (state.phase) {
        case 'read': {
          // A run whose read already finds the routine plans nothing (two: it stops at the ambiguity).
          nextStates[index] = next.size === 0 ? { phase: 'create', known: new Set(next.keys()) } : { phase: 'done' };
          break;
        }
        case 'create': {
          const { createdAt, id } = stamp(creates, index);
          next.set(id, copy(id, createdAt));
          nextCreates += 1;
          nextStates[index] = { phase: 'list', known: state.known, id };
          break;
        }
        case 'list': {
          const verdict = settleRace({ id: state.id, state: digestState, known: state.known }, [...next.values()]);
          const queue = verdict.kind === 'listed' ? verdict.remove.map((routine) => routine.id) : [];
          nextStates[index] = queue.length === 0 ? { phase: 'done' } : { phase: 'delete', queue };
          break;
        }
        case 'delete': {
          next.delete(state.queue[0]!); // a second delete of one routine answers 404: nothing changes
          nextStates[index] = state.queue.length === 1 ? { phase: 'done' } : { phase: 'delete', queue: state.queue.slice(1) };
          break;
        }
      }
      explore(next, nextStates, nextCreates);
    }
  };
  explore(new Map(), Array.from({ length: runs }, () => ({ phase: 'read' }) as RunState), 0);
  return outcomes;
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

describe('every interleaving of racing applies leaves exactly one routine', () => {
  for (const runs of [2, 3]) {
    it(`${runs} runs, createdAt in the order the creates land`, () => {
      expect(survivorsOfEveryInterleaving(runs, (order, run) => ({ createdAt: at(order), id: `r-${run}` }))).toEqual(new Set([1]));
    });

    it(`${runs} runs, createdAt against the order the creates land`, () => {
      expect(survivorsOfEveryInterleaving(runs, (order, run) => ({ createdAt: at(10 - order), id: `r-${run}` }))).toEqual(new Set([1]));
    });

    it(`${runs} runs, all in one millisecond, ids in either order`, () => {
      expect(survivorsOfEveryInterleaving(runs, (_order, run) => ({ createdAt: at(0), id: `r-${run}` }))).toEqual(new Set([1]));
      expect(survivorsOfEveryInterleaving(runs, (_order, run) => ({ createdAt: at(0), id: `r-${9 - run}` }))).toEqual(new Set([1]));
    });
  }
});

describe('a plan that meets duplicates', () => {
  const oldest = copy('r-1', '2026-01-01T00:00:00.000Z');
  const newer = copy('r-2', '2026-01-02T00:00:00.000Z');
  const newest = copy('r-3', '2026-01-03T00:00:00.000Z');

  it('refuses to pick one, and says which are identical and how to delete them', () => {
    let error: unknown;
    try {
      planOffline({ routines: [digest] }, own([newest, oldest, newer]));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(StewardError);
    const { message, hint, details } = error as StewardError;
    expect(message).toBe(
      '3 live routines owned by this API key\'s user are named "Weekly digest" (ids r-3, r-1, r-2); steward identifies routines by name and will not pick one',
    );
    expect(hint).toBe(
      'r-2, r-3 are identical copies of the oldest, r-1, which matches the config: add `duplicates: delete-identical` to this routine in the config and the plan deletes them, keeping r-1; then plan again',
    );
    expect(details).toEqual({ configPath: ['routines', 0], routine: 'Weekly digest', routineIds: ['r-3', 'r-1', 'r-2'], oldestMatchingConfig: 'r-1', identicalToOldest: ['r-2', 'r-3'], differing: [] });
  });

  it('with `duplicates: delete-identical`, plans the deletion of the identical copies, keeping the oldest', () => {
    const { steps } = planOffline({ routines: [{ ...digest, duplicates: 'delete-identical' }] }, own([newest, oldest, newer]));
    expect(summary(steps)).toEqual(['delete routines//Weekly digest#r-2', 'delete routines//Weekly digest#r-3']);
    expect(steps[0]).toMatchObject({ ref: { routineId: 'r-2' }, reason: 'r-2: an identical copy of r-1, the oldest, which is kept; duplicates: delete-identical' });
  });

  it('deletes nothing when no copy matches the config, even with the opt-in', () => {
    const config = { ...digest, schedule: '0 10 ? * MON *', duplicates: 'delete-identical' as const };
    expect(() => planOffline({ routines: [config] }, own([oldest, newer]))).toThrow(StewardError);
    try {
      planOffline({ routines: [config] }, own([oldest, newer]));
    } catch (error) {
      expect((error as StewardError).hint).toBe(
        'none of them matches the config, so steward deletes none of them; ' +
          'r-1 differs from the config (schedule): steward never deletes it on its own; ' +
          'r-2 differs from the config (schedule): steward never deletes it on its own; ' +
          'rename or delete the routines you do not want in the app, then plan again',
      );
    }
  });

  it('never deletes a copy that differs from the config, even with the opt-in; it names it', () => {
    const edited = copy('r-4', '2026-01-04T00:00:00.000Z', { prompt: 'Summarise revenue, with charts.' });
    const config = { ...digest, duplicates: 'delete-identical' as const };
    expect(() => planOffline({ routines: [config] }, own([oldest, newer, edited]))).toThrow(/3 live routines .* \(ids r-1, r-2, r-4\)/);
    try {
      planOffline({ routines: [config] }, own([oldest, newer, edited]));
    } catch (error) {
      expect((error as StewardError).hint).toBe(
        'r-2 is an identical copy of the oldest, r-1, which matches the config: add `duplicates: delete-identical` to this routine in the config and the plan deletes it, keeping r-1; ' +
          'r-4 differs from the config (prompt): steward never deletes it on its own; rename or delete the routines you do not want in the app, then plan again',
      );
    }
  });

  it('never deletes a copy that differs only where the config is silent', () => {
    const described = copy('r-2', '2026-01-02T00:00:00.000Z', { description: 'Made by hand' });
    const config = { ...digest, duplicates: 'delete-identical' as const };
    try {
      planOffline({ routines: [config] }, own([oldest, described]));
      expect.unreachable('the plan must stop');
    } catch (error) {
      expect((error as StewardError).hint).toBe(
        'r-2 differs from r-1 where the config is silent (description): steward never deletes it on its own; rename or delete the routines you do not want in the app, then plan again',
      );
    }
  });

  it('deletes no copy of a protected routine', () => {
    const config = { ...digest, duplicates: 'delete-identical' as const, protect: true };
    expect(() => planOffline({ routines: [config] }, own([oldest, newer]))).toThrow(/will not pick one/);
    try {
      planOffline({ routines: [config] }, own([oldest, newer]));
    } catch (error) {
      expect((error as StewardError).hint).toMatch(/^r-2 is an identical copy of the oldest, r-1, but the routine is protected, so steward deletes none of them; rename or delete/);
    }
  });

  it('still removes the leftover of an interrupted replacement beside the copies', () => {
    const leftover = copy('r-0', '2025-12-01T00:00:00.000Z', { topicName: 'pipeline' });
    const { steps } = planOffline({ routines: [{ ...digest, topicName: null, duplicates: 'delete-identical' }] }, own([leftover, oldest, newer]));
    expect(summary(steps)).toEqual(['delete routines//Weekly digest#r-0', 'delete routines//Weekly digest#r-2']);
  });

  it('plans nothing more once the copies are gone', () => {
    expect(planOffline({ routines: [{ ...digest, duplicates: 'delete-identical' }] }, own([oldest])).steps).toEqual([]);
  });
});
