// `steward apply FILE` applies where the plan was made, at the pace it was made at, with no
// flags repeated: the config says https://acme.example.com, the plan was made against the
// emulator on this machine. An address only the file names gets no token without --base-url
// repeating it, and a --base-url naming another instance is refused before any request.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/model/plan.js';
import { gitopsAgainstDemo, type Steward } from './helpers.js';

let steward: Steward;
afterEach(async () => {
  await steward.emulator.close();
});

/** A plan made with --base-url (the emulator) and --requests-per-minute 600, saved. */
async function planAt600(): Promise<string> {
  steward = await gitopsAgainstDemo();
  const planFile = join(steward.directory, 'plan.json');
  expect((await steward.plan({ out: planFile, requestsPerMinute: 600 })).code).toBe(3);
  return planFile;
}

async function editPlan(planFile: string, edit: (plan: Plan & Record<string, unknown>) => void): Promise<void> {
  const plan = JSON.parse(await readFile(planFile, 'utf8')) as Plan & Record<string, unknown>;
  edit(plan);
  await writeFile(planFile, JSON.stringify(plan));
}

describe('apply FILE, where the plan was made', () => {
  it('applies there at the plan\'s pace with no extra flags, says so in one line, and converges', async () => {
    const planFile = await planAt600();
    const applied = await steward.apply(planFile, { baseUrl: undefined });
    expect(applied.code).toBe(0);
    expect(applied.err).toBe(`Applying where the plan was made: ${steward.emulator.url}, at 600 requests/minute.\n`);
    expect(applied.out).toMatch(/^Applying makes about \d+ requests: .* at 600 requests\/minute\.$/m);
    expect(steward.emulator.stats().writes).toBeGreaterThan(0);
    expect((await steward.plan()).out).toContain('No changes.');
  });

  it('paces at --requests-per-minute when given, and at the config\'s for a file that records no budget', async () => {
    const planFile = await planAt600();
    const flagged = await steward.apply(planFile, { baseUrl: undefined, requestsPerMinute: 1200, dryRun: true });
    expect(flagged.err).toBe(`Applying where the plan was made: ${steward.emulator.url}, at 1,200 requests/minute.\n`);
    await editPlan(planFile, (plan) => {
      delete plan.requestsPerMinute;
    });
    const older = await steward.apply(planFile, { baseUrl: undefined });
    expect(older.code).toBe(0);
    expect(older.out).toMatch(/^Applying makes about \d+ requests: .* at 6,000 requests\/minute\.$/m);
  });

  it('refuses a --base-url other than the plan\'s before any request, with the way to plan there', async () => {
    const planFile = await planAt600();
    const planning = steward.emulator.stats().requests;
    const refused = await steward.apply(planFile, { baseUrl: 'http://127.0.0.1:9' });
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `Error: this plan was made against ${steward.emulator.url}, not http://127.0.0.1:9; its steps were read there\n` +
        'Hint: to apply changes at http://127.0.0.1:9, make a new plan against it: steward plan --env production --base-url http://127.0.0.1:9 --out FILE; to apply this plan, leave out --base-url\n',
    );
    expect(steward.emulator.stats().requests).toBe(planning);
  });

  it('sends no token to an address only the plan file names, and takes a --base-url naming the plan\'s instance', async () => {
    const planFile = await planAt600();
    const planning = steward.emulator.stats().requests;
    await editPlan(planFile, (plan) => {
      plan.baseUrl = 'https://collector.example.net';
    });
    const refused = await steward.apply(planFile, { baseUrl: undefined, json: true });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toMatchObject({
      error: {
        code: 'plan-file.base-url',
        message: expect.stringContaining('which is neither environment "production"\'s baseUrl (https://acme.example.com) nor this machine'),
        hint: expect.stringContaining('add --base-url https://collector.example.net'),
      },
    });
    expect(steward.emulator.stats().requests).toBe(planning);
    // A --base-url that names the plan's instance, written another way, is the plan's address
    // (that an address only the file names passes once repeated is tested in test/plan/planFits,
    // since these tests reach only this machine).
    await editPlan(planFile, (plan) => {
      plan.baseUrl = `${steward.emulator.url}/api/`;
    });
    const repeated = await steward.apply(planFile, { baseUrl: steward.emulator.url, dryRun: true });
    expect(repeated.code).toBe(0);
    expect(repeated.err).toMatch(new RegExp(`^Applying where the plan was made: ${steward.emulator.url}, at 600 requests/minute\\.\n`));
    expect(steward.emulator.stats().requests).toBeGreaterThan(planning);
  });
});
