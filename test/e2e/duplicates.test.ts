// Duplicates that already exist: copies of a routine made through the API (by hand, another
// tool, or a race that could not be settled). The plan refuses to pick one and says the way
// out; with `duplicates: delete-identical` apply removes the identical copies, keeping the
// oldest, and the next plan is empty; a copy that differs is never deleted that way. Against
// both emulator profiles.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentedRoutine as Routine } from '../../src/api/types.js';
import { EXIT } from '../../src/cli/plan.js';
import { EMULATOR_PROFILES } from '../../src/emulator/index.js';
import { gitopsAgainstDemo, PRODUCTION_TOKEN, type Steward } from './helpers.js';

const PIPELINE = 'Daily pipeline check';

let steward: Steward;
afterEach(async () => {
  await steward?.emulator.close();
});

/** The live routines named `name`, oldest first, and the id of their owner. */
function namesakes(name: string): { routines: Routine[]; ownerId: string } {
  const stored = steward.emulator.state.snapshot().routines.filter((routine) => routine.name === name);
  const routines = steward.emulator.state.routines().filter((routine) => routine.name === name);
  return { routines, ownerId: stored[0]!.ownerId };
}

/** A copy of a live routine made through the API, as someone using the app (or another tool) would. */
async function copyThroughApi(original: Routine, ownerId: string, changes: Partial<Routine> = {}): Promise<string> {
  const source = { ...original, ...changes };
  const body = {
    name: source.name,
    prompt: source.prompt,
    schedule: source.schedule,
    timezone: source.timezone,
    modelId: source.modelId,
    topicName: source.topicName,
    description: source.description,
    destination: source.destination,
  };
  const response = await fetch(`${steward.emulator.url}/api/v1/ai/routines?userId=${ownerId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${PRODUCTION_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  return ((await response.json()) as { id: string }).id;
}

/** Adds `duplicates: delete-identical` to the pipeline check in the copy of examples/gitops. */
async function optIn(): Promise<void> {
  const path = join(steward.directory, 'routines.yaml');
  const text = await readFile(path, 'utf8');
  const anchor = '      recipientId: C0PIPELINE1\n      slackRecipientType: channel\n';
  expect(text).toContain(anchor);
  await writeFile(path, text.replace(anchor, `${anchor}    duplicates: delete-identical\n`));
}

describe.each(EMULATOR_PROFILES)('existing duplicate routines (emulator profile %s)', (profile) => {
  it('the plan refuses to pick one and says the way out', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    const { routines: [original], ownerId } = namesakes(PIPELINE);
    const first = await copyThroughApi(original!, ownerId);
    const second = await copyThroughApi(original!, ownerId);

    const plan = await steward.plan();
    expect(plan.code).toBe(EXIT.error);
    // At the routine in the config, where the way out goes.
    expect(plan.err).toMatch(/routines\.yaml:\d+:5: 3 live routines owned by/);
    expect(plan.err).toContain(`are named "${PIPELINE}"`);
    expect(plan.err).toContain(
      `Hint: ${first}, ${second} are identical copies of the oldest, ${original!.id}, which matches the config: ` +
        `add \`duplicates: delete-identical\` to this routine in the config and the plan deletes them, keeping ${original!.id}; then plan again`,
    );
  });

  it('with duplicates: delete-identical, a reviewed plan removes the identical copies, keeps the oldest, and the next plan is empty', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    const { routines: [original], ownerId } = namesakes(PIPELINE);
    const copies = [await copyThroughApi(original!, ownerId), await copyThroughApi(original!, ownerId)];
    await optIn();

    const planFile = join(steward.directory, 'plan.json');
    const plan = await steward.plan({ out: planFile });
    expect(plan.code).toBe(EXIT.destructive);
    for (const copy of copies) expect(plan.out).toContain(`(${copy}: an identical copy of ${original!.id}, the oldest, which is kept; duplicates: delete-identical)`);

    const applied = await steward.apply(planFile);
    expect(applied.code).toBe(0);
    expect(namesakes(PIPELINE).routines.map((routine) => routine.id)).toEqual([original!.id]);

    const again = await steward.plan();
    expect(again.code).toBe(EXIT.ok);
    expect(again.out).toContain('No changes.');
  });

  it('never deletes a copy that differs from the config; once the user removes it, the identical copy goes', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect((await steward.apply()).code).toBe(0);
    const { routines: [original], ownerId } = namesakes(PIPELINE);
    const identical = await copyThroughApi(original!, ownerId);
    const edited = await copyThroughApi(original!, ownerId, { prompt: 'List deals that moved stage yesterday, by owner.' });
    await optIn();

    const plan = await steward.plan();
    expect(plan.code).toBe(EXIT.error);
    expect(plan.err).toContain(`${edited} differs from the config (prompt): steward never deletes it on its own`);
    const applied = await steward.apply();
    expect(applied.code).toBe(EXIT.error);
    expect(namesakes(PIPELINE).routines.map((routine) => routine.id)).toEqual([original!.id, identical, edited]);

    // The user resolves the differing copy in the app; steward takes care of the identical one.
    const removed = await fetch(`${steward.emulator.url}/api/v1/ai/routines/${edited}?userId=${ownerId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${PRODUCTION_TOKEN}` },
    });
    expect(removed.status).toBe(200);
    expect((await steward.apply()).code).toBe(0);
    expect(namesakes(PIPELINE).routines.map((routine) => routine.id)).toEqual([original!.id]);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });
});
