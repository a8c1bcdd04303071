// Who routine output reaches, end to end in both emulator profiles: a routine with a mistyped
// recipient is planned with the recipient named as not a user and the directory's did-you-mean
// (text, JSON, Markdown's lead line); `routines.recipientsMustBeUsers: true` makes it a policy
// violation that stops plan and apply before any write; a deactivated user, a user group and
// Slack recipients are classified as such; a personal token says "not checked" once; and an
// unknown user in a credit limit gets the same did-you-mean.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plan, PlanRecipient } from '../../src/model/plan.js';
import { POLICY_EXIT_CODE } from '../../src/policy/evaluate.js';
import { datasetSeed, startEmulator } from '../../src/emulator/index.js';
import { copyExample, creatorRoutineKey, gitopsAgainstDemo, keyHasUser, PROFILES, Steward } from './helpers.js';

let steward: Steward | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  steward = undefined;
});

const DIGEST_RECIPIENTS = '        - ada@acme.example\n        - grace@acme.example\n';

const originals = new Map<string, string>();

/** Gives "Weekly revenue digest" in the example's routines.yaml these recipients (in place of the example's). */
async function digestRecipients(directory: string, recipients: string): Promise<void> {
  const path = join(directory, 'routines.yaml');
  if (!originals.has(path)) originals.set(path, await readFile(path, 'utf8'));
  const text = originals.get(path)!;
  expect(text).toContain(DIGEST_RECIPIENTS);
  await writeFile(path, text.replace(DIGEST_RECIPIENTS, recipients));
}

async function writePolicies(directory: string, yaml: string): Promise<void> {
  await writeFile(join(directory, 'policies.yaml'), `version: 1\n${yaml}`);
}

function recipientsOf(plan: Plan, name: string): PlanRecipient[] | undefined {
  return plan.steps.find((step) => step.kind === 'routines' && step.key.endsWith(name) && step.action !== 'delete')?.recipients;
}

describe.each(PROFILES)('who routine output reaches (%s profile)', (profile) => {
  const digest = `routine "${creatorRoutineKey({ profile }, 'Weekly revenue digest')}"`;
  it('names a mistyped recipient as not a user with the directory\'s did-you-mean, in text, JSON and Markdown', async () => {
    steward = await gitopsAgainstDemo({ profile });
    await digestRecipients(steward.directory, '        - ada@acme.example\n        - grase@acme.example\n');

    const json = await steward.plan({ json: true });
    expect(json.code).toBe(3);
    const plan = JSON.parse(json.out) as Plan;
    expect(recipientsOf(plan, 'Weekly revenue digest')).toEqual([
      { recipient: 'grase@acme.example', change: 'added', is: 'not-a-user', didYouMean: 'grace@acme.example' },
      { recipient: 'grace@acme.example', change: 'removed', is: 'user' },
    ]);
    // Slack recipients are what the destination says; a routine whose recipients stay has none listed.
    expect(recipientsOf(plan, 'Monthly marketing recap')).toEqual([{ recipient: 'U0MARKETING', change: 'added', is: 'slack-user' }]);
    expect(recipientsOf(plan, 'Daily pipeline check')).toBeUndefined();
    expect(plan.warnings.map((warning) => warning.code)).not.toContain('routines.recipients-not-checked');

    const text = await steward.plan();
    expect(text.out).toContain(
      `Routine output now reaches 1 new recipient outside the instance:\n  ! grase@acme.example (not a user; did you mean grace@acme.example?) from ${digest}\n`,
    );
    expect(text.out).toContain('      recipients added: grase@acme.example (not a user; did you mean grace@acme.example?)\n      recipients removed: grace@acme.example (user)\n');

    const markdown = await steward.plan({ markdown: true });
    const lines = markdown.out.split('\n');
    // The line right under the heading.
    expect(lines[2]).toBe(
      `> **⚠️ Routine output now reaches 1 new recipient outside the instance:** grase@acme.example (not a user; did you mean grace@acme.example?) from ${digest}`,
    );
  });

  it('with recipientsMustBeUsers: true, stops the plan (exit 4) and the apply before any write; a correct address passes and converges', async () => {
    steward = await gitopsAgainstDemo({ profile });
    await digestRecipients(steward.directory, '        - ada@acme.example\n        - grase@acme.example\n');
    await writePolicies(steward.directory, 'policies:\n  routines:\n    recipientsMustBeUsers: true\n');

    const plan = await steward.plan();
    expect(plan.code).toBe(POLICY_EXIT_CODE);
    expect(plan.out).toContain(
      `routines.recipientsMustBeUsers: routines "${creatorRoutineKey({ profile }, 'Weekly revenue digest')}": recipient grase@acme.example (did you mean grace@acme.example?) is not a user of the instance, and routines.recipientsMustBeUsers is set`,
    );

    const refused = await steward.apply();
    expect(refused.code).toBe(POLICY_EXIT_CODE);
    expect(refused.err).toContain('the plan breaks policy rule routines.recipientsMustBeUsers; nothing was applied');
    expect(steward.emulator.stats().writes).toBe(0);

    // A saved plan is judged again, its recipients looked up again: still refused, nothing written.
    const file = join(steward.directory, 'plan.json');
    expect((await steward.plan({ out: file })).code).toBe(POLICY_EXIT_CODE);
    const saved = JSON.parse(await readFile(file, 'utf8')) as Plan;
    // An edited classification proves nothing.
    for (const step of saved.steps) for (const recipient of step.recipients ?? []) recipient.is = 'user';
    await writeFile(file, JSON.stringify(saved));
    const savedRefused = await steward.apply(file);
    expect(savedRefused.code).toBe(POLICY_EXIT_CODE);
    expect(steward.emulator.stats().writes).toBe(0);

    await digestRecipients(steward.directory, '        - ada@acme.example\n        - grace@acme.example\n'.replace('grace', 'margaret'));
    const applied = await steward.apply();
    expect(applied.code).toBe(0);
    expect((await steward.plan()).code).toBe(0);
  });

  it('classifies a deactivated user and a user group', async () => {
    // Ken has left: his account is deactivated (SCIM `active: false`).
    const seed = datasetSeed('demo');
    seed.users = seed.users.map((user) => (user.email === 'ken@acme.example' ? { ...user, active: false } : user));
    // Routines name groups by uuid (the config's rule); whether this one exists is not the plan's business here.
    const group = { id: '3f2c9a1e-8b7d-4c6a-9e5f-1a2b3c4d5e6f' };
    steward = new Steward(await startEmulator({ data: seed, profile }), await copyExample('gitops', { namedOwners: !keyHasUser({ profile }) }));
    await digestRecipients(steward.directory, `        - ada@acme.example\n        - grace@acme.example\n        - ken@acme.example\n      userGroupIds: [${group.id}]\n`);
    const json = await steward.plan({ json: true });
    expect(json.code, json.err).toBe(3);
    const plan = JSON.parse(json.out) as Plan;
    expect(recipientsOf(plan, 'Weekly revenue digest')).toEqual([
      { recipient: 'ken@acme.example', change: 'added', is: 'deactivated-user' },
      { recipient: group.id, change: 'added', is: 'user-group' },
    ]);
    const text = await steward.plan();
    expect(text.out).toContain(`Routine output now reaches 1 new recipient outside the instance:\n  ! ken@acme.example (deactivated user) from ${digest}\n`);
  });

  it('gives an unknown user in a credit limit the same did-you-mean', async () => {
    steward = await gitopsAgainstDemo({ profile });
    const path = join(steward.directory, 'credit.yaml');
    await writeFile(path, (await readFile(path, 'utf8')).replace('- email: margaret@acme.example', '- email: margret@acme.example'));
    const result = await steward.plan();
    expect(result.code).toBe(1);
    expect(result.err).toContain('this e-mail address is not a user of the instance: margret@acme.example (did you mean margaret@acme.example?)');
    expect(steward.emulator.stats().writes).toBe(0);
  });
});

describe.each(PROFILES)('recipients with a personal token (%s profile)', (profile) => {
  it('are "not checked", said once; recipientsMustBeUsers then refuses what it cannot check', async () => {
    steward = await gitopsAgainstDemo({ profile });
    const { directory } = steward;
    // A personal token manages its own user's routines only: no credit controls, labels or other owners.
    await rm(join(directory, 'credit.yaml'));
    await rm(join(directory, 'labels.yaml'));
    const path = join(directory, 'routines.yaml');
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.slice(0, text.indexOf('  # Owned by Grace')).replace(/^ {4}owner: .*\n/gm, '').replace('grace@acme.example\n', 'grase@acme.example\n        - linus@acme.example\n'));
    steward = new Steward(steward.emulator, directory, 'production', { STEWARD_PRODUCTION_TOKEN: 'demo-ada-personal-token' });

    const json = await steward.plan({ json: true });
    expect(json.code, json.err).toBe(3);
    const plan = JSON.parse(json.out) as Plan;
    expect(recipientsOf(plan, 'Weekly revenue digest')).toEqual([
      { recipient: 'grase@acme.example', change: 'added', is: 'not-checked' },
      { recipient: 'linus@acme.example', change: 'added', is: 'not-checked' },
      { recipient: 'grace@acme.example', change: 'removed', is: 'not-checked' },
    ]);
    expect(plan.warnings.filter((warning) => warning.code === 'routines.recipients-not-checked')).toHaveLength(1);
    expect(steward.emulator.stats().byRoute['GET /api/scim/v2/users'] ?? 0).toBe(0);

    await writePolicies(directory, 'policies:\n  routines:\n    recipientsMustBeUsers: true\n');
    const refused = await steward.plan();
    expect(refused.code).toBe(POLICY_EXIT_CODE);
    expect(refused.out).toContain('recipients grase@acme.example, linus@acme.example are not checked (this API key cannot read the directory)');
  });
});
