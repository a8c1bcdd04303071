// The policy rules as pure functions of a plan's steps: what each finds, what it lets pass, how
// an environment's policies lay over the top-level ones, and where a violation points.
import { describe, expect, it } from 'vitest';
import type { PoliciesConfig, StewardConfig } from '../../src/config/types.js';
import { evaluatePolicies, judge, parseOverrides } from '../../src/policy/evaluate.js';
import { createRuleTable, domainAllowed, POLICY_RULES } from '../../src/policy/rules.js';
import { effectivePolicies } from '../../src/policy/settings.js';
import type { PlanImpact, PlanRecipient, PlanStep } from '../../src/model/plan.js';
import { ENVIRONMENT } from '../plan/builders.js';

const base = { dependsOn: [], ref: {} };
const limit = (key: string, creditLimit: number | null): PlanStep => ({ ...base, id: `userCreditLimits/${key}`, kind: 'userCreditLimits', key, ref: { userId: key }, action: 'create', after: { creditLimit } });
const reset = (key: string): PlanStep => ({ ...base, id: `userCreditLimits/${key}`, kind: 'userCreditLimits', key, ref: { userId: key }, action: 'delete', before: { creditLimit: 50 } });
const groupLimit = (key: string, creditLimit: number | null): PlanStep => ({ ...base, id: `userGroupCreditLimits/${key}`, kind: 'userGroupCreditLimits', key, ref: { userGroupId: key }, action: 'update', before: { creditLimit: 1 }, after: { creditLimit }, fields: [{ path: 'creditLimit', before: 1, after: creditLimit }] });
const entityLimit = (key: string, creditLimit: number | null): PlanStep => ({ ...base, id: `entityGroupCreditLimits/${key}`, kind: 'entityGroupCreditLimits', key, ref: { entity: key }, action: 'create', after: { creditLimit } });
const controls = (after: Record<string, number | null>): PlanStep => ({ ...base, id: 'creditControls/settings', kind: 'creditControls', key: 'credit controls', action: 'update', before: {}, after, fields: [] });
const routine = (key: string, after: Record<string, unknown>, action: 'create' | 'replace' | 'delete' = 'create'): PlanStep =>
  action === 'delete'
    ? { ...base, id: `routines//${key}`, kind: 'routines', key, action, before: after }
    : action === 'create'
      ? { ...base, id: `routines//${key}`, kind: 'routines', key, action, after: { name: key, paused: false, ...after } }
      : { ...base, id: `routines//${key}`, kind: 'routines', key, action, before: {}, after: { name: key, paused: false, ...after }, fields: [] };
const email = (...recipientEmails: string[]) => ({ destination: { type: 'email', recipientEmails, userGroupIds: [] } });
const slack = (slackRecipientType: string) => ({ destination: { type: 'slack', recipientId: 'C1', slackRecipientType } });

/** GIVEN top-level policies (and an environment's), WHEN judging steps, THEN the violations as `rule: message @ setting`. */
function judged(steps: PlanStep[], policies: PoliciesConfig, local?: PoliciesConfig): string[] {
  const config: StewardConfig = { version: 1, environments: { test: { ...ENVIRONMENT, ...(local === undefined ? {} : { policies: local }) } }, policies };
  return evaluatePolicies(steps, { config, environmentName: 'test', locate: () => undefined }).map((violation) => `${violation.rule}: ${violation.message} @ ${violation.setting}`);
}

describe('maxDestroy', () => {
  const steps = [reset('a'), reset('b'), routine('r', {}, 'replace'), limit('c', 5)];

  it('counts deletions and replacements, and lists them', () => {
    expect(judged(steps, { maxDestroy: 2 })).toEqual([
      'maxDestroy: the plan deletes or replaces 3 objects (delete userCreditLimits "a", delete userCreditLimits "b", replace routines "r"); maxDestroy allows at most 2 @ policies.maxDestroy',
    ]);
  });

  it('passes at the limit; 0 allows none', () => {
    expect(judged(steps, { maxDestroy: 3 })).toEqual([]);
    expect(judged([reset('a')], { maxDestroy: 0 })).toEqual([
      'maxDestroy: the plan deletes or replaces 1 object (delete userCreditLimits "a"); maxDestroy allows none @ policies.maxDestroy',
    ]);
    expect(judged([limit('a', 5)], { maxDestroy: 0 })).toEqual([]);
  });
});

describe('maxChanges', () => {
  it('counts every step', () => {
    expect(judged([limit('a', 1), limit('b', 2), reset('c')], { maxChanges: 2 })).toEqual(['maxChanges: the plan makes 3 changes; maxChanges allows at most 2 @ policies.maxChanges']);
    expect(judged([limit('a', 1), limit('b', 2)], { maxChanges: 2 })).toEqual([]);
  });
});

describe('creditLimits', () => {
  it('finds every credit value above max, whichever kind declares it', () => {
    const steps = [limit('ada', 900), groupLimit('Finance', 1500), entityLimit('embed', 2000), controls({ shutoffCredits: 12000, downgradeCredits: 800 })];
    expect(judged(steps, { creditLimits: { max: 1000 } })).toEqual([
      'creditLimits: userGroupCreditLimits "Finance": creditLimit would be 1500, above creditLimits.max 1000 @ policies.creditLimits.max',
      'creditLimits: entityGroupCreditLimits "embed": creditLimit would be 2000, above creditLimits.max 1000 @ policies.creditLimits.max',
      'creditLimits: creditControls "credit controls": shutoffCredits would be 12000, above creditLimits.max 1000 @ policies.creditLimits.max',
    ]);
  });

  it('refuses unlimited limits and thresholds switched off unless allowUnlimited', () => {
    const steps = [limit('linus', null), controls({ shutoffCredits: null, userDefaultCredits: null })];
    expect(judged(steps, { creditLimits: {} })).toEqual([
      'creditLimits: userCreditLimits "linus": creditLimit would be unlimited, which creditLimits does not allow (allowUnlimited is not true) @ policies.creditLimits',
      'creditLimits: creditControls "credit controls": shutoffCredits would be off (no limit), which creditLimits does not allow (allowUnlimited is not true) @ policies.creditLimits',
      'creditLimits: creditControls "credit controls": userDefaultCredits would be unlimited, which creditLimits does not allow (allowUnlimited is not true) @ policies.creditLimits',
    ]);
    expect(judged(steps, { creditLimits: { allowUnlimited: true } })).toEqual([]);
    expect(judged(steps, { creditLimits: { max: 10, allowUnlimited: false } })[0]).toMatch(/@ policies\.creditLimits\.allowUnlimited$/);
  });

  it('judges only values written: a reset to the default writes none', () => {
    expect(judged([reset('ken')], { creditLimits: { max: 0 } })).toEqual([]);
    expect(judged([limit('ada', 1000)], { creditLimits: { max: 1000 } })).toEqual([]);
  });
});

describe('creditLimits.belowUsage', () => {
  const impact = (step: PlanStep, certain: boolean): PlanImpact => ({ step: step.id, kind: step.kind, scope: certain ? 'user' : 'default', subject: step.key, field: 'creditLimit', limit: 50, used: 80, effect: 'cutoff', certain, message: `${step.key} is cut off` });
  const judgedWith = (impacts: PlanImpact[], policies: PoliciesConfig) =>
    evaluatePolicies([limit('grace', 50)], { config: { version: 1, environments: { test: ENVIRONMENT }, policies }, environmentName: 'test', locate: () => undefined }, { impacts }).map((violation) => `${violation.message} @ ${violation.setting}`);

  it('deny refuses each certain impact; an estimate is shown, not refused', () => {
    const step = limit('grace', 50);
    expect(judgedWith([impact(step, true), impact(controls({ userDefaultCredits: 10 }), false)], { creditLimits: { belowUsage: 'deny' } })).toEqual([
      'grace is cut off; creditLimits.belowUsage is deny @ policies.creditLimits.belowUsage',
    ]);
  });

  it('warn, the default, refuses nothing', () => {
    const step = limit('grace', 50);
    expect(judgedWith([impact(step, true)], { creditLimits: { belowUsage: 'warn' } })).toEqual([]);
    expect(judgedWith([impact(step, true)], { creditLimits: { max: 1000 } })).toEqual([]);
  });
});

describe('routines', () => {
  it('recipientDomains: every e-mail recipient at an allowed domain; *. admits subdomains', () => {
    const steps = [routine('Digest', email('ada@acme.example', 'eve@gmail.example')), routine('Ok', email('ada@ACME.example'))];
    expect(judged(steps, { routines: { recipientDomains: ['acme.example'] } })).toEqual([
      'routines.recipientDomains: routines "Digest": recipient eve@gmail.example is outside the allowed domains (acme.example) @ policies.routines.recipientDomains',
    ]);
    expect(domainAllowed('ops@eu.acme.example', ['*.acme.example'])).toBe(true);
    expect(domainAllowed('ops@acme.example', ['*.acme.example'])).toBe(true);
    expect(domainAllowed('ops@eu.acme.example', ['acme.example'])).toBe(false);
    expect(domainAllowed('ops@notacme.example', ['*.acme.example'])).toBe(false);
  });

  it('slackRecipientTypes: only the allowed types; e-mail routines are not concerned', () => {
    const steps = [routine('To a person', slack('users')), routine('To a channel', slack('channel')), routine('Mail', email('a@acme.example'))];
    expect(judged(steps, { routines: { slackRecipientTypes: ['channel'] } })).toEqual([
      'routines.slackRecipientTypes: routines "To a person": Slack recipient type users is not allowed (channel) @ policies.routines.slackRecipientTypes',
    ]);
  });

  it('requirePaused: every routine created or changed is paused; deletions are not concerned', () => {
    const steps = [routine('Running', {}), routine('Paused', { paused: true }, 'replace'), routine('Gone', { paused: false }, 'delete')];
    expect(judged(steps, { routines: { requirePaused: true } })).toEqual([
      'routines.requirePaused: routines "Running" would run on its schedule: it is not paused, and routines.requirePaused is set @ policies.routines.requirePaused',
    ]);
    expect(judged(steps, { routines: { requirePaused: false } })).toEqual([]);
  });

  it('recipientsMustBeUsers: the e-mails a routine adds that are no user, a deactivated user, or unchecked; removed ones and Slack are not concerned', () => {
    const withRecipients = (step: PlanStep, recipients: PlanRecipient[]): PlanStep => ({ ...step, recipients });
    const steps = [
      withRecipients(routine('Typo', email('grase@acme.example')), [
        { recipient: 'grase@acme.example', change: 'added', is: 'not-a-user', didYouMean: 'grace@acme.example' },
        { recipient: 'old@partner.example', change: 'removed', is: 'not-a-user' },
      ]),
      withRecipients(routine('Leaver', email('ken@acme.example', 'ada@acme.example')), [
        { recipient: 'ken@acme.example', change: 'added', is: 'deactivated-user' },
        { recipient: 'ada@acme.example', change: 'added', is: 'user' },
      ]),
      withRecipients(routine('Personal token', email('a@acme.example', 'b@acme.example')), [
        { recipient: 'a@acme.example', change: 'added', is: 'not-checked' },
        { recipient: 'b@acme.example', change: 'added', is: 'not-checked' },
      ]),
      withRecipients(routine('Slack', slack('users')), [{ recipient: 'C1', change: 'added', is: 'slack-user' }]),
      withRecipients(routine('Leaving a partner', email('ada@acme.example')), [{ recipient: 'old@partner.example', change: 'removed', is: 'not-a-user' }]),
    ];
    expect(judged(steps, { routines: { recipientsMustBeUsers: true } })).toEqual([
      'routines.recipientsMustBeUsers: routines "Typo": recipient grase@acme.example (did you mean grace@acme.example?) is not a user of the instance, and routines.recipientsMustBeUsers is set @ policies.routines.recipientsMustBeUsers',
      'routines.recipientsMustBeUsers: routines "Leaver": recipient ken@acme.example is a deactivated user, and routines.recipientsMustBeUsers is set @ policies.routines.recipientsMustBeUsers',
      'routines.recipientsMustBeUsers: routines "Personal token": recipients a@acme.example, b@acme.example are not checked (this API key cannot read the directory), and routines.recipientsMustBeUsers is set @ policies.routines.recipientsMustBeUsers',
    ]);
    expect(judged(steps, { routines: { recipientsMustBeUsers: false } })).toEqual([]);
  });
});

describe('per-environment policies', () => {
  const steps = [reset('a'), limit('b', 5000)];

  it('an environment replaces a rule, or switches it off with null', () => {
    expect(judged(steps, { maxDestroy: 0 }, { maxDestroy: null })).toEqual([]);
    expect(judged(steps, { maxDestroy: 5 }, { maxDestroy: 0 })).toEqual([
      'maxDestroy: the plan deletes or replaces 1 object (delete userCreditLimits "a"); maxDestroy allows none @ environments.test.policies.maxDestroy',
    ]);
    expect(judged(steps, {}, { maxDestroy: 0 })[0]).toMatch(/@ environments\.test\.policies\.maxDestroy$/);
  });

  it('within creditLimits and routines, setting by setting; null switches the group off', () => {
    expect(judged(steps, { creditLimits: { max: 100000, allowUnlimited: true } }, { creditLimits: { max: 1000 } })).toEqual([
      'creditLimits: userCreditLimits "b": creditLimit would be 5000, above creditLimits.max 1000 @ environments.test.policies.creditLimits.max',
    ]);
    // allowUnlimited written nowhere: the violation points at the environment's creditLimits, the nearer one.
    expect(judged([limit('c', null)], { creditLimits: { max: 100000 } }, { creditLimits: { max: 1000 } })[0]).toMatch(/@ environments\.test\.policies\.creditLimits$/);
    expect(judged(steps, { creditLimits: { max: 1 } }, { creditLimits: null })).toEqual([]);
    const resolved = effectivePolicies({ version: 1, environments: { test: { ...ENVIRONMENT, policies: { routines: { requirePaused: true } } } }, policies: { routines: { recipientDomains: ['acme.example'] } } }, 'test');
    expect(resolved.policies.routines).toEqual({ recipientDomains: ['acme.example'], requirePaused: true });
    expect(resolved.origin('routines.recipientDomains')).toEqual(['policies', 'routines', 'recipientDomains']);
    expect(resolved.origin('routines.requirePaused')).toEqual(['environments', 'test', 'policies', 'routines', 'requirePaused']);
  });

  it('no policies: nothing is judged', () => {
    expect(judged(steps, {})).toEqual([]);
  });
});

describe('the rule table and overrides', () => {
  it('refuses a rule registered twice', () => {
    const rule = POLICY_RULES.get('maxDestroy')!;
    expect(() => createRuleTable([...POLICY_RULES.values(), rule])).toThrow('policy rule maxDestroy is registered twice');
    expect(() => createRuleTable([rule])).toThrow(/has no implementation/);
  });

  it('overrides name rules exactly; an unknown name is refused with a suggestion', () => {
    expect(parseOverrides(['maxDestroy', 'maxDestroy', 'routines.requirePaused'])).toEqual(['maxDestroy', 'routines.requirePaused']);
    expect(() => parseOverrides(['routines'])).toThrow(/no policy rule has that name/);
    const violations = evaluatePolicies([reset('a'), limit('b', null)], { config: { version: 1, environments: { test: ENVIRONMENT }, policies: { maxDestroy: 0, creditLimits: {} } }, environmentName: 'test', locate: () => undefined });
    const verdict = judge(violations, ['maxDestroy']);
    expect(verdict.overridden.map((violation) => violation.rule)).toEqual(['maxDestroy']);
    expect(verdict.refusing.map((violation) => violation.rule)).toEqual(['creditLimits']);
  });
});
