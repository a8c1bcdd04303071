// What a policy rule finds in a plan, as the plan JSON carries it: the rule, the objects, and
// where in the config the rule is set. Declared once, as its schema (`$defs/policyViolation` of
// schemas/plan.schema.json, which model/planFormat.ts assembles), and its type read off it.
import { arrayOf, described, enumOf, objectOf, scalar, type Static } from '../typedSchema.js';

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

/** A line or a column, counted from 1. */
const lineOrColumn = scalar('integer', { minimum: 1 });

/** One breach of one rule. */
export const policyViolationSchema = objectOf(
  {
    rule: described('The rule broken, as --override-policy names it.', enumOf(...POLICY_RULE_NAMES)),
    message: described('One sentence naming the object(s) and the limit.', scalar('string', { minLength: 1 })),
    objects: described('Ids of the steps that break the rule.', arrayOf(scalar('string'))),
    setting: described('The config path of the setting broken, dotted (`environments.production.policies.maxDestroy`).', scalar('string', { minLength: 1 })),
    position: described('Where that setting is written (1-based).', objectOf({ file: scalar('string'), line: lineOrColumn, col: lineOrColumn }, ['file', 'line', 'col'])),
  },
  ['rule', 'message', 'objects', 'setting'],
);
export type PolicyViolation = Static<typeof policyViolationSchema>;
