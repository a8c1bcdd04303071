// The plan as JSON, declared once: what `steward plan --json` and `--out FILE` write, what
// `steward apply FILE` reads and what teams feed their own policy engines. Built with the typed
// builders (typedSchema.ts), it is both the JSON Schema `npm run generate` writes to
// schemas/plan.schema.json (which engine/planSchema.ts checks plan files with and
// `steward schema --plan` prints) and the types plan.ts reads off it, so the two cannot drift.
// Parts whose types live elsewhere are declared there: a week of runs and the exposure in
// domain/, the identities in resolve/ (both below model/), a policy violation beside the rules'
// names in policy.ts.
//
// The schema leaves an object's state and a step's ref open (any object, any ids): a step's kind
// says what they hold, in TypeScript only (plan.ts KindSteps). The kinds it names are the kinds'
// own (KINDS, which `npm run generate` writes from their declarations), so a kind added is in the
// plan's schema as it is in the config's. Descriptions are written for the people who read the
// published file: it is versioned with `formatVersion` (a field may be added within a version;
// renaming, removing or changing the meaning of one makes a new version and a new schema).
import { KINDS } from '../config/types.js';
import { exposurePart, exposureSchema } from '../domain/exposure.js';
import { runWeekSchema } from '../domain/runWeek.js';
import { namedId, planIdentitiesSchema } from '../resolve/identities.js';
import { arrayOf, constant, definition, definitions, described, enumOf, mapOf, objectOf, scalar, type Schema, type Static, type Typed } from '../typedSchema.js';
import { policyViolationSchema } from './policy.js';

export const PLAN_FORMAT_VERSION = 1;

/** What a step does to its object. */
const ACTIONS = ['create', 'update', 'replace', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * What a recipient is: a user of the instance, an e-mail that is no user (outside the instance),
 * a deactivated user, a user group, a Slack channel or user (Slack ids steward cannot look up),
 * or an e-mail not checked because the API key cannot read the directory (a personal token).
 */
export const RECIPIENT_CLASSES = ['user', 'not-a-user', 'deactivated-user', 'user-group', 'slack-channel', 'slack-user', 'not-checked'] as const;
export type RecipientClass = (typeof RECIPIENT_CLASSES)[number];

const text = scalar('string');
const nonEmpty = scalar('string', { minLength: 1 });
const instant = scalar('string', { format: 'date-time' });
/** Any value at all (a field's value before or after a change). */
const anything: Typed<unknown> = {};
/** Any object (a kind's state, which the kind's own types describe). */
const anyObject: Typed<Record<string, unknown>> = { type: 'object' };

const count = definition('count', scalar('integer', { minimum: 0 }));
/** The kinds steward ships; the document names the kinds it is given (planFormatSchema). */
const kind = definition('kind', enumOf(...KINDS));
const state = definition(
  'state',
  described("An object's compared fields, as the kind defines them (e.g. `{\"creditLimit\": 750}`, a routine's name, schedule and destination).", anyObject),
);

/** One changed field, by dotted path within the object (`destination.recipientEmails`); a value JSON leaves out was undefined. */
const fieldChange = objectOf({ path: nonEmpty, before: anything, after: anything }, ['path']);

/** When an entry with `until:` stops being in force. */
const expiry = objectOf(
  {
    at: described('The first instant it is expired (ISO-8601, UTC).', instant),
    day: described('The day as the plan says it: `31 Dec 2026`, with the zone when `until` names one.', text),
  },
  ['at', 'day'],
);

/** One recipient a step adds to or removes from a routine's output. */
const recipient = objectOf(
  {
    recipient: described('An e-mail address, a user group id, or a Slack channel or user id.', nonEmpty),
    change: enumOf('added', 'removed'),
    is: enumOf(...RECIPIENT_CLASSES),
    didYouMean: described("For `not-a-user`: the e-mail of the directory's closest active user, when one is a typo away.", nonEmpty),
  },
  ['recipient', 'change', 'is'],
);

const stepFields = {
  id: described('Unique within the plan: `kind/…`.', nonEmpty),
  kind: kind.ref,
  key: described("The object as people know it: a routine or label name, a user's e-mail, a group's name.", text),
  action: enumOf(...ACTIONS),
  dependsOn: described('Ids of steps that must succeed first.', arrayOf(text)),
  ref: described("Ids the applier needs that are not compared (a user id, a routine's id).", mapOf(text)),
  reason: described('Why the step is there when it is not obvious (pruned, renamed, a field that cannot change in place).', text),
  before: state.ref,
  after: state.ref,
  fields: described('The changed fields, by dotted path.', arrayOf(fieldChange)),
  nextRuns: described('A routine created, updated or replaced: its next runs after the plan was made (ISO-8601, UTC).', arrayOf(instant)),
  until: described('The entry is in force until then (`until:` in the config), and undone from then on.', expiry),
  ignore: described(
    'Fields the config ignores on this object (`ignore:`): written when it is created, never changed afterwards, not compared when a saved plan is applied.',
    arrayOf(nonEmpty),
  ),
  ignored: described(
    "Ignored fields where the config differs from the live object: `before` is the live value, which stays; `after` the config's, which is not written.",
    arrayOf(fieldChange),
  ),
  recipients: described(
    "A routine created, updated or replaced: the recipients it adds and removes, each classified against the directory (e-mails) or by its destination (user groups, Slack). `not-checked`: the API key cannot read the directory (a personal token), which the plan's warnings say once.",
    arrayOf(recipient),
  ),
};

/** The members of a step its action decides. */
const BY_ACTION = ['before', 'after', 'fields'] as const satisfies readonly (keyof typeof stepFields)[];

/**
 * Which of `before`, `after` and `fields` a step of each action holds; it holds none of the others.
 * Both the schema's `allOf` below and plan.ts's CreateStep … DeleteStep are made from it.
 */
export const ACTION_HOLDS = {
  create: ['after'],
  update: ['before', 'after', 'fields'],
  replace: ['before', 'after', 'fields'],
  delete: ['before'],
} as const satisfies Record<Action, readonly (typeof BY_ACTION)[number][]>;

/** ACTION_HOLDS as the schema says it: one `if` on the action for each set held (actions that hold the same share one). */
function actionRules(): Schema[] {
  const bySet = new Map<string, Action[]>();
  for (const action of ACTIONS) {
    const set = ACTION_HOLDS[action].join();
    bySet.set(set, [...(bySet.get(set) ?? []), action]);
  }
  return [...bySet.values()].map((actions) => {
    const holds: readonly string[] = ACTION_HOLDS[actions[0]!];
    const never = BY_ACTION.filter((member) => !holds.includes(member));
    const action = actions.length === 1 ? constant(actions[0]!) : enumOf(...actions);
    const absent = never.length === 0 ? {} : { not: { anyOf: never.map((member) => ({ required: [member] })) } };
    return { if: { required: ['action'], properties: { action } }, then: { required: [...holds], ...absent } };
  });
}

const step = definition(
  'step',
  described(
    'One change to one object. `action` decides which of before/after/fields are present.',
    objectOf(stepFields, ['id', 'kind', 'key', 'action', 'dependsOn', 'ref'], { allOf: actionRules() }),
  ),
);

const warning = objectOf(
  {
    code: described('Stable machine-readable code.', nonEmpty),
    message: described('One sentence.', text),
    namesMissing: described('The config names something this deployment does not have (a document, a folder): an error under --strict.', constant(true)),
    configPath: described(
      'Where the configuration writes what the warning is about, as a path into the merged config (`["labels", 1, "documents", 0]`): --strict points there.',
      arrayOf(scalar(['string', 'integer'])),
    ),
  },
  ['code', 'message'],
);

const heldField = objectOf(
  {
    kind: kind.ref,
    key: described('The object as the config names it.', text),
    field: described("The object's top-level field.", nonEmpty),
    reason: nonEmpty,
    variables: described("Held because these variables differ by environment; absent when held by the source's policy.", arrayOf(text)),
  },
  ['kind', 'key', 'field', 'reason'],
);

const promotion = objectOf(
  {
    from: described('The source environment.', nonEmpty),
    fromBaseUrl: nonEmpty,
    sourceDigest: described("Digest of the source's live state; apply refuses the plan once it differs.", nonEmpty),
    requireHealthy: described(
      'Made with --require-healthy: apply refuses the plan once a routine it carries is disabled by the platform or its last run failed in the source.',
      scalar('boolean'),
    ),
    held: described(
      "Declared fields the promotion kept at the target's own value where the source's differed: values from variables that differ by environment, and fields the source's own policies constrain (paused under requirePaused).",
      arrayOf(heldField),
    ),
  },
  ['from', 'fromBaseUrl', 'sourceDigest'],
);

const credits = scalar('number', { minimum: 0 });

const impact = definition(
  'impact',
  objectOf(
    {
      step: described('Id of the step whose write has this consequence.', nonEmpty),
      kind: kind.ref,
      scope: described(
        "Whose AI use it concerns: the whole organization, one user, the users on the default, a user group's or an entity group's members.",
        enumOf('organization', 'user', 'default', 'userGroup', 'entityGroup'),
      ),
      subject: described("The object as people know it: `credit controls`, an e-mail, a group's name.", text),
      field: described('The field lowered (`shutoffCredits`, `downgradeCredits`, `userDefaultCredits`, `creditLimit`, …).', nonEmpty),
      limit: described('Its new value.', credits),
      used: described("Credits used this period: the user's own (scope user), otherwise the organization's.", credits),
      effect: described('What happens as soon as the plan applies: AI shuts off, moves to the cheaper model, or the users are cut off.', enumOf('shutoff', 'downgrade', 'cutoff')),
      certain: described("false where the organization's total stands in for usage not read one by one (the default, a group's members): an estimate.", scalar('boolean')),
      message: described('One sentence saying the consequence.', nonEmpty),
    },
    ['step', 'kind', 'scope', 'subject', 'field', 'limit', 'used', 'effect', 'certain', 'message'],
  ),
);

const policyViolation = definition('policyViolation', policyViolationSchema);

const summary = objectOf({ create: count.ref, update: count.ref, replace: count.ref, delete: count.ref }, ['create', 'update', 'replace', 'delete']);

const applyCost = objectOf({ requests: count.ref, ms: scalar('number', { minimum: 0 }) }, ['requests', 'ms']);

const plan = objectOf(
  {
    formatVersion: described(`The plan format; this schema describes format ${PLAN_FORMAT_VERSION}.`, constant(PLAN_FORMAT_VERSION)),
    stewardVersion: described('The steward version that made the plan.', nonEmpty),
    environment: described('The environment the plan is for (apply refuses it for another).', nonEmpty),
    baseUrl: described(
      "The deployment's origin the live state was read from. `steward apply FILE` applies there when it is the environment's `baseUrl` in the config or a loopback address; any other address only when `--base-url` repeats it.",
      nonEmpty,
    ),
    requestsPerMinute: described(
      'The request budget the live state was read at; `steward apply FILE` paces at it unless `--requests-per-minute` says otherwise. Absent from plans made before it was recorded.',
      scalar('integer', { minimum: 1 }),
    ),
    configDigest: described('Digest of the configuration files the plan was made from; apply refuses the plan once they change.', nonEmpty),
    createdAt: described('When the plan was made (ISO-8601, UTC).', instant),
    kinds: described("The resource kinds whose live state was read; the plan's steps are of these kinds only.", arrayOf(kind.ref, { uniqueItems: true })),
    steps: described('What apply does, in order: creates and updates top-down, deletes bottom-up.', arrayOf(step.ref)),
    summary: described('How many steps of each action.', summary),
    warnings: described('Things the approver should know that do not stop the plan.', arrayOf(warning)),
    requests: described('API requests made while planning.', count.ref),
    applyCost: described(
      'What `steward plan` expected applying to cost at `requestsPerMinute`: requests (writes, and reading the live state again) and milliseconds. `steward show FILE` prints it again.',
      applyCost,
    ),
    promotion: described(
      "Present on a promotion plan (`steward diff --env TARGET --against SOURCE`): the desired state is the source's live state.",
      promotion,
    ),
    routineRuns: described(
      "Present when the plan changes routines: how many of the configured routines (paused ones apart) start in each hour of the seven days from the plan's day, in the zone every routine shares or else UTC, as `steward schedule --json` prints it. The Markdown form shows it as a heatmap.",
      runWeekSchema(count.ref),
    ),
    impacts: described(
      "What the plan's lowered credit limits do to this period's usage once applied (present when there is any): a threshold at or below what the organization has used, a user whose usage is at or above her new limit. `creditLimits.belowUsage: deny` refuses the certain ones. When usage cannot be read, a warning (`usage.unavailable`) says so instead.",
      arrayOf(impact.ref),
    ),
    exposure: described(
      "The most credits per period the configuration allows once the plan is applied, an estimate (present when the plan changes a credit value): each user's own limit, else the highest limit among her groups, else the default, summed; `credits` null = unlimited. With `notCounted` not empty it is a lower bound. `creditLimits.maxExposure` refuses a plan above it.",
      exposureSchema,
    ),
    policyViolations: described(
      "The environment's policy rules the plan breaks; `steward plan` exits 4 and `steward apply` refuses the plan unless each rule is named with --override-policy. Empty when the plan passes.",
      arrayOf(policyViolation.ref),
    ),
    identities: described(
      'What planning resolved in this deployment, by the names the config uses (ids and e-mails, never a token). `steward apply FILE` reuses these ids instead of resolving the names again when `seal` verifies under its API key; a name missing here is resolved again. The live state is still read again, by these ids.',
      planIdentitiesSchema,
    ),
  },
  ['formatVersion', 'stewardVersion', 'environment', 'baseUrl', 'configDigest', 'createdAt', 'kinds', 'steps', 'summary', 'warnings', 'requests'],
);

/** A plan as the schema describes it: its steps' states and refs open (plan.ts `Plan` types them by kind). */
export type OpenPlan = Static<typeof plan>;
/** A step as the schema describes it, of any kind and action, its state and ref open. */
export type OpenStep = Static<typeof step.ref>;
export type FieldChange = Static<typeof fieldChange>;
export type PlanExpiry = Static<typeof expiry>;
export type PlanRecipient = Static<typeof recipient>;
export type PlanWarning = Static<typeof warning>;
export type PlanSummary = Static<typeof summary>;
/** Requests applying makes (writes, and reading the live state again) and the time they take at the plan's budget. */
export type PlanApplyCost = Static<typeof applyCost>;
export type PlanPromotion = Static<typeof promotion>;
export type PlanHeldField = Static<typeof heldField>;
/** What a step that lowers a credit limit does to this period's usage, as the schema says it (plan.ts `PlanImpact`). */
export type OpenImpact = Static<typeof impact.ref>;

/**
 * The plan's JSON Schema, as `npm run generate` writes it to schemas/plan.schema.json, naming
 * `kinds` (the generator passes the kinds' declarations' own, so a kind added is named in the
 * same run that adds it to KINDS).
 */
export function planFormatSchema(kinds: readonly string[] = KINDS): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:steward:schema:plan:${PLAN_FORMAT_VERSION}`,
    title: 'steward plan',
    ...described(
      'A plan as `steward plan --json`, `steward plan --out FILE`, `steward drift --json` and `steward diff --json` write it: plain data, the input of `steward apply FILE` and of any policy engine a team runs on it. Versioned with `formatVersion`: a field may be added within a version (objects are open to that), while renaming, removing or changing the meaning of one makes a new version and a new schema.',
      plan,
    ),
    $defs: definitions(namedId, count, definition(kind.name, enumOf(...kinds)), state, step, exposurePart, impact, policyViolation),
  };
}
