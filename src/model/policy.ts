// What a policy rule finds in a plan, as the plan JSON carries it (schemas/plan.schema.json):
// the rule, the objects, and where in the config the rule is set.
import type { SourceLocation } from '../config/types.js';

/** The rules, by the name people write after --override-policy. */
export const POLICY_RULE_NAMES = [
  'maxDestroy',
  'maxChanges',
  'creditLimits',
  'routines.recipientDomains',
  'routines.slackRecipientTypes',
  'routines.recipientsMustBeUsers',
  'routines.requirePaused',
  'routines.maxRunsPerHour',
] as const;
export type PolicyRuleName = (typeof POLICY_RULE_NAMES)[number];

/** One breach of one rule. */
export interface PolicyViolation {
  rule: PolicyRuleName;
  /** One sentence naming the object(s) and the limit. */
  message: string;
  /** Ids of the plan steps that break the rule. */
  objects: string[];
  /** The config path of the setting broken, dotted: `environments.production.policies.maxDestroy`. */
  setting: string;
  /** Where that setting is written. */
  position?: SourceLocation;
}
