// The seed of the emulator (`steward emulator --data FILE`, YAML or JSON, or a seed object), declared
// once, as its JSON Schema, with the typed builders of typedSchema.ts: seedFile.ts checks every
// seed with it (ajv), seedTypes.ts names its types (`Static<typeof SEED_SCHEMA>`), and `npm run
// generate` writes it to schemas/emulator-seed.schema.json for editors and docs/emulator.md.
//
// seedFile.ts checks without ajv's `useDefaults`, so a field with a `default` may still be absent
// after the check: it is optional in the type, and seed.ts applies the default as it converts. The
// checks a schema cannot make (e-mails that name users, labels that exist, schedules) are seed.ts's.
import { arrayOf, constant, enumOf, field, objectOf, scalar, type Fields, type ObjectOf, type Schema, type Static, type Typed } from '../typedSchema.js';

// ---- building blocks --------------------------------------------------------------------------

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** One of these values (`enumOf`); `extra` holds its other keywords. */
function choice<const V extends readonly string[]>(values: V, extra: Schema = {}): Typed<V[number]> {
  return { ...enumOf(...values), ...extra };
}

/** A value of any of `schemas`; `extra` holds its other keywords (a `default` goes here, outside `anyOf`). */
function anyOf<const S extends readonly Typed<unknown>[]>(schemas: S, extra: Schema = {}): Typed<Static<S[number]>> {
  return { anyOf: [...schemas], ...extra };
}

/** The keywords of a closed object: no field but those of `properties`, of which those in `required` must be there. */
function fieldsOf<F extends Fields, const R extends keyof F & string = never>(properties: F, required?: readonly R[]): Typed<ObjectOf<F, Exclude<keyof F, R>>> {
  return { additionalProperties: false, ...(required === undefined ? {} : { required: [...required] }), properties };
}

/** A closed object (`fieldsOf`), written as the published file reads: what it allows and needs, then its fields. */
function closed<F extends Fields, const R extends keyof F & string = never>(properties: F, required?: readonly R[]): Typed<ObjectOf<F, Exclude<keyof F, R>>> {
  return { type: 'object', ...fieldsOf(properties, required) };
}

/**
 * A map from keys that fit `keys` to values of `values`; `extra` holds its other keywords. Keys
 * from a list of names may each be absent; keys of any string are just a record.
 */
function mapWithKeys<K extends string, V>(keys: Typed<K>, values: Typed<V>, extra: Schema = {}): Typed<string extends K ? Record<K, V> : Partial<Record<K, V>>> {
  return { type: 'object', propertyNames: keys, additionalProperties: values, ...extra };
}

/**
 * `base`, and also `then` where its field `key` is `value` or `otherwise` where it is not (JSON
 * Schema's if/then/else: ajv reports the problems of the branch that applies, where `oneOf` would
 * report both). The type is the base narrowed by `key` in each case.
 */
function whenField<B, const K extends keyof B & string, const V extends B[K] & string, T, E>(
  base: Typed<B>,
  key: K,
  value: V,
  then: Typed<T>,
  otherwise: Typed<E>,
): Typed<Flat<B & Record<K, V> & T> | Flat<B & Record<K, Exclude<B[K], V>> & E>> {
  const keywords: Schema = base;
  return { ...keywords, if: { properties: field(key, constant(value)) }, then, else: otherwise };
}

const text = scalar('string');
/** Text with at least one character: names, prompts, ids that are not uuids. */
const named = scalar('string', { minLength: 1 });
const email = scalar('string', { format: 'email' });
const uuid = scalar('string', { format: 'uuid' });
const dateTime = scalar('string', { format: 'date-time' });
const nothing = scalar('null');
/** Nullable and optional: null when omitted. */
const textOrNull = scalar(['string', 'null'], { default: null });
/** A key of a map of users: an e-mail (keys are strings, so the schema names no type). */
const emailKey: Typed<string> = { format: 'email' };
/** A short id of letters, digits, `_` and `-`: a SCIM group id, a document identifier. */
const shortIdPattern = '^[A-Za-z0-9_-]{1,64}$';
const labelNames = (description: string) => arrayOf(text, { uniqueItems: true, default: [], description });
/** A credit amount or null, where null means something (off, unlimited). */
const creditsOrNull = (extra: Schema = {}) => scalar(['number', 'null'], { minimum: 0, ...extra });
const ownerEmail = scalar('string', { format: 'email', description: "Owner's e-mail; the first Organization Admin when omitted." });
const userEmail = scalar('string', { format: 'email', description: "The user's e-mail." });
const unlimitedOverride = creditsOrNull({ description: 'null = explicit unlimited override.' });
const ORG_ROLES = ['MEMBER', 'ORG_ADMIN'] as const;
const orgRole = choice(ORG_ROLES);
/** The emulator's model roles (whoami reports each as `baseRole`). */
const modelRole = choice(['VIEWER', 'QUERIER', 'EDITOR', 'MANAGER']);

// ---- the organization and its people ----------------------------------------------------------

const organization = closed(
  {
    name: named,
    id: scalar('string', { format: 'uuid', description: 'Organization id; derived from the name when omitted.' }),
    creditControlsEnabled: scalar('boolean', { default: true, description: 'false: every credit-control endpoint answers 403.' }),
    routinesEnabled: scalar('boolean', { default: true, description: 'false: every routine endpoint answers 403.' }),
    maxActiveRoutinesPerUser: scalar('integer', {
      minimum: 0,
      default: 50,
      description: 'Creating or resuming a routine beyond this many active ones answers 429.',
    }),
    whoamiModelLimit: scalar('integer', {
      minimum: 1,
      default: 50,
      description: 'whoami without modelId lists at most this many models and sets rolesByModelTruncated.',
    }),
    routineRunSeconds: scalar('number', {
      minimum: 0,
      default: 0,
      description: 'How long a triggered routine run stays in progress; a trigger meanwhile answers 409.',
    }),
  },
  ['name'],
);

const user = closed(
  {
    id: scalar('string', { format: 'uuid', description: 'Membership id: SCIM user id and the userId of credit limits and routines.' }),
    email,
    displayName: named,
    role: orgRole,
    active: scalar('boolean', { default: true }),
    embedExternalId: scalar('string', {
      minLength: 1,
      description: 'For embed users: listed by GET /api/scim/v2/embed/users, which filters on it (`embedExternalId eq|co`).',
    }),
  },
  ['id', 'email', 'displayName', 'role'],
);

const group = closed(
  {
    id: scalar('string', { pattern: shortIdPattern, description: 'Short SCIM group id.' }),
    uuid: scalar('string', { format: 'uuid', description: 'The id routine destinations use in userGroupIds; derived when omitted.' }),
    displayName: named,
    members: arrayOf(email, { uniqueItems: true, default: [] }),
  },
  ['id', 'displayName'],
);

// ---- models, documents, folders and labels ----------------------------------------------------

const model = closed(
  {
    id: uuid,
    name: named,
    defaultRole: anyOf([modelRole, nothing], { default: null, description: 'Role of every user not listed in roles; null or omitted: no access.' }),
    roles: mapWithKeys(emailKey, modelRole, { default: {}, description: 'Role per user e-mail.' }),
    roleNames: mapWithKeys(modelRole, named, {
      default: {},
      description: "Custom role names whoami reports as roleName, per base role (default: the base role's own name).",
    }),
    modelKind: choice(['SCHEMA', 'SHARED', 'SHARED_EXTENSION', 'BRANCH', 'WORKBOOK', 'QUERY'], {
      default: 'SHARED',
      description: 'What the models list reports; routines run against SHARED models.',
    }),
    topics: arrayOf(named, { uniqueItems: true, default: [] }),
    branches: arrayOf(closed({ id: uuid, name: named }, ['id', 'name']), { default: [] }),
  },
  ['id', 'name'],
);

const documentFolder = closed({ id: text, name: text, path: text, scope: text }, ['id', 'name', 'path', 'scope']);
const document = closed(
  {
    identifier: scalar('string', { pattern: shortIdPattern }),
    name: named,
    description: textOrNull,
    owner: ownerEmail,
    labels: labelNames('Names of labels (from `labels`) applied to the document.'),
    folder: anyOf([nothing, documentFolder], { default: null }),
    scope: choice(['restricted', 'organization'], { default: 'organization' }),
    hasDashboard: scalar('boolean', { default: true }),
    deleted: scalar('boolean', { default: false }),
    updatedAt: anyOf([dateTime, nothing]),
    connectionId: named,
  },
  ['identifier', 'name'],
);

const folder = closed(
  {
    id: scalar('string', { format: 'uuid', description: 'Derived from the path when omitted.' }),
    name: named,
    path: scalar('string', { minLength: 1, description: 'Where the folder sits, e.g. finance/board-packs; unique.' }),
    scope: choice(['organization', 'restricted'], { default: 'organization' }),
    owner: ownerEmail,
    labels: labelNames('Names of labels (from `labels`) applied to the folder.'),
  },
  ['name', 'path'],
);

const label = closed(
  {
    name: scalar('string', { minLength: 2, maxLength: 25 }),
    color: anyOf([scalar('string', { pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$' }), nothing], { default: null }),
    description: scalar(['string', 'null'], { maxLength: 500, default: null }),
    verified: scalar('boolean', { default: false }),
    homepage: scalar('boolean', { default: false }),
  },
  ['name'],
);

// ---- routines ---------------------------------------------------------------------------------

const emailDestination = fieldsOf({
  type: constant('email'),
  recipientEmails: arrayOf(email, { default: [] }),
  userGroupIds: arrayOf(uuid, { default: [] }),
});
const slackDestination = fieldsOf(
  {
    type: constant('slack'),
    recipientId: scalar('string', { pattern: '^[CGUW][A-Z0-9]{6,}$', description: 'C… or G… for a channel, U… or W… for a user.' }),
    slackRecipientType: choice(['channel', 'users']),
  },
  ['recipientId', 'slackRecipientType'],
);
const destination = whenField(
  objectOf({ type: choice(['email', 'slack']) }, ['type'], {
    description: 'Exactly one destination: e-mail (recipientEmails and/or userGroupIds) or Slack (one channel or user).',
  }),
  'type',
  'email',
  emailDestination,
  slackDestination,
);

const routine = closed(
  {
    id: scalar('string', { format: 'uuid', description: 'Derived from owner and name when omitted.' }),
    owner: scalar('string', { format: 'email', description: 'E-mail of the user who owns the routine.' }),
    name: scalar('string', { minLength: 1, maxLength: 255 }),
    prompt: named,
    schedule: scalar('string', { description: 'Six-field cron (minute hour day-of-month month day-of-week year), at most hourly.' }),
    timezone: scalar('string', { description: 'IANA timezone, e.g. Europe/Berlin.' }),
    modelId: uuid,
    branchId: anyOf([uuid, nothing], { default: null }),
    topicName: textOrNull,
    description: textOrNull,
    destination,
    disabled: scalar('boolean', { default: false, description: 'Paused by its owner.' }),
    systemDisabled: scalar('boolean', { default: false }),
    systemDisabledReason: textOrNull,
    lastRun: anyOf([nothing, closed({ completedAt: dateTime, label: text, state: text }, ['completedAt', 'label', 'state'])], { default: null }),
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  ['owner', 'name', 'prompt', 'schedule', 'timezone', 'modelId', 'destination'],
);

// ---- credits ----------------------------------------------------------------------------------

const creditControls = closed({
  downgradeCredits: creditsOrNull(),
  shutoffCredits: creditsOrNull(),
  userDefaultCredits: creditsOrNull(),
  entityGroupDefaultCredits: creditsOrNull(),
  accountCreditLimit: scalar('number', { minimum: 0, default: 0, description: '0 = no account limit.' }),
  creditsUsed: scalar('number', { minimum: 0, default: 0 }),
});
const userCreditLimit = closed({ user: userEmail, creditLimit: unlimitedOverride }, ['user', 'creditLimit']);
const userCreditUsage = closed({ user: userEmail, creditsUsed: scalar('number', { minimum: 0 }) }, ['user', 'creditsUsed']);
const userGroupCreditLimit = closed(
  { group: scalar('string', { minLength: 1, description: "The group's SCIM id (groups[].id)." }), creditLimit: unlimitedOverride },
  ['group', 'creditLimit'],
);
const entity = scalar('string', { minLength: 1, maxLength: 255 });
const entityGroupCreditLimit = closed({ entity, creditLimit: creditsOrNull() }, ['entity', 'creditLimit']);

// ---- API tokens -------------------------------------------------------------------------------

const apiToken = closed(
  {
    id: scalar('string', { format: 'uuid', description: 'Derived from the name when omitted.' }),
    name: named,
    token: scalar('string', { minLength: 8, pattern: '^\\S+$', description: 'The bearer token clients send. Keep real secrets out of seed files.' }),
    type: choice(['organization', 'personal', 'mcp']),
    role: choice(ORG_ROLES, { description: "Organization keys only (required there): the key's organization role." }),
    owner: scalar('string', {
      format: 'email',
      description:
        "Personal and MCP tokens: their user. Organization keys: the user who created the key (whoami's user, and whose routines the key lists without userId).",
    }),
    enabled: scalar('boolean', { default: true }),
    createdAt: dateTime,
  },
  ['name', 'token', 'type', 'owner'],
);
// What the two branches add to a token, written as their types say: `required` makes the role
// present, the `false` schema makes it absent.
/** An organization key names its role. */
const withRole: Typed<{ role: Static<typeof orgRole> }> = { required: ['role'] };
/** A user-scoped token carries its user's role and names none. */
const withoutRole: Typed<{ role?: never }> = { properties: { role: false } };

// ---- the seed ---------------------------------------------------------------------------------

const seed = closed(
  {
    $schema: scalar('string', { description: 'Editor hint; ignored.' }),
    organization,
    users: arrayOf(user, { minItems: 1 }),
    groups: arrayOf(group),
    models: arrayOf(model),
    documents: arrayOf(document),
    folders: arrayOf(folder, { description: "Folders, which labels are applied to as they are to documents (each counts in a label's usage_count)." }),
    labels: arrayOf(label),
    routines: arrayOf(routine),
    creditControls,
    userCreditLimits: arrayOf(userCreditLimit),
    userCreditUsage: arrayOf(userCreditUsage, {
      description: "This period's AI credit usage per user, served by POST /api/v1/ai/credit-usage/users; a user left out has used 0.",
    }),
    userGroupCreditLimits: arrayOf(userGroupCreditLimit),
    entityGroups: arrayOf(entity, {
      uniqueItems: true,
      description: 'Embed entity groups the organization knows; limits can be set only for these (and those in entityGroupCreditLimits).',
    }),
    entityGroupCreditLimits: arrayOf(entityGroupCreditLimit),
    apiTokens: arrayOf(whenField(apiToken, 'type', 'organization', withRole, withoutRole), { minItems: 1 }),
  },
  ['organization', 'users', 'apiTokens'],
);

/** The seed's JSON Schema, as ajv checks it and as schemas/emulator-seed.schema.json publishes it. */
export const SEED_SCHEMA: Typed<Static<typeof seed>> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'steward emulator seed',
  description:
    'The data a steward emulator starts from (`steward emulator --data FILE`, YAML or JSON): organization, users, groups, models, documents, labels, routines, credit settings and API tokens. Users are referred to by e-mail everywhere else in the file.',
  ...seed,
};
