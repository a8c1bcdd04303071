// A plan file passes through other hands (a CI artifact) and may be edited. Apply checks its whole
// structure when it loads it, before any request: an edited step of an unknown kind, without the
// members its action needs, with members of the wrong type, a duplicate id, or a kind the plan
// did not read, is refused as `plan-file.invalid`, naming the step and what is wrong, never met
// later as a TypeError (an internal error) while judging the steps. The unedited file still applies.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import type { Plan } from '../../src/model/plan.js';
import { gitopsAgainstDemo, type Steward } from './helpers.js';

const HINT = 'make a new plan with `steward plan --out FILE`';
const KINDS = 'creditControls, userCreditLimits, userGroupCreditLimits, entityGroupCreditLimits, routines, labels, documentLabels, folderLabels';

/** An edit of the parsed plan file: changes it in place, or returns what to write instead. */
type Edit = (plan: Record<string, unknown> & { steps: Record<string, unknown>[] }) => unknown;

let steward: Steward | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  steward = undefined;
});

const planPath = (at: Steward) => join(at.directory, 'plan.json');

/** The gitops plan saved, and the ids of its steps in order. */
async function savedPlan(): Promise<{ steward: Steward; text: string; plan: Plan }> {
  steward = await gitopsAgainstDemo();
  expect((await steward.plan({ out: 'plan.json' })).code).toBe(EXIT.destructive);
  const text = await readFile(planPath(steward), 'utf8');
  return { steward, text, plan: JSON.parse(text) as Plan };
}

/** Applies the saved text after `edit` (which changes the parsed plan in place, or returns what to write instead). */
async function applyEdited(at: Steward, text: string, edit: Edit) {
  const plan = JSON.parse(text) as Parameters<Edit>[0];
  const replaced = edit(plan);
  await writeFile(planPath(at), JSON.stringify(replaced === undefined ? plan : replaced, null, 2));
  return at.apply('plan.json', { json: true });
}

describe('a hand-edited plan file is refused when loaded, naming the step and what is wrong', () => {
  it('the steps the demo plan holds, in order (the cases below name them by index)', async () => {
    const { plan } = await savedPlan();
    expect(plan.steps.slice(0, 4).map((step) => `${step.action} ${step.id}`)).toEqual(['update creditControls/settings', 'update labels/board-kpis', 'create labels/certified', 'update labels/finance']);
    expect(plan.steps.map((step) => `${step.action} ${step.id}`)).toContain('delete labels/obsolete');
  });

  const obsolete = (plan: Parameters<Edit>[0]) => plan.steps.find((step) => step.id === 'labels/obsolete')!;
  const obsoleteIndex = 24;
  const cases: [string, Edit, string][] = [
    ['a step of an unknown kind', (plan) => void (plan.steps[0]!.kind = 'bogus'), `steps[0] (creditControls/settings): kind must be one of ${KINDS}, found "bogus"`],
    ['an update step without fields', (plan) => void delete plan.steps[0]!.fields, 'steps[0] (creditControls/settings): an update step must have fields'],
    ['before: null', (plan) => void (plan.steps[0]!.before = null), 'steps[0] (creditControls/settings): before must be an object, found null'],
    [
      'kinds narrowed to labels while steps of other kinds remain',
      (plan) => void (plan.kinds = ['labels']),
      [
        'steps[0] (creditControls/settings): kind creditControls is not among the plan\'s kinds (labels)',
        'steps[4] (userCreditLimits/3f1c9a7e-5b2d-4e8f-9a6c-1d0e2f3a4b02): kind userCreditLimits is not among the plan\'s kinds (labels)',
        'steps[5] (userCreditLimits/3f1c9a7e-5b2d-4e8f-9a6c-1d0e2f3a4b04): kind userCreditLimits is not among the plan\'s kinds (labels)',
        'steps[6] (userCreditLimits/3f1c9a7e-5b2d-4e8f-9a6c-1d0e2f3a4b05): kind userCreditLimits is not among the plan\'s kinds (labels)',
        'steps[7] (userCreditLimits/3f1c9a7e-5b2d-4e8f-9a6c-1d0e2f3a4b06): kind userCreditLimits is not among the plan\'s kinds (labels)',
        'and 17 more problems',
      ].join('; '),
    ],
    ['kinds naming an unknown kind', (plan) => void (plan.kinds as string[]).push('bogus'), `kinds[8] must be one of ${KINDS}, found "bogus"`],
    ['kinds naming a kind twice', (plan) => void (plan.kinds as string[]).push('labels'), 'kinds lists "labels" twice'],
    ['a step without an id', (plan) => void delete plan.steps[2]!.id, 'steps[2]: id is missing'],
    ['two steps with one id', (plan) => void (plan.steps[3]!.id = 'labels/certified'), 'steps[3] (labels/certified): id is also the id of steps[2]'],
    ['an unknown action', (plan) => void (plan.steps[1]!.action = 'rename'), 'steps[1] (labels/board-kpis): action must be one of create, update, replace, delete, found "rename"'],
    ['a create step with a before', (plan) => void (plan.steps[2]!.before = { name: 'certified' }), 'steps[2] (labels/certified): a create step must have neither before nor fields'],
    ['a create step without its after', (plan) => void delete plan.steps[2]!.after, 'steps[2] (labels/certified): a create step must have after'],
    ['a delete step without its before', (plan) => void delete obsolete(plan).before, `steps[${obsoleteIndex}] (labels/obsolete): a delete step must have before`],
    ['after a list, not an object', (plan) => void (plan.steps[1]!.after = ['board-kpis']), 'steps[1] (labels/board-kpis): after must be an object, found an array'],
    ['fields an object, not a list', (plan) => void (plan.steps[3]!.fields = { color: '#1a7f37' }), 'steps[3] (labels/finance): fields must be an array, found an object'],
    ['a field change without its path', (plan) => void (plan.steps[3]!.fields = [{ before: '#0366d6', after: '#1a7f37' }]), 'steps[3] (labels/finance): fields[0].path is missing'],
    ['a field path that is a number', (plan) => void (plan.steps[3]!.fields = [{ path: 7, before: '#0366d6', after: '#1a7f37' }]), 'steps[3] (labels/finance): fields[0].path must be a string, found 7'],
    ['dependsOn a string, not a list', (plan) => void (plan.steps[2]!.dependsOn = 'labels/finance'), 'steps[2] (labels/certified): dependsOn must be an array, found "labels/finance"'],
    ['dependsOn holding a number', (plan) => void (plan.steps[2]!.dependsOn = [3]), 'steps[2] (labels/certified): dependsOn[0] must be a string, found 3'],
    ['ref holding a number', (plan) => void (plan.steps[4]!.ref = { userId: 42 }), 'steps[4] (userCreditLimits/3f1c9a7e-5b2d-4e8f-9a6c-1d0e2f3a4b02): ref.userId must be a string, found 42'],
    ['a step that is not an object', (plan) => void (plan.steps[1] = 'labels/board-kpis' as never), 'steps[1]: it must be an object, found "labels/board-kpis"'],
    ['steps an object, not a list', (plan) => void (plan.steps = { 'labels/certified': {} } as never), 'steps must be an array, found an object'],
    ['the environment left out', (plan) => void delete plan.environment, 'environment is missing'],
  ];

  it.each(cases)('%s', async (_what, edit, problem) => {
    const { steward: at, text } = await savedPlan();
    const requests = at.emulator.stats().requests;

    const refused = await applyEdited(at, text, edit);

    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toEqual({
      error: { code: 'plan-file.invalid', fault: 'user', message: `${planPath(at)} is not a well-formed steward plan file: ${problem}`, hint: HINT },
    });
    // Refused on loading: not a request made, nothing written.
    expect(at.emulator.stats().requests).toBe(requests);
    expect(at.emulator.stats().writes).toBe(0);
  });

  it('says so on the terminal with the hint, and several problems in one line', async () => {
    const { steward: at, text } = await savedPlan();
    await writeFile(planPath(at), JSON.stringify({ ...JSON.parse(text), kinds: ['labels', 'bogus'], steps: [{ id: 'labels/x', kind: 'labels', key: 'x', action: 'update', dependsOn: [], ref: {}, before: null, after: {} }] }));
    const refused = await at.apply('plan.json');
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `Error: ${planPath(at)} is not a well-formed steward plan file: kinds[1] must be one of ${KINDS}, found "bogus"; steps[0] (labels/x): an update step must have fields; steps[0] (labels/x): before must be an object, found null\nHint: ${HINT}\n`,
    );
    expect(at.emulator.stats().writes).toBe(0);
  });

  it('refuses a file that is JSON but not an object', async () => {
    const { steward: at } = await savedPlan();
    for (const text of ['null', '[]', '"plan"']) {
      await writeFile(planPath(at), text);
      const refused = await at.apply('plan.json', { json: true });
      expect(refused.code, text).toBe(1);
      expect(JSON.parse(refused.out), text).toEqual({ error: { code: 'plan-file.invalid', fault: 'user', message: `${planPath(at)} is not a steward plan file (not a JSON object)`, hint: HINT } });
    }
    expect(at.emulator.stats().writes).toBe(0);
  });

  it('applies the file as saved, and the next plan is empty', async () => {
    const { steward: at } = await savedPlan();
    expect((await at.apply('plan.json')).code).toBe(0);
    expect((await at.plan()).code).toBe(EXIT.ok);
  });
});
