// Policies end to end: each rule stops the gitops example's first plan against the demo dataset
// (exit 4, the rule, the object and the config position of the rule), lets a plan within it pass,
// makes apply refuse with zero writes, and gives way when the rule is named with
// --override-policy, after which the next plan is empty. A rule switched off in playground still
// holds in production; drift reports violations and promotion plans are judged too.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { StewardConfig } from '../../src/config/types.js';
import type { Plan } from '../../src/model/plan.js';
import { POLICY_EXIT_CODE } from '../../src/policy/evaluate.js';
import type { PolicyRuleName } from '../../src/model/policy.js';
import { runDrift } from '../../src/cli/drift.js';
import { runPlan } from '../../src/cli/plan.js';
import { Deployments } from './deployments.js';
import { captureIo, gitopsAgainstDemo, type Steward } from './helpers.js';

let steward: Steward | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  steward = undefined;
});

/** Writes `policies.yaml` beside the example's files; returns its path. */
async function writePolicies(directory: string, yaml: string): Promise<string> {
  const path = join(directory, 'policies.yaml');
  await writeFile(path, `version: 1\n${yaml}`);
  return path;
}

/** `file:line:col` of the value of the first line that starts with `key:` (after indentation) in `path`. */
async function positionOf(path: string, key: string): Promise<{ file: string; line: number; col: number }> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const line = lines.findIndex((text) => text.trimStart().startsWith(`${key}:`));
  expect(line, `${key} in ${path}`).toBeGreaterThanOrEqual(0);
  const text = lines[line]!;
  const colon = text.indexOf(`${key}:`) + key.length + 1;
  const value = text.slice(colon);
  return { file: path, line: line + 1, col: colon + (value.length - value.trimStart().length) + 1 };
}

interface RuleCase {
  rule: PolicyRuleName;
  /** A policy the demo plan breaks, the key whose value the violation points at, and a message it carries. */
  breaking: string;
  at: string;
  message: RegExp;
  /** The same rule, set so that the demo plan passes. */
  passing: string;
}

const CASES: RuleCase[] = [
  {
    rule: 'maxDestroy',
    breaking: 'policies:\n  maxDestroy: 2\n',
    at: 'maxDestroy',
    message: /the plan deletes or replaces 9 objects \(.*\); maxDestroy allows at most 2/,
    passing: 'policies:\n  maxDestroy: 9\n',
  },
  {
    rule: 'maxChanges',
    breaking: 'policies:\n  maxChanges: 10\n',
    at: 'maxChanges',
    message: /the plan makes 26 changes; maxChanges allows at most 10/,
    passing: 'policies:\n  maxChanges: 26\n',
  },
  {
    rule: 'creditLimits',
    breaking: 'policies:\n  creditLimits:\n    max: 10000\n    allowUnlimited: true\n',
    at: 'max',
    message: /creditControls "credit controls": shutoffCredits would be 12000, above creditLimits\.max 10000/,
    passing: 'policies:\n  creditLimits:\n    max: 12000\n    allowUnlimited: true\n',
  },
  {
    rule: 'routines.recipientDomains',
    breaking: 'policies:\n  routines:\n    recipientDomains: [acme-analytics.example]\n',
    at: 'recipientDomains',
    message: /routines "Weekly revenue digest": recipients ada@acme\.example, grace@acme\.example are outside the allowed domains \(acme-analytics\.example\)/,
    passing: 'policies:\n  routines:\n    recipientDomains: [acme.example]\n',
  },
  {
    rule: 'routines.slackRecipientTypes',
    breaking: 'policies:\n  routines:\n    slackRecipientTypes: [channel]\n',
    at: 'slackRecipientTypes',
    message: /routines "Monthly marketing recap": Slack recipient type users is not allowed \(channel\)/,
    passing: 'policies:\n  routines:\n    slackRecipientTypes: [channel, users]\n',
  },
  {
    rule: 'routines.requirePaused',
    breaking: 'policies:\n  routines:\n    requirePaused: true\n',
    at: 'requirePaused',
    message: /routines "Daily pipeline check" would run on its schedule: it is not paused, and routines\.requirePaused is set/,
    passing: 'policies:\n  routines:\n    requirePaused: false\n',
  },
];

describe.each(CASES)('policy $rule', ({ rule, breaking, at, message, passing }) => {
  it('stops a plan that breaks it: exit 4, the rule, the object and where the rule is set, in text, JSON and Markdown', async () => {
    steward = await gitopsAgainstDemo();
    const path = await writePolicies(steward.directory, breaking);
    const position = await positionOf(path, at);

    const text = await steward.plan();
    expect(text.code).toBe(POLICY_EXIT_CODE);
    const [heading, ...rest] = text.out.split('\n').slice(2);
    expect(heading).toMatch(new RegExp(`^Policy violations \\(\\d+\\): apply refuses this plan unless each rule is named: --override-policy ${rule.replace('.', '\\.')}$`));
    expect(rest.join('\n')).toMatch(message);
    expect(text.out).toContain(`rule set at ${position.file}:${position.line}:${position.col} (policies.${at === 'max' ? 'creditLimits.max' : rule})`);
    // Violations come above the plan's steps.
    expect(text.out.indexOf('Policy violations')).toBeLessThan(text.out.indexOf('destructive change'));

    const json = await steward.plan({ json: true });
    expect(json.code).toBe(POLICY_EXIT_CODE);
    const plan = JSON.parse(json.out) as Plan;
    const violation = plan.policyViolations!.find((candidate) => candidate.message.match(message));
    expect(violation).toMatchObject({ rule, position });
    expect(violation!.objects.length).toBeGreaterThan(0);
    for (const id of violation!.objects) expect(plan.steps.map((step) => step.id)).toContain(id);

    const markdown = await steward.plan({ markdown: true });
    expect(markdown.code).toBe(POLICY_EXIT_CODE);
    expect(markdown.out).toContain('#### ⛔ Policy violations');
    expect(markdown.out).toContain(`**\`${rule}\`**`);
  });

  it('lets a plan within it pass', async () => {
    steward = await gitopsAgainstDemo();
    await writePolicies(steward.directory, passing);
    const result = await steward.plan({ json: true });
    expect(result.code).toBe(3);
    expect((JSON.parse(result.out) as Plan).policyViolations).toEqual([]);
    expect((await steward.plan()).out).not.toContain('Policy violations');
  });

  it('makes apply refuse the plan with zero writes, and gives way when the rule is named', async () => {
    steward = await gitopsAgainstDemo();
    await writePolicies(steward.directory, breaking);

    const refused = await steward.apply();
    expect(refused.code).toBe(POLICY_EXIT_CODE);
    expect(steward.emulator.stats().writes).toBe(0);
    expect(refused.err).toMatch(message);
    expect(refused.err).toContain(`Error: `);
    expect(refused.err).toContain(`nothing was applied`);
    expect(refused.err).toContain(`Hint: change the configuration, or apply anyway by naming each rule: --override-policy ${rule}`);

    const json = await steward.apply(undefined, { json: true });
    expect(json.code).toBe(POLICY_EXIT_CODE);
    expect(steward.emulator.stats().writes).toBe(0);
    const envelope = JSON.parse(json.out) as { error: { code: string; violations: { rule: string }[] } };
    expect(envelope.error.code).toBe('policy.violated');
    expect(envelope.error.violations.every((violation) => violation.rule === rule)).toBe(true);

    const overridden = await steward.apply(undefined, { overridePolicy: [rule], json: true });
    expect(overridden.code).toBe(0);
    const report = JSON.parse(overridden.out) as { policy: { overridden: string[]; violations: { rule: string; message: string }[] } };
    expect(report.policy.overridden).toEqual([rule]);
    expect(report.policy.violations.some((violation) => message.test(violation.message))).toBe(true);
    expect(steward.emulator.stats().writes).toBeGreaterThan(0);

    // Converged: nothing left to change, so nothing left to break.
    const again = await steward.plan({ json: true });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.out) as Plan).policyViolations).toEqual([]);
  });
});

describe('apply --override-policy', () => {
  it('prints the overridden rule in the apply report', async () => {
    steward = await gitopsAgainstDemo();
    await writePolicies(steward.directory, 'policies:\n  maxDestroy: 0\n');
    const result = await steward.apply(undefined, { overridePolicy: ['maxDestroy'] });
    expect(result.code).toBe(0);
    // Before the writes (under the plan and its violations), and again under the report.
    expect(result.out).toContain('Policy overridden with --override-policy: maxDestroy (1 violation). Applying anyway.\n');
    expect(result.out.trimEnd().endsWith('Policy overridden with --override-policy: maxDestroy (1 violation).')).toBe(true);
  });

  it('overrides only the rules it names: another broken rule still refuses, with zero writes', async () => {
    steward = await gitopsAgainstDemo();
    await writePolicies(steward.directory, 'policies:\n  maxDestroy: 0\n  maxChanges: 5\n');
    const result = await steward.apply(undefined, { overridePolicy: ['maxDestroy'] });
    expect(result.code).toBe(POLICY_EXIT_CODE);
    expect(result.err).toContain('the plan breaks policy rule maxChanges; nothing was applied');
    expect(steward.emulator.stats().writes).toBe(0);
  });

  it('refuses a rule name no rule has, before reading anything', async () => {
    steward = await gitopsAgainstDemo();
    const result = await steward.apply(undefined, { overridePolicy: ['maxDestroyed'] });
    expect(result.code).toBe(1);
    expect(result.err).toContain('--override-policy maxDestroyed: no policy rule has that name');
    expect(result.err).toContain('did you mean `maxDestroy`?');
    expect(steward.emulator.stats().requests).toBe(0);
  });

  it('judges a saved plan again when applying it: refused with zero writes, applied when the rule is named', async () => {
    steward = await gitopsAgainstDemo();
    await writePolicies(steward.directory, 'policies:\n  maxDestroy: 1\n');
    expect((await steward.plan({ out: 'plan.json' })).code).toBe(POLICY_EXIT_CODE);

    const refused = await steward.apply('plan.json');
    expect(refused.code).toBe(POLICY_EXIT_CODE);
    expect(refused.err).toContain('maxDestroy: the plan deletes or replaces 9 objects');
    expect(steward.emulator.stats().writes).toBe(0);

    const applied = await steward.apply('plan.json', { overridePolicy: ['maxDestroy'] });
    expect(applied.code).toBe(0);
    // The violation is shown before the writes, then the report names the override.
    expect(applied.out.indexOf('Policy overridden with --override-policy: maxDestroy (1 violation). Applying anyway:\n  ✗ maxDestroy: the plan deletes or replaces 9 objects')).toBe(0);
    expect(applied.out).toContain('Policy overridden with --override-policy: maxDestroy (1 violation).');
    expect((await steward.plan()).code).toBe(0);
  });
});

describe('on GitHub Actions', () => {
  it('annotates the rule in the config file for each violation', async () => {
    steward = await gitopsAgainstDemo();
    const path = await writePolicies(steward.directory, 'policies:\n  maxChanges: 10\n');
    const io = captureIo({ ...steward.env, GITHUB_ACTIONS: 'true' }, steward.directory);
    const code = await runPlan({ config: steward.directory, env: 'production', baseUrl: steward.emulator.url, json: true }, io);
    const { out, err } = io.result(code);
    // Without --detailed-exitcode a broken rule exits 1, as apply would fail (4 only with it).
    expect(code).toBe(1);
    // stdout stays the JSON plan; the annotation goes to stderr.
    expect((JSON.parse(out) as Plan).policyViolations).toHaveLength(1);
    expect(err).toBe(
      `::error file=${path},line=3,col=15,title=steward policy.maxChanges::the plan makes 26 changes; maxChanges allows at most 10%0Aapply refuses this plan unless the rule is named: --override-policy maxChanges\n`,
    );
  });
});

describe('per-environment policies', () => {
  let deployments: Deployments | undefined;
  afterEach(async () => {
    await deployments?.close();
    deployments = undefined;
  });

  it('a rule switched off in playground still holds in production, pointing at the top-level setting', async () => {
    deployments = await Deployments.start();
    const path = await writePolicies(deployments.gitops, 'policies:\n  maxDestroy: 0\n');
    // The example's playground switches maxDestroy off.
    const environments = parse(await readFile(join(deployments.gitops, 'environments.yaml'), 'utf8')) as StewardConfig;
    expect(environments.environments.playground!.policies).toEqual({ maxDestroy: null });

    const production = await deployments.plan('production', { json: true });
    expect(production.code).toBe(POLICY_EXIT_CODE);
    expect((JSON.parse(production.out) as Plan).policyViolations).toEqual([
      expect.objectContaining({ rule: 'maxDestroy', setting: 'policies.maxDestroy', position: await positionOf(path, 'maxDestroy') }),
    ]);
    const playground = await deployments.plan('playground', { json: true });
    expect(playground.code).toBe(3);
    expect((JSON.parse(playground.out) as Plan).policyViolations).toEqual([]);
    expect((await deployments.apply('playground')).code).toBe(0);
    expect((await deployments.apply('production')).code).toBe(POLICY_EXIT_CODE);
    expect(deployments.production.stats().writes).toBe(0);
  });

  it('a rule set only for production points at the environment, and refines the top-level rule setting by setting', async () => {
    deployments = await Deployments.start();
    await writePolicies(deployments.gitops, 'policies:\n  creditLimits:\n    max: 100000\n    allowUnlimited: true\n');
    await deployments.editEnvironments((text) => text.replace('  production:\n', '  production:\n    policies:\n      creditLimits:\n        max: 1000\n'));
    const environments = join(deployments.gitops, 'environments.yaml');

    const production = JSON.parse((await deployments.plan('production', { json: true })).out) as Plan;
    // allowUnlimited comes from the top level (no unlimited violation); max from production.
    expect(production.policyViolations!.map((violation) => violation.setting)).toEqual(
      Array(production.policyViolations!.length).fill('environments.production.policies.creditLimits.max'),
    );
    expect(production.policyViolations![0]!.position).toEqual(await positionOf(environments, 'max'));
    expect(production.policyViolations!.map((violation) => violation.message)).toEqual(
      expect.arrayContaining([
        'creditControls "credit controls": shutoffCredits would be 12000, above creditLimits.max 1000',
        'userGroupCreditLimits "Finance": creditLimit would be 1500, above creditLimits.max 1000',
        'entityGroupCreditLimits "embed-partners": creditLimit would be 2500, above creditLimits.max 1000',
      ]),
    );
    const playground = await deployments.plan('playground', { json: true });
    expect((JSON.parse(playground.out) as Plan).policyViolations).toEqual([]);
  });

  it('unlimited limits break creditLimits unless allowed: users, user groups and the thresholds alike', async () => {
    deployments = await Deployments.start();
    await writePolicies(deployments.gitops, 'policies:\n  creditLimits:\n    max: 100000\n');
    const plan = JSON.parse((await deployments.plan('production', { json: true })).out) as Plan;
    expect(plan.policyViolations!.map((violation) => violation.message)).toEqual([
      'userCreditLimits "barbara@acme.example": creditLimit would be unlimited, which creditLimits does not allow (allowUnlimited is not true)',
      'userGroupCreditLimits "Sales Ops": creditLimit would be unlimited, which creditLimits does not allow (allowUnlimited is not true)',
    ]);
    // No allowUnlimited written: the violation points at the creditLimits policy itself.
    expect(plan.policyViolations![0]!.setting).toBe('policies.creditLimits');
  });

  it('drift and promotion plans are judged too: drift reports the violations, promotion exits 4', async () => {
    deployments = await Deployments.start();
    await writePolicies(deployments.gitops, 'policies:\n  maxDestroy: 0\n');
    const io = captureIo(deployments.env, deployments.gitops);
    const drift = io.result(await runDrift({ config: deployments.gitops, env: 'production', baseUrl: deployments.production.url, markdown: true }, io));
    // Drift is drift (exit 2) whatever the policies say: the report shows what applying would break.
    expect(drift.code).toBe(2);
    expect(drift.out).toContain('#### ⛔ Policy violations (1)');

    // Playground gets the gitops changes (its own rule named), so production would follow them.
    expect((await deployments.apply('playground', undefined, { overridePolicy: ['maxDestroy'] })).code).toBe(0);
    const promotion = await deployments.diff({ json: true });
    expect(promotion.code).toBe(POLICY_EXIT_CODE);
    const plan = JSON.parse(promotion.out) as Plan;
    expect(plan.promotion?.from).toBe('playground');
    expect(plan.policyViolations).toEqual([expect.objectContaining({ rule: 'maxDestroy' })]);
  });
});
