// Renaming a routine in place: a live routine under a former name (of the same owner) becomes an
// update that keeps its id, or, when its model, branch or topic changes too, a replacement; a
// former name still live beside the new one is left alone and said so; the renamed routine is
// never pruned as undeclared.
import { describe, expect, it } from 'vitest';
import type { RoutineConfig } from '../../src/config/types.js';
import { routines } from '../../src/kinds/routines/routines.js';
import { liveRoutine, planOffline, stepsOf } from './builders.js';

const digest: RoutineConfig = {
  name: 'Revenue digest',
  renamedFrom: ['Weekly digest', 'Digest'],
  prompt: 'Summarise revenue.',
  schedule: '0 9 ? * MON *',
  timezone: 'UTC',
  modelId: 'm-sales',
  destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] },
};
const own = (list: ReturnType<typeof liveRoutine>[]) => ({ routines: new Map([['', list]]) });

describe('renamedFrom on routines', () => {
  it('renames the live routine of a former name in place, keeping its id, and prunes nothing of it', () => {
    const old = liveRoutine({ name: 'Weekly digest' });
    const { steps, warnings } = planOffline({ routines: [digest], prune: { routines: true } }, own([old]));
    expect(warnings).toEqual([]);
    expect(steps).toEqual([
      expect.objectContaining({
        id: 'routines//Revenue digest',
        action: 'update',
        key: 'Revenue digest',
        ref: { routineId: old.id },
        reason: 'renamed from "Weekly digest"',
        fields: [{ path: 'name', before: 'Weekly digest', after: 'Revenue digest' }],
      }),
    ]);
    // Before applying, the step's object is found under its former name; after, under the new one.
    expect(routines.current(stepsOf(steps, 'routines')[0]!, own([old]).routines)).toEqual(expect.objectContaining({ name: 'Weekly digest' }));
    expect(routines.current(stepsOf(steps, 'routines')[0]!, own([{ ...old, name: 'Revenue digest' }]).routines)).toEqual(expect.objectContaining({ name: 'Revenue digest' }));
  });

  it('replaces it when the timezone changes too, saying both', () => {
    const { steps } = planOffline({ routines: [{ ...digest, timezone: 'Europe/Berlin' }] }, own([liveRoutine({ name: 'Digest' })]));
    expect(steps).toEqual([expect.objectContaining({ action: 'replace', reason: 'renamed from "Digest"; timezone cannot change in place by the documented PUT' })]);
  });

  it('leaves a former name alone when the new name is live already, and says so', () => {
    const { steps, warnings } = planOffline({ routines: [digest] }, own([liveRoutine({ name: 'Revenue digest' }), liveRoutine({ name: 'Weekly digest' })]));
    expect(steps).toEqual([]);
    expect(warnings).toEqual([
      {
        code: 'routines.rename-target-exists',
        message: 'routine "Revenue digest" already exists, so "Weekly digest" (listed in its renamedFrom) is not renamed; it is left as it is unless prune deletes it',
      },
    ]);
  });

  it('creates the routine when no former name is live', () => {
    const { steps } = planOffline({ routines: [digest] }, own([liveRoutine({ name: 'Something else' })]));
    expect(steps.map((step) => [step.action, step.key])).toEqual([['create', 'Revenue digest']]);
  });
});
