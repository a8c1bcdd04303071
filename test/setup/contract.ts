// The contract test: every request the end-to-end suite sends to an emulator, and every answer
// the emulator gives, is checked against the vendor contract (src/api/contract/), in both emulator
// profiles. Each emulator notes its misfits (a variant it serves by its knobs is none); after each
// end-to-end test the misfits of every emulator started in its file must be none.
import { afterEach, expect, vi } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';

const started = new Set<RunningEmulator>();

/** How many emulators of this test file note misfits (a test asserts the hook is live). */
export function emulatorsNotingContract(): number {
  return started.size;
}

vi.mock('../../src/emulator/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/emulator/index.js')>();
  return {
    ...original,
    startEmulator: async (options: Parameters<typeof original.startEmulator>[0] = {}) => {
      const emulator = await original.startEmulator({ noteContract: true, ...options });
      started.add(emulator);
      return emulator;
    },
  };
});

afterEach(() => {
  if (!(expect.getState().testPath ?? '').includes('/test/e2e/')) return;
  const misfits = [...started].flatMap((emulator) => emulator.contractMisfits());
  expect([...new Set(misfits)], 'every request and answer fits the vendor contract').toEqual([]);
});
