// Judging a plan by the policies in effect, and apply's verdict on the result: every rule of the
// table runs on every plan (plan, drift, promotion diff, and apply on the plan it is about to
// run, saved or fresh); a violation that nobody named with --override-policy refuses the apply.
import type { Diagnostic, LoadedConfig } from '../config/types.js';
import { didYouMean } from '../config/suggest.js';
import { StewardError } from '../errors.js';
import type { ResourceKind } from '../model/kind.js';
import { REGISTRY } from '../kinds/registry.js';
import type { Exposure, PlanImpact, PlanStep, StepKind } from '../model/plan.js';
import { POLICY_RULES, type PolicyRule, type ScheduledKind } from './rules.js';
import { effectivePolicies } from './settings.js';
import { POLICY_RULE_NAMES, type PolicyRuleName, type PolicyViolation } from '../model/policy.js';

/** The exit code of a plan that breaks a policy, and of an apply that refuses one (not 1, 2 or 3). */
export const POLICY_EXIT_CODE = 4;

/** What a plan found besides its steps that rules judge: the impacts of lowered limits on this period's usage. */
export interface PlanFacts {
  impacts?: readonly PlanImpact[] | undefined;
  /** The most credits per period the configuration allows once applied. */
  exposure?: Exposure | undefined;
}

/** Every violation of the environment's policies by `steps`, each located at the setting it breaks. Pure. */
export function evaluatePolicies(
  steps: readonly PlanStep[],
  loaded: Pick<LoadedConfig, 'config' | 'environmentName' | 'locate'>,
  facts: PlanFacts = {},
  registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY,
  rules: ReadonlyMap<PolicyRuleName, PolicyRule> = POLICY_RULES,
  /** When the plan was made (the week routines.maxRunsPerHour looks at); default now. */
  now: Date = new Date(),
): PolicyViolation[] {
  const { policies, origin } = effectivePolicies(loaded.config, loaded.environmentName);
  const creditsOf = (step: PlanStep) => registry.get(step.kind)?.credits?.(step) ?? [];
  const scheduled = [...registry.values()].flatMap((kind) => kind.runs?.(loaded.config) ?? []);
  const runsOnSchedule = (step: PlanStep): step is PlanStep<ScheduledKind> => registry.get(step.kind)?.runs !== undefined;
  return [...rules.values()].flatMap((rule) =>
    rule.check(policies, { steps, creditsOf, scheduled, runsOnSchedule, now, impacts: facts.impacts ?? [], exposure: facts.exposure }).map((finding): PolicyViolation => {
      const path = origin(finding.setting);
      const position = loaded.locate(path);
      return { rule: rule.name, message: finding.message, objects: finding.objects, setting: path.join('.'), ...(position === undefined ? {} : { position }) };
    }),
  );
}

/** `--override-policy` values, checked against the rule names (a typo must not pass silently). */
export function parseOverrides(names: readonly string[] | undefined): PolicyRuleName[] {
  const known = POLICY_RULE_NAMES as readonly string[];
  for (const name of names ?? []) {
    if (!known.includes(name)) {
      throw new StewardError('cli.override-policy', `--override-policy ${name}: no policy rule has that name; the rules are ${known.join(', ')}`, 'user', {
        ...(didYouMean(name, known) === undefined ? {} : { hint: didYouMean(name, known)! }),
      });
    }
  }
  return [...new Set(names ?? [])] as PolicyRuleName[];
}

/** Apply's verdict: the violations the person overrode by name, and those that refuse the apply. */
export interface PolicyVerdict {
  overridden: PolicyViolation[];
  refusing: PolicyViolation[];
}

export function judge(violations: readonly PolicyViolation[], overrides: readonly PolicyRuleName[]): PolicyVerdict {
  return {
    overridden: violations.filter((violation) => overrides.includes(violation.rule)),
    refusing: violations.filter((violation) => !overrides.includes(violation.rule)),
  };
}

/** The refusal of an apply whose plan breaks rules nobody overrode; nothing has been written. */
export function policyRefusal(refusing: readonly PolicyViolation[]): StewardError {
  const rules = [...new Set(refusing.map((violation) => violation.rule))];
  return new StewardError(
    'policy.violated',
    `the plan breaks ${rules.length === 1 ? 'policy rule' : 'policy rules'} ${rules.join(', ')}; nothing was applied`,
    'user',
    {
      hint: `change the configuration, or apply anyway by naming each rule: ${rules.map((rule) => `--override-policy ${rule}`).join(' ')}`,
      details: {
        violations: refusing,
        positions: refusing.flatMap((violation) => (violation.position === undefined ? [] : [violation.position])),
      },
    },
  );
}

/** Violations as diagnostics at the rule's position, for GitHub annotations on the config file. */
export function violationDiagnostics(violations: readonly PolicyViolation[] | undefined): Diagnostic[] {
  return (violations ?? []).map((violation) => ({
    severity: 'error',
    code: `policy.${violation.rule}`,
    summary: violation.message,
    hint: `apply refuses this plan unless the rule is named: --override-policy ${violation.rule}`,
    ...(violation.position === undefined ? {} : { location: violation.position }),
  }));
}
