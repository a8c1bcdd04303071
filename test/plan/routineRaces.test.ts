// After its creates, a run lists each owner once and removes the copies the race rule names,
// each removal a step of its own through `attempt`; a failed list is reported, never silent.
import { describe, expect, it } from 'vitest';
import type { PlatformApi } from '../../src/api/platform.js';
import type { Routine } from '../../src/api/types.js';
import type { ApplyContext } from '../../src/model/kind.js';
import { settleRaces, type CreatedByStep } from '../../src/kinds/routines/routineRaces.js';
import { desiredState } from '../../src/kinds/routines/routineState.js';
import type { PlanStep } from '../../src/model/plan.js';
import { liveRoutine } from './builders.js';

const config = {
  prompt: 'Summarise revenue.',
  schedule: '0 9 ? * MON *',
  timezone: 'UTC',
  modelId: 'm-sales',
  destination: { type: 'email' as const, recipientEmails: ['ada@acme.example'], userGroupIds: [] },
};

function created(name: string, id: string, ownerId?: string): CreatedByStep {
  const state = desiredState({ ...config, name });
  const step: PlanStep = { id: `routines/${ownerId ?? ''}/${name}`, kind: 'routines', key: name, dependsOn: [], ref: {}, action: 'create', after: { ...state } };
  return { step, id, state, known: new Set(['r-known']), ownerId };
}

const routine = (name: string, id: string, second: number) => liveRoutine({ name, id, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString() });

/** A fake API and executor: lists per owner (or fails), records deletions and attempts. */
function harness(lists: Record<string, Routine[] | Error>) {
  const listed: (string | undefined)[] = [];
  const deleted: string[] = [];
  const attempts: { step: PlanStep; error?: string }[] = [];
  const api = {
    async *listRoutines(options: { userId?: string } = {}) {
      listed.push(options.userId);
      const list = lists[options.userId ?? ''];
      if (list instanceof Error) throw list;
      yield* list ?? [];
    },
    async deleteRoutine(id: string) {
      deleted.push(id);
      return { deleted: true as const, id };
    },
  } as unknown as PlatformApi;
  const context: ApplyContext = {
    api,
    live: new Map(),
    attempt: async (steps, write) => {
      try {
        await write();
        for (const step of steps) attempts.push({ step });
      } catch (error) {
        for (const step of steps) attempts.push({ step, error: (error as Error).message });
      }
    },
  } as ApplyContext;
  return { context, listed, deleted, attempts };
}

describe('settling races after the creates', () => {
  it('lists each owner once and removes the copies the rule names, saying why', async () => {
    const { context, listed, deleted, attempts } = harness({
      '': [routine('Digest', 'r-theirs', 1), routine('Digest', 'r-mine', 2), routine('Recap', 'r-recap', 3), routine('Recap', 'r-late', 4)],
      'u-grace': [routine('KPIs', 'r-kpis', 5)],
    });
    await settleRaces([created('Digest', 'r-mine'), created('Recap', 'r-recap'), created('KPIs', 'r-kpis', 'u-grace')], context);
    expect(listed).toEqual([undefined, 'u-grace']);
    expect(deleted).toEqual(['r-mine', 'r-late']);
    expect(attempts.map(({ step }) => [step.id, step.action, 'routineId' in step.ref ? step.ref.routineId : undefined, step.dependsOn])).toEqual([
      ['routines//Digest#r-mine', 'delete', 'r-mine', ['routines//Digest']],
      ['routines//Recap#r-late', 'delete', 'r-late', ['routines//Recap']],
    ]);
    expect(attempts.map(({ step }) => step.reason)).toEqual([
      'removed r-mine, which this run created, as a duplicate: a concurrent run created the same routine, r-theirs, which is older and kept',
      'removed r-late, a duplicate that a concurrent run created meanwhile; r-recap, which is older, is kept',
    ]);
  });

  it('reports a list that fails as a failed step, naming what it could not check', async () => {
    const { context, deleted, attempts } = harness({ '': new Error('listing routines: 503 Service Unavailable') });
    await settleRaces([created('Digest', 'r-mine'), created('Recap', 'r-recap')], context);
    expect(deleted).toEqual([]);
    expect(attempts).toEqual([
      {
        step: expect.objectContaining({ id: 'routines//Digest#unchecked', key: 'Digest' }),
        error:
          'listing routines: 503 Service Unavailable; so steward could not look for copies of "Digest", "Recap", which this run created, that a concurrent apply may have made too (the next plan shows any, with the way out)',
      },
    ]);
  });
});
