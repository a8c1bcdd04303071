// Every policy rule, registered once (like the resource kinds in src/kinds/registry.ts). A rule
// is a pure function of the plan's steps and the policies in effect: it finds what breaks it and
// says so in one sentence per object; it never reads or writes anything. Rules judge what a plan
// writes: an object the plan leaves alone is not judged.
import type { PoliciesConfig } from '../config/types.js';
import type { CreditValue } from '../model/kind.js';
import type { Exposure, KindSteps, PlanImpact, PlanRecipient, PlanStep, StepKind } from '../model/plan.js';
import { crowdedHours, type ScheduledRoutine } from '../domain/runWeek.js';
import { grouped } from '../domain/numbers.js';
import { POLICY_RULE_NAMES, type PolicyRuleName } from '../model/policy.js';

/**
 * The kinds whose steps write something that runs on a schedule, known by their state having a
 * `schedule` (a kind with `ResourceKind.runs`): the step types the routines.* rules read.
 */
export type ScheduledKind = { [K in StepKind]: 'schedule' extends keyof KindSteps[K]['state'] ? K : never }[StepKind];

export interface PolicyInput {
  steps: readonly PlanStep[];
  /** The credit values a step writes, as its kind declares them (`ResourceKind.credits`). */
  creditsOf(step: PlanStep): CreditValue[];
  /** What the config runs on a schedule (`ResourceKind.runs`): the routines a busy hour counts. */
  scheduled: readonly ScheduledRoutine[];
  /** Whether a step's object runs on a schedule (its kind has `ResourceKind.runs`): the routines.* rules judge those steps. */
  runsOnSchedule(step: PlanStep): step is PlanStep<ScheduledKind>;
  /** When the plan was made: the week routines.maxRunsPerHour looks at starts that day. */
  now: Date;
  /** What the plan's lowered limits do to this period's usage (src/engine/impacts.ts). */
  impacts: readonly PlanImpact[];
  /** The most credits per period the configuration allows once applied (src/engine/exposure.ts), when the plan changes a credit value. */
  exposure?: Exposure | undefined;
}

/** A breach before it is located: `setting` is the path within `policies` (`creditLimits.max`). */
export interface Finding {
  setting: string;
  message: string;
  objects: string[];
}

export interface PolicyRule {
  readonly name: PolicyRuleName;
  /** What in `input` breaks the rule under `policies`; nothing when the rule is off. Pure. */
  check(policies: PoliciesConfig, input: PolicyInput): Finding[];
}

const maxDestroy: PolicyRule = {
  name: 'maxDestroy',
  check({ maxDestroy: limit }, { steps }) {
    if (limit === undefined || limit === null) return [];
    const destructive = steps.filter((step) => step.action === 'delete' || step.action === 'replace');
    if (destructive.length <= limit) return [];
    return [
      {
        setting: 'maxDestroy',
        message: `the plan deletes or replaces ${countOf(destructive.length, 'object')} (${listed(destructive)}); maxDestroy allows ${limit === 0 ? 'none' : `at most ${limit}`}`,
        objects: destructive.map((step) => step.id),
      },
    ];
  },
};

const maxChanges: PolicyRule = {
  name: 'maxChanges',
  check({ maxChanges: limit }, { steps }) {
    if (limit === undefined || limit === null || steps.length <= limit) return [];
    return [
      {
        setting: 'maxChanges',
        message: `the plan makes ${countOf(steps.length, 'change')}; maxChanges allows ${limit === 0 ? 'none' : `at most ${limit}`}`,
        objects: steps.map((step) => step.id),
      },
    ];
  },
};

const creditLimits: PolicyRule = {
  name: 'creditLimits',
  check({ creditLimits: policy }, { steps, creditsOf, impacts, exposure }) {
    if (policy === undefined || policy === null) return [];
    const max = policy.max ?? undefined;
    const findings: Finding[] = [];
    for (const step of steps) {
      for (const credit of creditsOf(step)) {
        if (credit.value === null) {
          if (policy.allowUnlimited === true) continue;
          const words = credit.nullMeans === 'off' ? 'off (no limit)' : 'unlimited';
          findings.push({ setting: 'creditLimits.allowUnlimited', message: `${objectOf(step)}: ${credit.field} would be ${words}, which creditLimits does not allow (allowUnlimited is not true)`, objects: [step.id] });
        } else if (max !== undefined && credit.value > max) {
          findings.push({ setting: 'creditLimits.max', message: `${objectOf(step)}: ${credit.field} would be ${credit.value}, above creditLimits.max ${max}`, objects: [step.id] });
        }
      }
    }
    // Only what the usage read says for certain: an estimate from the organization's total is shown, not refused.
    if (policy.belowUsage === 'deny') {
      for (const impact of impacts) {
        if (impact.certain) findings.push({ setting: 'creditLimits.belowUsage', message: `${impact.message}; creditLimits.belowUsage is deny`, objects: [impact.step] });
      }
    }
    // The exposure is a lower bound where parts were not counted: above the maximum, it is above for certain.
    const maxExposure = policy.maxExposure ?? undefined;
    if (maxExposure !== undefined && exposure !== undefined && (exposure.credits === null || exposure.credits > maxExposure)) {
      const written = steps.filter((step) => creditsOf(step).length > 0);
      const credit = written.length > 0 ? written : steps;
      const amount = exposure.credits === null ? 'unlimited credits' : `${exposure.notCounted.length > 0 ? 'at least ' : ''}${grouped(exposure.credits)} credits`;
      findings.push({ setting: 'creditLimits.maxExposure', message: `the configuration would allow ${amount} per period (an estimate); creditLimits.maxExposure allows at most ${grouped(maxExposure)}`, objects: credit.map((step) => step.id) });
    }
    return findings;
  },
};

const recipientDomains: PolicyRule = {
  name: 'routines.recipientDomains',
  check({ routines: policy }, input) {
    const domains = policy?.recipientDomains;
    if (domains === undefined || domains === null) return [];
    return writtenRoutines(input).flatMap(({ step, routine }) => {
      const destination = routine.destination;
      if (destination?.type !== 'email') return [];
      const outside = (destination.recipientEmails ?? []).filter((email) => !domainAllowed(email, domains));
      if (outside.length === 0) return [];
      return [
        {
          setting: 'routines.recipientDomains',
          message: `${objectOf(step)}: ${outside.length === 1 ? 'recipient' : 'recipients'} ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the allowed domains (${domains.join(', ') || 'none'})`,
          objects: [step.id],
        },
      ];
    });
  },
};

const slackRecipientTypes: PolicyRule = {
  name: 'routines.slackRecipientTypes',
  check({ routines: policy }, input) {
    const allowed = policy?.slackRecipientTypes;
    if (allowed === undefined || allowed === null) return [];
    return writtenRoutines(input).flatMap(({ step, routine }) => {
      const destination = routine.destination;
      if (destination?.type !== 'slack' || (allowed as readonly string[]).includes(String(destination.slackRecipientType))) return [];
      return [
        {
          setting: 'routines.slackRecipientTypes',
          message: `${objectOf(step)}: Slack recipient type ${String(destination.slackRecipientType)} is not allowed (${allowed.join(', ') || 'none'})`,
          objects: [step.id],
        },
      ];
    });
  },
};

const requirePaused: PolicyRule = {
  name: 'routines.requirePaused',
  check({ routines: policy }, input) {
    if (policy?.requirePaused !== true) return [];
    return writtenRoutines(input)
      .filter(({ routine }) => routine.paused !== true)
      .map(({ step }) => ({ setting: 'routines.requirePaused', message: `${objectOf(step)} would run on its schedule: it is not paused, and routines.requirePaused is set`, objects: [step.id] }));
  },
};

const recipientsMustBeUsers: PolicyRule = {
  name: 'routines.recipientsMustBeUsers',
  check({ routines: policy }, { steps }) {
    if (policy?.recipientsMustBeUsers !== true) return [];
    return steps.flatMap((step) => {
      const added = (step.recipients ?? []).filter((recipient) => recipient.change === 'added');
      const problems = [
        ...wordsFor(added.filter((recipient) => recipient.is === 'not-a-user'), ['not a user of the instance', 'not users of the instance'], (recipient) => (recipient.didYouMean === undefined ? '' : ` (did you mean ${recipient.didYouMean}?)`)),
        ...wordsFor(added.filter((recipient) => recipient.is === 'deactivated-user'), ['a deactivated user', 'deactivated users']),
        ...wordsFor(added.filter((recipient) => recipient.is === 'not-checked'), ['not checked (this API key cannot read the directory)', 'not checked (this API key cannot read the directory)']),
      ];
      if (problems.length === 0) return [];
      return [{ setting: 'routines.recipientsMustBeUsers', message: `${objectOf(step)}: ${problems.join('; ')}, and routines.recipientsMustBeUsers is set`, objects: [step.id] }];
    });
  },
};

/** `grase@acme.example (did you mean grace@acme.example?) is not a user of the instance`, for one or more recipients. */
function wordsFor(recipients: readonly PlanRecipient[], [one, several]: [string, string], after: (recipient: PlanRecipient) => string = () => ''): string[] {
  if (recipients.length === 0) return [];
  const named = recipients.map((recipient) => `${recipient.recipient}${after(recipient)}`).join(', ');
  return [recipients.length === 1 ? `recipient ${named} is ${one}` : `recipients ${named} are ${several}`];
}

const maxRunsPerHour: PolicyRule = {
  name: 'routines.maxRunsPerHour',
  check({ routines: policy }, input) {
    const { scheduled, now } = input;
    const limit = policy?.maxRunsPerHour;
    if (limit === undefined || limit === null) return [];
    // Only a busy hour one of the plan's routines starts in: the rule judges what the plan writes.
    const written = writtenRoutines(input).filter(({ routine }) => routine.paused !== true);
    if (written.length === 0) return [];
    const byNames = new Map<string, { names: string[]; hours: string[] }>();
    for (const hour of crowdedHours(scheduled, now, 'UTC', limit)) {
      if (!written.some(({ routine }) => hour.names.includes(String(routine.name)))) continue;
      const key = hour.names.join('\0');
      const entry = byNames.get(key) ?? { names: hour.names, hours: [] };
      entry.hours.push(`${hour.weekday} ${hour.date.slice(5)} ${String(hour.hour).padStart(2, '0')}:00`);
      byNames.set(key, entry);
    }
    return [...byNames.values()].map(({ names, hours }) => {
      const distinct = [...new Set(names)];
      return {
        setting: 'routines.maxRunsPerHour',
        message: `${names.length} routines start in the same hour (${distinct.map((name) => `"${name}"`).join(', ')}) on ${hours.join(', ')} UTC; routines.maxRunsPerHour allows ${limit}`,
        objects: written.filter(({ routine }) => distinct.includes(String(routine.name))).map(({ step }) => step.id),
      };
    });
  },
};

/** Builds the rule table, refusing a rule registered twice or a rule name without a rule. */
export function createRuleTable(rules: readonly PolicyRule[]): ReadonlyMap<PolicyRuleName, PolicyRule> {
  const table = new Map<PolicyRuleName, PolicyRule>();
  for (const rule of rules) {
    if (table.has(rule.name)) throw new Error(`policy rule ${rule.name} is registered twice`);
    table.set(rule.name, rule);
  }
  for (const name of POLICY_RULE_NAMES) if (!table.has(name)) throw new Error(`policy rule ${name} has no implementation`);
  return table;
}

export const POLICY_RULES = createRuleTable([maxDestroy, maxChanges, creditLimits, recipientDomains, slackRecipientTypes, recipientsMustBeUsers, requirePaused, maxRunsPerHour]);

/** `acme.example` admits exactly that domain; `*.acme.example` also its subdomains. Case-insensitive. */
export function domainAllowed(email: string, domains: readonly string[]): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const domain = email.slice(at + 1).toLowerCase();
  return domains.some((entry) => {
    const allowed = entry.toLowerCase();
    if (!allowed.startsWith('*.')) return domain === allowed;
    const parent = allowed.slice(2);
    return domain === parent || domain.endsWith(`.${parent}`);
  });
}

/** Routines a plan creates, updates or replaces, with the state they are given (a routine step's `after` is the whole state). */
function writtenRoutines({ steps, runsOnSchedule }: Pick<PolicyInput, 'steps' | 'runsOnSchedule'>) {
  return steps.flatMap((step) => (runsOnSchedule(step) && step.action !== 'delete' ? [{ step, routine: step.after }] : []));
}

function objectOf(step: PlanStep): string {
  return `${step.kind} "${step.key}"`;
}

function listed(steps: readonly PlanStep[]): string {
  const shown = steps.slice(0, 5).map((step) => `${step.action} ${objectOf(step)}`);
  return steps.length > shown.length ? `${shown.join(', ')} and ${steps.length - shown.length} more` : shown.join(', ');
}

function countOf(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}
