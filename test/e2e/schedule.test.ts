// When routines run: `steward schedule` shows the gitops example's week offline (no token, no
// server), in the terminal, Markdown and JSON; routines.maxRunsPerHour marks crowded hours there
// and, in both emulator profiles, stops a plan that adds a routine to a crowded hour (exit 4, no
// write); a plan that changes routines carries the week and its Markdown shows it.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSchedule } from '../../src/cli/schedule.js';
import type { RunWeek } from '../../src/domain/runWeek.js';
import type { Plan } from '../../src/model/plan.js';
import { POLICY_EXIT_CODE } from '../../src/policy/evaluate.js';
import { captureIo, copyExample, gitopsAgainstDemo, PROFILES, type Steward } from './helpers.js';

let steward: Steward | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  steward = undefined;
});

const NOW = new Date('2026-11-25T10:00:00Z'); // a Wednesday

/** A second routine starting in the hour of "Weekly revenue digest" (Mondays 08:00 Berlin, 07:00 UTC). */
const CROWDING = `
  - name: Monday standup notes
    prompt: Summarise the open pipeline for the Monday standup.
    schedule: "30 7 ? * MON *"
    timezone: UTC
    model: Sales
    topicName: orders
    destination:
      type: email
      recipientEmails: [ada@acme.example]
`;

async function addRoutine(directory: string): Promise<void> {
  const path = join(directory, 'routines.yaml');
  const text = await readFile(path, 'utf8');
  await writeFile(path, text.replace('\nprune:', `${CROWDING}\nprune:`));
}

async function schedule(directory: string, options: Record<string, unknown> = {}) {
  // No token in the environment and no server anywhere: the command reads only the files.
  const io = captureIo({}, directory);
  return io.result(await runSchedule({ config: directory, now: NOW, ...options }, io));
}

describe('steward schedule', () => {
  it('prints the week of the gitops example as a heatmap, offline', async () => {
    const directory = await copyExample('gitops');
    const result = await schedule(directory);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toBe(
      [
        'Routine runs per hour, Wed 25 Nov – Tue 1 Dec 2026 (UTC): 8 runs of 4 routines',
        '',
        '           00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23',
        `Wed 25 Nov ${' ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  1  ·  ·  ·  ·  ·  ·  ·  ·  ·  · '}`,
        `Thu 26 Nov ${' ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  1  ·  ·  ·  ·  ·  ·  ·  ·  ·  · '}`,
        `Fri 27 Nov ${' ·  ·  ·  ·  ·  ·  ·  1  ·  ·  ·  ·  ·  1  ·  ·  ·  ·  ·  ·  ·  ·  ·  · '}`,
        `Sat 28 Nov ${' ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  · '}`,
        `Sun 29 Nov ${' ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  · '}`,
        `Mon 30 Nov ${' ·  ·  ·  ·  ·  ·  ·  1  ·  ·  ·  ·  ·  1  ·  ·  ·  ·  ·  ·  ·  ·  ·  · '}`,
        `Tue  1 Dec ${' ·  ·  ·  ·  ·  ·  ·  ·  1  ·  ·  ·  ·  1  ·  ·  ·  ·  ·  ·  ·  ·  ·  · '}`,
        '',
        '· none, a number: routines starting in that hour',
        '',
      ].join('\n'),
    );
  });

  it('shows another zone, Markdown and JSON with the counts', async () => {
    const directory = await copyExample('gitops');
    const markdown = await schedule(directory, { tz: 'Europe/Berlin', markdown: true });
    expect(markdown.out).toContain('**Routine runs per hour, Wed 25 Nov – Tue 1 Dec 2026 (Europe/Berlin): 8 runs of 4 routines**');
    expect(markdown.out).toContain('| Mon 30 Nov |  |  |  |  |  |  |  |  | 1 |');
    const json = await schedule(directory, { env: 'production', json: true });
    const week = JSON.parse(json.out) as RunWeek & { environments: string[] };
    expect(week.environments).toEqual(['production']);
    expect(week.days).toHaveLength(7);
    expect(week.days[5]).toEqual({ date: '2026-11-30', weekday: 'Mon', hours: Array.from({ length: 24 }, (_, hour) => (hour === 7 || hour === 13 ? 1 : 0)) });
    const wrong = await schedule(directory, { tz: 'Europe/Berln' });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('--tz Europe/Berln: unknown timezone');
  });

  it('marks the hours above routines.maxRunsPerHour', async () => {
    const directory = await copyExample('gitops');
    await addRoutine(directory);
    await writeFile(join(directory, 'policies.yaml'), 'version: 1\npolicies:\n  routines:\n    maxRunsPerHour: 1\n');
    const result = await schedule(directory);
    expect(result.out).toContain(`Mon 30 Nov ${' ·  ·  ·  ·  ·  ·  ·  2! ·'}`);
    expect(result.out).toContain('1 hour marked ! has more than 1 routine start (routines.maxRunsPerHour).');
    expect(JSON.parse((await schedule(directory, { json: true })).out)).toMatchObject({ maxRunsPerHour: 1 });
  });
});

describe.each(PROFILES)('routine runs in a plan (%s profile)', (profile) => {
  it('a plan that changes routines carries the week, and its Markdown shows it', async () => {
    steward = await gitopsAgainstDemo({ profile });
    const plan = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    expect(plan.routineRuns).toMatchObject({ timezone: 'UTC', routines: 4, paused: 0 });
    expect(plan.routineRuns!.days).toHaveLength(7);
    const markdown = await steward.plan({ markdown: true });
    expect(markdown.out).toContain('<details><summary>When routines run</summary>');
    expect(markdown.out).toMatch(/\*\*Routine runs per hour, .* \(UTC\): \d+ runs of 4 routines\*\*/);
  });

  it('routines.maxRunsPerHour stops a plan that adds a routine to a crowded hour, before any write', async () => {
    steward = await gitopsAgainstDemo({ profile, });
    await addRoutine(steward.directory);
    if (profile === 'other') {
      // The organization key of this profile has no user: the new routine names its owner too.
      const path = join(steward.directory, 'routines.yaml');
      await writeFile(path, (await readFile(path, 'utf8')).replace('  - name: Monday standup notes\n', '  - name: Monday standup notes\n    owner: ada@acme.example\n'));
    }
    await writeFile(join(steward.directory, 'policies.yaml'), 'version: 1\npolicies:\n  routines:\n    maxRunsPerHour: 1\n');
    const plan = await steward.plan();
    expect(plan.code).toBe(POLICY_EXIT_CODE);
    expect(plan.out).toMatch(/routines\.maxRunsPerHour: 2 routines start in the same hour \("Monday standup notes", "Weekly revenue digest"\) on Mon \d\d-\d\d 07:00 UTC; routines\.maxRunsPerHour allows 1/);
    const refused = await steward.apply();
    expect(refused.code).toBe(POLICY_EXIT_CODE);
    expect(steward.emulator.stats().writes).toBe(0);
  });
});
