// A server we did not write loses answers, fails and refuses credentials mid-apply. For every
// write of the gitops example's apply, and each way of losing it, steward must never call a write
// the server carried out FAILED, and a second apply plus a plan must converge without duplicates.
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { EMULATOR_PROFILES, type EmulatorProfile, type FaultAction } from '../../src/emulator/index.js';
import { gitopsAgainstDemo, type Result, type Steward } from './helpers.js';

const FAULTS: FaultAction[] = ['500', 'reset', 'drop-after-commit'];

/** Writes a clean apply of the example sends (the positions a fault can hit). */
async function cleanApplyWrites(profile: EmulatorProfile): Promise<number> {
  const steward = await gitopsAgainstDemo({ profile });
  try {
    expect((await steward.apply()).code).toBe(0);
    return steward.emulator.stats().writes;
  } finally {
    await steward.emulator.close();
  }
}

/** Names that occur more than once among routines (per owner) and labels. */
function duplicates(steward: Steward): string[] {
  const names = [
    ...steward.emulator.state.snapshot().routines.map((routine) => `routine ${routine.ownerId}/${routine.name}`),
    ...steward.emulator.state.labels().map((label) => `label ${label.name.toLowerCase()}`),
  ];
  return names.filter((name, index) => names.indexOf(name) !== index);
}

/** The report lines of steps that failed. */
function failedLines(result: Result): string[] {
  return result.out.split('\n').filter((line) => line.includes('FAILED'));
}

describe.each(EMULATOR_PROFILES)('a lost or failed write at every position (%s profile)', (profile) => {
  let writes = 0;
  beforeAll(async () => {
    writes = await cleanApplyWrites(profile);
  });

  it('the clean apply sends a known number of writes (the positions a fault can hit)', () => {
    expect(writes).toBeGreaterThanOrEqual(16);
  });

  it.each(FAULTS)('write N answered with %s: no write the server carried out is called FAILED, and a re-run converges', async (action) => {
    // Every position, one after the other (in-process, so each costs a fraction of a second).
    for (let position = 1; position <= writes; position += 1) await faultAt(position, action);
  }, 180_000);

  async function faultAt(position: number, action: FaultAction): Promise<void> {
    const steward = await gitopsAgainstDemo({ profile, faults: [`write:${position}=${action}`] });
    try {
      const first = await steward.apply();
      const where = `${action} at write ${position}`;
      // Every fault here fires once: reading back settles each lost answer, so nothing fails.
      expect(failedLines(first), where).toEqual([]);
      expect(first.code, where).toBe(0);
      expect(steward.emulator.stats().faultsFired, where).toBe(1);
      // The second apply plans afresh from the live state: "No changes." is the empty plan that
      // proves convergence (a separate `plan` would read the same state again).
      const second = await steward.apply();
      expect(second.code, where).toBe(0);
      expect(second.out, where).toContain('No changes. The live state matches the configuration.');
      expect(duplicates(steward), where).toEqual([]);
    } finally {
      await steward.emulator.close();
    }
  }
});

describe('a create whose answer is lost twice', () => {
  it('is read back once more but never sent a third time', async () => {
    const steward = await gitopsAgainstDemo({ faults: ['POST /api/v1/ai/routines=500x2'] });
    try {
      const first = await steward.apply();
      expect(first.code).toBe(1);
      // The replacement of "Daily pipeline check" lost both its creates; "Monthly marketing recap" went through.
      expect(steward.emulator.stats().byRoute['POST /api/v1/ai/routines']).toBe(3);
      expect(failedLines(first)).toEqual([
        expect.stringMatching(/^ {2}FAILED -\/\+ routine "Daily pipeline check": creating routine .*: 500 .*; the response was lost twice \(steward looked for it in between and found nothing\)\. Run apply again: it looks before it creates$/),
      ]);
      expect((await steward.apply()).code).toBe(0);
      expect((await steward.plan()).code).toBe(EXIT.ok);
      expect(duplicates(steward)).toEqual([]);
    } finally {
      await steward.emulator.close();
    }
  });
});
