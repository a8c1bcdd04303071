// `steward show PLANFILE` shows a saved plan as `steward plan` showed it when it saved the file,
// in each form, with no config, no token and no network: the emulator is stopped and the
// environment holds no token before it runs. A file apply would refuse, show refuses alike.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runShow, type ShowOptions } from '../../src/cli/show.js';
import type { Plan } from '../../src/model/plan.js';
import { captureIo, gitopsAgainstDemo, type Result, type Steward } from './helpers.js';

let steward: Steward | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  steward = undefined;
});

/** `steward show FILE` from an empty directory (no config there), with no token in the environment. */
async function show(planFile: string, options: ShowOptions = {}): Promise<Result> {
  const io = captureIo({}, await mkdtemp(join(tmpdir(), 'steward-show-')));
  return io.result(await runShow(planFile, options, io));
}

/** A plan of the gitops example against the demo dataset, saved; the emulator is stopped after. */
async function planThenGoOffline(options: Parameters<Steward['plan']>[0] = {}): Promise<{ planned: Result; planFile: string }> {
  steward = await gitopsAgainstDemo();
  const planFile = join(steward.directory, 'plan.json');
  const planned = await steward.plan({ out: planFile, ...options });
  expect(planned.code).toBe(3); // the demo's live state has objects the config prunes
  await steward.emulator.close();
  return { planned, planFile };
}

describe('steward show', () => {
  it('shows the saved plan as plan did, field changes and cost included, offline and without a token', async () => {
    const { planned, planFile } = await planThenGoOffline();
    const shown = await show(planFile);
    expect(shown).toEqual({ code: 0, out: planned.out, err: '' });
    expect(shown.out).toMatch(/^~ {3}credit controls\n {6}shutoffCredits: 10,000 → 12,000$/m);
    expect(shown.out).toMatch(/^Applying makes about \d+ requests: .* at 6,000 requests\/minute\.$/m);
  });

  it('shows it as JSON, as plan --json printed it (the seal of the ids is the file\'s alone)', async () => {
    const { planned, planFile } = await planThenGoOffline({ json: true });
    const shown = await show(planFile, { json: true });
    expect(shown).toEqual({ code: 0, out: planned.out, err: '' });
    const plan = JSON.parse(shown.out) as Plan;
    expect(plan.requestsPerMinute).toBe(6000);
    expect(plan.identities?.seal).toBeUndefined();
    expect((JSON.parse(await readFile(planFile, 'utf8')) as Plan).identities?.seal).toMatch(/^hmac-sha256:/);
  });

  it('shows it as Markdown, as plan --markdown printed it', async () => {
    const { planned, planFile } = await planThenGoOffline({ markdown: true });
    const shown = await show(planFile, { markdown: true });
    expect(shown).toEqual({ code: 0, out: planned.out, err: '' });
    expect(shown.out).toContain('shutoffCredits');
  });

  it('exits as plan does with --detailed-exitcode, and 0 without', async () => {
    const { planFile } = await planThenGoOffline();
    expect((await show(planFile, { detailedExitcode: true })).code).toBe(3);
    expect((await show(planFile)).code).toBe(0);
  });

  it('refuses a file apply would refuse, with the same error, and one it cannot read', async () => {
    steward = await gitopsAgainstDemo();
    const planFile = join(steward.directory, 'plan.json');
    await steward.plan({ out: planFile });
    const planning = steward.emulator.stats().requests;
    const edited = JSON.parse(await readFile(planFile, 'utf8')) as { steps: { action: string }[] };
    edited.steps[0]!.action = 'explode';
    await writeFile(planFile, JSON.stringify(edited));
    const shown = await show(planFile);
    const applied = await steward.apply(planFile);
    expect(shown.code).toBe(1);
    expect(shown.out).toBe('');
    expect(shown.err).toMatch(/^Error: .*plan\.json is not a well-formed steward plan file: steps\[0\]/);
    expect(shown.err).toBe(applied.err);
    expect(steward.emulator.stats().requests).toBe(planning);

    const missing = await show(join(steward.directory, 'nowhere.json'), { json: true });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out)).toMatchObject({ error: { code: 'plan-file.unreadable', fault: 'user' } });
  });
});
