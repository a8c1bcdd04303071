// `ignore:`: fields steward sets when it creates an object and never changes afterwards. The
// on-call engineer who pauses a routine in the app is not overruled by the next apply, nor by a
// plan saved before the pause; a field that names the object or replaces it cannot be ignored.
// Both emulator profiles, against the gitops example.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { EXIT } from '../../src/cli/plan.js';
import { creatorRoutineKey, gitopsAgainstDemo, KEY_CREATOR, keyHasUser, PRODUCTION_TOKEN, PROFILES, type Steward } from './helpers.js';

let steward: Steward;
afterEach(async () => {
  await steward.emulator.close();
});

const PIPELINE = 'Daily pipeline check';

async function editRoutines(change: (text: string) => string): Promise<void> {
  const path = join(steward.directory, 'routines.yaml');
  const text = await readFile(path, 'utf8');
  const changed = change(text);
  expect(changed).not.toBe(text);
  await writeFile(path, changed);
}

/** `ignore: [paused]` on the pipeline check. */
const ignorePaused = (text: string) => text.replace(`  - name: ${PIPELINE}\n`, `  - name: ${PIPELINE}\n    ignore: [paused]\n`);
const newPrompt = (text: string) => text.replace('prompt: List deals that moved stage yesterday.', 'prompt: List deals that moved stage yesterday, with their owner.');

function pipeline(emulator: RunningEmulator) {
  return emulator.state.routines(KEY_CREATOR).find((routine) => routine.name === PIPELINE)!;
}

/** Pauses (or resumes) the routine as someone would in the app: the documented PUT. */
async function pauseInApp(emulator: RunningEmulator, paused: boolean, ownerId?: string): Promise<void> {
  const routine = pipeline(emulator);
  const query = ownerId === undefined ? '' : `?userId=${ownerId}`;
  const response = await fetch(`${emulator.url}/api/v1/ai/routines/${routine.id}${query}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${PRODUCTION_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: routine.name, prompt: routine.prompt, schedule: routine.schedule, isActive: !paused }),
  });
  expect(response.status).toBe(200);
  expect(pipeline(emulator).disabled).toBe(paused);
}

async function planJson(): Promise<Plan> {
  const result = await steward.plan({ json: true });
  expect(result.err).toBe('');
  return JSON.parse(result.out) as Plan;
}

describe.each(PROFILES)('ignore (%s profile)', (profile) => {
  const owner = (emulator: RunningEmulator) => (keyHasUser({ profile }) ? undefined : emulator.state.userId(KEY_CREATOR));

  it('leaves a routine paused in the app alone: no change planned, none applied, none drifted', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    await editRoutines(ignorePaused);
    await pauseInApp(steward.emulator, true, owner(steward.emulator));

    const plan = await steward.plan();
    expect(plan.code).toBe(EXIT.ok);
    expect(plan.out).toContain('No changes');
    expect((await steward.plan({ purpose: 'drift' })).code).toBe(EXIT.ok);
    const io = await steward.apply();
    expect(io.code).toBe(0);
    expect(pipeline(steward.emulator).disabled).toBe(true);
  });

  it('changes the other fields, writes the live pause back as it is, and says the ignored field differs', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    await editRoutines((text) => newPrompt(ignorePaused(text)));
    await pauseInApp(steward.emulator, true, owner(steward.emulator));

    const plan = await planJson();
    const step = plan.steps.find((candidate) => candidate.key === creatorRoutineKey({ profile }, PIPELINE))!;
    expect(step.action).toBe('update');
    expect(step.action === 'update' && step.fields.map((field) => field.path)).toEqual(['prompt']);
    expect(step.ignore).toEqual(['paused']);
    expect(step.ignored).toEqual([{ path: 'paused', before: true, after: false }]);
    const text = await steward.plan();
    expect(text.out).toContain('paused: ignored (stays true; the config says false)');

    expect((await steward.apply()).code).toBe(0);
    expect(pipeline(steward.emulator)).toMatchObject({ prompt: 'List deals that moved stage yesterday, with their owner.', disabled: true });
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });

  it('applies a plan saved before the pause without calling it stale, and keeps the pause', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    await editRoutines((text) => newPrompt(ignorePaused(text)));
    const planFile = join(steward.directory, 'plan.json');
    expect((await steward.plan({ out: planFile })).code).toBe(EXIT.changes);
    await pauseInApp(steward.emulator, true, owner(steward.emulator));

    const applied = await steward.apply(planFile);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(pipeline(steward.emulator)).toMatchObject({ prompt: 'List deals that moved stage yesterday, with their owner.', disabled: true });
  });

  it('takes a kind-wide default from the top-level `ignore:`', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    await editRoutines((text) => text.replace('\nroutines:\n', '\nignore:\n  routines: [paused]\n\nroutines:\n'));
    await pauseInApp(steward.emulator, true, owner(steward.emulator));
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });
});

describe('ignore lists that cannot be', () => {
  it('refuse identity and replacing fields with the reason, and a misspelt field with a suggestion', async () => {
    steward = await gitopsAgainstDemo();
    await editRoutines((text) =>
      text
        .replace(`  - name: ${PIPELINE}\n`, `  - name: ${PIPELINE}\n    ignore: [name, pasued, topicName]\n`)
        .replace('\nroutines:\n', '\nignore:\n  routines: [timezone]\n  labels: [documents]\n\nroutines:\n'),
    );
    const result = await steward.plan();
    expect(result.code).toBe(EXIT.error);
    const output = result.out + result.err;
    expect(output).toContain('`name` cannot be ignored: it identifies the routine');
    expect(output).toMatch(/`pasued` is not a field of a routine[\s\S]*did you mean `paused`\?/);
    expect(output).toContain('`topicName` cannot be ignored: changing it replaces the routine');
    expect(output).toContain('`timezone` cannot be ignored: in `production` and `playground` (routineUpdate: put, the documented update) changing it replaces the routine');
    expect(output).toContain('`documents` cannot be ignored');
    expect(output).toMatch(/routines\.yaml:\d+:\d+/);
  });
});
