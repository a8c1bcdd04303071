// Plan-time errors have a place and, where one exists, the live values that make them errors.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitopsAgainstDemo, type Steward } from './helpers.js';

let steward: Steward;
afterEach(async () => {
  await steward.emulator.close();
});

describe('credit thresholds merged with the live settings', () => {
  it('point at the declared threshold and give the live one', async () => {
    steward = await gitopsAgainstDemo();
    const file = join(steward.directory, 'credit.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('  downgradeCredits: 8000\n  shutoffCredits: 12000            # raised from 10000 for the quarter-end reporting\n', '  downgradeCredits: 11000\n'));
    const plan = await steward.plan();
    expect(plan.code).toBe(1);
    const line = (await readFile(file, 'utf8')).split('\n').indexOf('  downgradeCredits: 11000') + 1;
    expect(plan.err).toContain(`credit.yaml:${line}:21`);
    expect(plan.err).toContain('downgradeCredits 11,000 (in the config) would exceed shutoffCredits 10,000 (live; the config leaves it out)');
    expect(plan.err).toContain('declare `shutoffCredits` too (live: 10,000)');
    expect(steward.emulator.stats().writes).toBe(0);
  });
});
