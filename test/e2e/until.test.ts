// `until:` — changes that expire. Before the day the entry is in force; from then on it is undone
// even with prune off: a limit goes back to `then` (or the default), a routine is deleted or, with
// `onExpiry: pause`, paused. A plan saved before an expiry and applied after it is stale.
// Both emulator profiles, against the gitops example.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/validate.js';
import { EXIT } from '../../src/cli/plan.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { captureIo, gitopsAgainstDemo, KEY_CREATOR, PROFILES, type Steward } from './helpers.js';

let steward: Steward;
afterEach(async () => {
  await steward.emulator.close();
});

const GRACE = 'grace@acme.example';
const DAY_MS = 86_400_000;
/** A calendar day relative to today, as `until:` takes it (UTC). */
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

async function edit(file: string, change: (text: string) => string): Promise<void> {
  const path = join(steward.directory, file);
  const text = await readFile(path, 'utf8');
  const changed = change(text);
  expect(changed).not.toBe(text);
  await writeFile(path, changed);
}

/** Grace's 750 until `until`, then 500; the marketing recap until `until` (deleted), the pipeline check paused then. */
async function expiring(until: string): Promise<void> {
  await edit('credit.yaml', (text) => text.replace('creditLimit: 750               # finance lead', `creditLimit: 750\n    until: ${until}\n    then: 500`));
  await edit('routines.yaml', (text) =>
    text
      .replace('  - name: Monthly marketing recap\n', `  - name: Monthly marketing recap\n    until: ${until}\n`)
      .replace('  - name: Daily pipeline check\n', `  - name: Daily pipeline check\n    until: ${until}\n    onExpiry: pause\n`),
  );
}

function graceLimit(emulator: RunningEmulator): number | null | undefined {
  return emulator.state.userCreditLimits().find((record) => record.userId === emulator.state.userId(GRACE))?.creditLimit;
}

const routine = (emulator: RunningEmulator, name: string) => emulator.state.routines(KEY_CREATOR).find((candidate) => candidate.name === name);

async function planJson(): Promise<Plan> {
  const result = await steward.plan({ json: true });
  // Config warnings about expiries only.
  expect(result.err.split('\n').filter((line) => / (error|warning): /.test(line) && !/ warning: expire[sd] on /.test(line))).toEqual([]);
  return JSON.parse(result.out) as Plan;
}

describe.each(PROFILES)('until (%s profile)', (profile) => {
  it('undoes what expired yesterday, prune off: the limit back to `then`, the routine deleted, the other paused; then nothing', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    await expiring(day(-1));

    const plan = await planJson();
    const expired = plan.steps.filter((step) => step.reason?.startsWith('expired on ') === true);
    expect(expired.map((step) => [step.kind, step.action, step.reason])).toEqual(
      expect.arrayContaining([
        ['userCreditLimits', 'update', expect.stringMatching(/^expired on \d+ \w{3} \d{4}: back to 500$/)],
        ['routines', 'delete', expect.stringMatching(/^expired on .*: deleted$/)],
        ['routines', 'update', expect.stringMatching(/^expired on .*: paused$/)],
      ]),
    );
    expect(expired).toHaveLength(3);
    const text = await steward.plan();
    expect(text.out).toContain('expired on');

    expect((await steward.apply()).code).toBe(0);
    expect(graceLimit(steward.emulator)).toBe(500);
    expect(routine(steward.emulator, 'Monthly marketing recap')).toBeUndefined();
    expect(routine(steward.emulator, 'Daily pipeline check')?.disabled).toBe(true);
    const again = await steward.plan();
    expect(again.out).toContain('No changes');
    expect(again.code).toBe(EXIT.ok);
  });

  it('plans nothing for what expires tomorrow, says until when, and validate warns', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    await expiring(day(1));
    expect((await steward.plan()).code).toBe(EXIT.ok);

    const io = captureIo({}, steward.directory);
    const code = await runValidate(steward.directory, {}, io);
    const result = io.result(code);
    expect(result.code).toBe(0);
    const output = result.out + result.err;
    expect(output).toMatch(/credit\.yaml:\d+:\d+.*expires on \d+ \w{3} \d{4}, within (a day|2 days): the first apply after that sets the limit back to 500/);
    expect(output).toMatch(/routines\.yaml:\d+:\d+.*the first apply after that deletes the routine/);
    expect(output).toMatch(/the first apply after that pauses the routine/);

    // A change to an entry in force says until when.
    await edit('credit.yaml', (text) => text.replace('creditLimit: 750\n', 'creditLimit: 800\n'));
    const plan = await planJson();
    const grace = plan.steps.find((step) => step.kind === 'userCreditLimits' && step.key === GRACE)!;
    expect(grace.until).toEqual({ at: expect.stringMatching(/T00:00:00\.000Z$/), day: expect.stringMatching(/^\d+ \w{3} \d{4}$/) });
    expect((await steward.plan()).out).toMatch(/until \d+ \w{3} \d{4} \(undone from then on\)/);
  });

  it('refuses, as stale, a plan saved before an expiry and applied after it', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    const soon = new Date(Date.now() + 1_500).toISOString();
    await edit('credit.yaml', (text) => text.replace('creditLimit: 750               # finance lead', `creditLimit: 800\n    until: "${soon}"`));
    const planFile = join(steward.directory, 'plan.json');
    expect((await steward.plan({ out: planFile })).code).toBe(EXIT.changes);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(soon) - Date.now() + 50)));

    const applied = await steward.apply(planFile);
    expect(applied.code).toBe(1);
    expect(applied.err).toMatch(/^Error: \S+credit\.yaml:\d+:\d+: the plan is stale: the credit limit of grace@acme\.example expired on .* after the plan was made/m);
    expect(graceLimit(steward.emulator)).toBe(750);
  });
});

describe('until that cannot be read', () => {
  it('is an error at its position, as is `then` without `until`', async () => {
    steward = await gitopsAgainstDemo();
    await edit('credit.yaml', (text) =>
      text
        .replace('creditLimit: 750               # finance lead', 'creditLimit: 750\n    until: 2026-02-30')
        .replace('    creditLimit: 300\n', '    creditLimit: 300\n    then: 100\n'),
    );
    const result = await steward.plan();
    expect(result.code).toBe(EXIT.error);
    const output = result.out + result.err;
    expect(output).toMatch(/credit\.yaml:\d+:\d+.*`2026-02-30` is not a calendar day/);
    expect(output).toContain('`then` says what happens once `until` has passed, but this entry has no `until`');
  });
});
