// The shape of every response steward reads, one JSON Schema per response, checked with ajv at
// the boundary (PlatformApi) before any other code sees the body. Each schema is built from the
// wire type it guards (src/api/types.ts): `shapeOf<T>` demands a schema for every field of T, so
// adding a field to a type without describing it here does not compile.
//
// What the schemas allow, on purpose:
// - unknown extra fields (a newer server may add some);
// - a field the types mark nullable may be absent: it is read as null (serializers that drop
//   nulls); SCIM's optional multi-valued attributes and an e-mail destination's recipient
//   lists may be absent: read as an empty list;
// and what they refuse: a list that is not an array, a field of another type, a value outside
// an enum of api.md/gaps.md, and an identity (routine id and name, label name, userId, document
// identifier, SCIM id and userName, ...) that is missing, not a string, or blank. Nothing is
// planned on a response that does not fit, so no object without its identity becomes a delete.
//
// Validators are compiled on first use only, each on its own: commands that never talk to the
// server (`steward validate`) pay nothing. `npm run build` also writes them as ajv standalone
// code (dist/api/shapeValidators.cjs, tied to these schemas by their digest), so a built steward
// neither loads ajv's compiler nor compiles a schema while it reads.

import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type {
  ApiKeyRecord,
  CreditControls,
  DocumentLabelsPatchResult,
  DocumentRecord,
  EmailDestination,
  EntityGroupCreditLimitPatchResult,
  FolderLabelsPatchResult,
  FolderRecord,
  EntityGroupCreditLimitRecord,
  Label,
  ModelBranch,
  ModelRecord,
  ModelTopic,
  PageInfo,
  Routine,
  RoutineLastRun,
  ScimGroup,
  ScimUser,
  SlackDestination,
  UserCreditLimitPatchResult,
  UserCreditLimitRecord,
  UserCreditUsage,
  UserCreditUsageList,
  UserGroupCreditLimitPatchResult,
  UserGroupCreditLimitRecord,
  Whoami,
  WhoamiModelRole,
  WhoamiUser,
} from './types.js';

type Schema = Record<string, unknown>;

/** An object schema that describes every field of T; `optional` lists the fields T may lack. */
function shapeOf<T>(properties: { [K in keyof T]-?: Schema }, optional: readonly (keyof T & string)[] = []): Schema {
  const required = Object.entries(properties as Record<string, Schema>)
    .filter(([key, schema]) => !optional.includes(key as keyof T & string) && !('default' in schema))
    .map(([key]) => key);
  return { type: 'object', properties, required };
}

// ---- building blocks --------------------------------------------------------------------------

/** An identity: a string with at least one visible character. */
const identity: Schema = { type: 'string', minLength: 1, pattern: '\\S' };
const text: Schema = { type: 'string' };
const flag: Schema = { type: 'boolean' };
const count: Schema = { type: 'integer', minimum: 0 };
const amount: Schema = { type: 'number' };
/** A number or null where null means something (off, unlimited): it must be present. */
const amountOrNull: Schema = { type: ['number', 'null'] };
/** A number the server may leave out: absent (or null) reads as null, "not known". */
const amountOrAbsent: Schema = { type: ['number', 'null'], default: null };
/** Nullable and optional: absent reads as null. */
const textOrNull: Schema = { type: ['string', 'null'], default: null };
/** A field steward never reads: any value, or none. */
const unread: Schema = {};
const listOf = (items: Schema, fallback?: []): Schema => ({ type: 'array', items, ...(fallback === undefined ? {} : { default: fallback }) });
const oneOf = (...values: string[]): Schema => ({ type: 'string', enum: values });
/** An object or null; absent reads as null. (Not anyOf: ajv fills defaults only outside it.) */
const objectOrNull = (schema: Schema): Schema => ({ ...schema, type: ['object', 'null'], default: null });

const pageInfo = shapeOf<PageInfo>(
  { hasNextPage: flag, nextCursor: textOrNull, pageSize: count, totalRecords: count },
  ['pageSize', 'totalRecords'],
);

/** A cursor-paginated list: `records` of one shape plus `pageInfo`. */
const cursorList = (record: Schema): Schema => ({
  type: 'object',
  properties: { records: listOf(record), pageInfo },
  required: ['records', 'pageInfo'],
});

/** A SCIM ListResponse of one resource shape. */
const scimList = (resource: Schema): Schema => ({
  type: 'object',
  properties: {
    schemas: listOf(text, []),
    Resources: listOf(resource, []),
    totalResults: count,
    itemsPerPage: count,
    startIndex: { type: 'integer', minimum: 1 },
  },
  required: ['totalResults'],
});

// ---- whoami -----------------------------------------------------------------------------------

// Only what steward decides on is checked: the key's scope and role, each model's permissions
// and the user's membership id. Role names (custom ones too), base roles, connection ids and the
// user id are passed over, whatever they hold.
const whoamiUser = shapeOf<WhoamiUser>({ id: textOrNull, membershipId: identity });
const modelRole = shapeOf<WhoamiModelRole>({ permissions: listOf(text, []) });
const whoami = shapeOf<Whoami>(
  {
    keyScope: oneOf('user', 'organization'),
    orgRole: text,
    rolesByModel: { type: 'object', additionalProperties: modelRole },
    rolesByModelTruncated: flag,
    // normaliseWhoami has already turned a user without either id into null.
    user: { ...whoamiUser, type: ['object', 'null'] },
  },
  ['rolesByModelTruncated'],
);

// ---- credit controls --------------------------------------------------------------------------

// The account's limit and the period's usage are read for a plan's impacts and exposure; absent,
// they read as null (not known), so a server that leaves them out never stops a plan. The period
// is passed over. `entityGroupDefaultCredits` is not in the documented answer: optional, and
// absent stays absent.
const creditControls = shapeOf<CreditControls>(
  {
    downgradeCredits: amountOrNull,
    shutoffCredits: amountOrNull,
    userDefaultCredits: amountOrNull,
    entityGroupDefaultCredits: amountOrNull,
    accountCreditLimit: amountOrAbsent,
    creditsUsed: amountOrAbsent,
    periodStart: unread,
    periodEnd: unread,
  },
  ['entityGroupDefaultCredits', 'periodStart', 'periodEnd'],
);
// The usage answer's shape is steward's choice (OPEN): a user it leaves out is read as unknown.
const userCreditUsage = shapeOf<UserCreditUsage>({ userId: identity, creditsUsed: amount });
const userCreditLimit = shapeOf<UserCreditLimitRecord>({ userId: identity, creditLimit: amountOrNull });
const userGroupCreditLimit = shapeOf<UserGroupCreditLimitRecord>({ userGroupId: identity, creditLimit: amountOrNull });
const entityGroupCreditLimit = shapeOf<EntityGroupCreditLimitRecord>({ entity: identity, creditLimit: amountOrNull });
type UserLimitResult = UserCreditLimitPatchResult['users'][number];
type UserGroupLimitResult = UserGroupCreditLimitPatchResult['userGroups'][number];
type EntityGroupLimitResult = EntityGroupCreditLimitPatchResult['entityGroups'][number];

// ---- routines ---------------------------------------------------------------------------------

const emailDestination = shapeOf<EmailDestination>({
  type: { const: 'email' },
  // A server may leave out an empty list of recipients: read as empty.
  recipientEmails: listOf(text, []),
  userGroupIds: listOf(text, []),
});
const slackDestination = shapeOf<SlackDestination>({
  type: { const: 'slack' },
  recipientId: identity,
  slackRecipientType: oneOf('channel', 'users'),
});
/**
 * One destination of either kind, chosen by `type`. Written as if/then rather than oneOf: ajv
 * fills defaults inside `then` but not inside `oneOf`, and an unknown type is told as such.
 */
const destination: Schema = {
  type: 'object',
  properties: { type: oneOf('email', 'slack') },
  required: ['type'],
  allOf: [
    { if: { properties: { type: { const: 'email' } } }, then: emailDestination },
    { if: { properties: { type: { const: 'slack' } } }, then: slackDestination },
  ],
};
const lastRun = shapeOf<RoutineLastRun>({ completedAt: textOrNull, label: text, state: text });
const routine = shapeOf<Routine>({
  id: identity,
  name: identity,
  prompt: text,
  schedule: text,
  timezone: text,
  modelId: text,
  branchId: textOrNull,
  topicName: textOrNull,
  description: textOrNull,
  destination,
  disabled: flag,
  // Server-managed and never compared: passed over whatever their form. createdAt orders
  // namesakes (oldest kept); without it they are ordered by id.
  systemDisabled: unread,
  systemDisabledReason: unread,
  lastRun: unread,
  recipientCount: unread,
  createdAt: textOrNull,
  updatedAt: unread,
}, ['systemDisabled', 'systemDisabledReason', 'lastRun', 'recipientCount', 'updatedAt']);
const createdId: Schema = { type: 'object', properties: { id: identity }, required: ['id'] };

// ---- labels and documents ---------------------------------------------------------------------

const label = shapeOf<Label>({
  name: identity,
  color: textOrNull,
  description: textOrNull,
  homepage: flag,
  verified: flag,
  usage_count: count,
});
// steward reads a document's identifier, name and labels; the rest is passed over, whatever a
// server puts there (a null connectionId, no url), so it cannot fail a plan.
const documentRecord = shapeOf<DocumentRecord>(
  {
    identifier: identity,
    name: textOrNull,
    connectionId: unread,
    deleted: unread,
    description: unread,
    folder: unread,
    hasDashboard: unread,
    owner: unread,
    scope: unread,
    type: unread,
    updatedAt: unread,
    url: unread,
    labels: listOf(identity),
  },
  ['labels', 'connectionId', 'deleted', 'description', 'folder', 'hasDashboard', 'owner', 'scope', 'type', 'updatedAt', 'url'],
);

// ---- folders ----------------------------------------------------------------------------------

// The vendor requires nothing of a folder; steward needs its id, and reads its path and labels.
const folderRecord = shapeOf<FolderRecord>({ id: identity, path: textOrNull, name: textOrNull, labels: listOf(identity) }, ['labels']);

// ---- models -----------------------------------------------------------------------------------

const modelBranch = shapeOf<ModelBranch>({ id: identity, name: textOrNull });
const modelRecord = shapeOf<ModelRecord>(
  {
    id: identity,
    name: textOrNull,
    modelKind: textOrNull,
    baseModelId: textOrNull,
    connectionId: textOrNull,
    createdAt: text,
    updatedAt: text,
    deletedAt: textOrNull,
    branches: listOf(modelBranch),
  },
  ['branches', 'createdAt', 'updatedAt'],
);
const modelTopic = shapeOf<ModelTopic>({ name: identity, label: text, hidden: flag }, ['label', 'hidden']);

// ---- SCIM and API keys ------------------------------------------------------------------------

const scimUser = shapeOf<ScimUser>({
  schemas: listOf(text, []),
  id: identity,
  userName: identity,
  // Optional in SCIM (RFC 7643): absent reads as no display name.
  displayName: { type: 'string', default: '' },
  active: flag,
  emails: listOf({ type: 'object', properties: { value: text, primary: flag }, required: ['value'] }, []),
  groups: listOf({ type: 'object', properties: { value: text, display: text }, required: ['value'] }, []),
});
const scimGroup = shapeOf<ScimGroup>({
  schemas: listOf(text, []),
  id: identity,
  displayName: text,
  members: listOf({ type: 'object', properties: { value: text, display: text }, required: ['value'] }, []),
});
const apiKey = shapeOf<ApiKeyRecord>({
  id: identity,
  name: text,
  type: oneOf('organization', 'personal', 'mcp'),
  enabled: flag,
  createdAt: text,
  membershipId: textOrNull,
});

/** One schema per response steward reads, by name. */
const SHAPES = {
  whoami,
  creditControls,
  userCreditUsage: shapeOf<UserCreditUsageList>({ users: listOf(userCreditUsage) }),
  userCreditLimitList: cursorList(userCreditLimit),
  userCreditLimitPatchResult: {
    type: 'object',
    properties: {
      users: listOf(shapeOf<UserLimitResult>({ userId: identity, creditLimit: amountOrNull, usesDefaultLimit: flag })),
    },
    required: ['users'],
  },
  userGroupCreditLimitList: cursorList(userGroupCreditLimit),
  userGroupCreditLimitPatchResult: {
    type: 'object',
    properties: {
      userGroups: listOf(shapeOf<UserGroupLimitResult>({ userGroupId: identity, creditLimit: amountOrNull, usesDefaultLimit: flag })),
    },
    required: ['userGroups'],
  },
  entityGroupCreditLimitList: cursorList(entityGroupCreditLimit),
  entityGroupCreditLimitPatchResult: {
    type: 'object',
    properties: {
      entityGroups: listOf(shapeOf<EntityGroupLimitResult>({ entity: identity, creditLimit: amountOrNull, usesDefaultLimit: flag })),
    },
    required: ['entityGroups'],
  },
  routineList: cursorList(routine),
  routine,
  createdRoutine: createdId,
  // `{deleted: true, id}`, or nothing at all (a 204).
  deletedRoutine: { type: ['object', 'null'], properties: { deleted: flag, id: text } },
  routineRun: createdId,
  labelList: { type: 'object', properties: { labels: listOf(label) }, required: ['labels'] },
  label,
  documentList: cursorList(documentRecord),
  documentLabels: shapeOf<DocumentLabelsPatchResult>({ labels: listOf(identity) }),
  // The folders list: FO requires neither key of the envelope, but a listing without either cannot be read.
  folderList: cursorList(folderRecord),
  folderLabels: shapeOf<FolderLabelsPatchResult>({ labels: listOf(identity) }),
  modelList: cursorList(modelRecord),
  modelTopics: { type: 'object', properties: { success: flag, topics: listOf(modelTopic) }, required: ['topics'] },
  scimUserList: scimList(scimUser),
  scimUser,
  scimGroupList: scimList(scimGroup),
  apiKeyList: cursorList(apiKey),
} satisfies Record<string, Schema>;

/** The name of a response shape. */
export type ShapeName = keyof typeof SHAPES;

/** The name of every shape. */
export function shapeNames(): ShapeName[] {
  return Object.keys(SHAPES) as ShapeName[];
}

/** Every shape's schema, for tests that keep them in step with the emulator. */
export function shapeSchema(name: ShapeName): Schema {
  return SHAPES[name];
}

let ajv: Ajv2020 | undefined;
const validators = new Map<ShapeName, ValidateFunction>();

// useDefaults fills an absent nullable field with null and an absent SCIM list with [].
// validateSchema off: checking these schemas against the meta-schema doubles the compile time on
// every run; strict mode still refuses an unknown keyword, and the tests compile all.
const AJV_OPTIONS = { allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true, useDefaults: true, validateSchema: false } as const;

function newAjv(source: boolean): Ajv2020 {
  // ajv is loaded with the first schema compiled, not at start-up (`validate` reads no response).
  const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  return new Ajv({ ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) });
}

/** The sha256 of every shape: the precompiled validators are used only for these exact schemas. */
export function shapesDigest(): string {
  return createHash('sha256').update(JSON.stringify(SHAPES)).digest('hex');
}

/**
 * The standalone code (CommonJS) of every shape's validator, for the build step
 * (scripts/precompile-schema.mjs); it records the shapes' digest.
 */
export function standaloneShapeValidators(): string {
  const compiler = newAjv(true);
  const names = shapeNames();
  for (const name of names) compiler.addSchema(SHAPES[name], name);
  const { default: standalone } = createRequire(import.meta.url)('ajv/dist/standalone/index.js') as { default: (ajv: Ajv2020, refs: Record<string, string>) => string };
  return `${standalone(compiler, Object.fromEntries(names.map((name) => [name, name])))}\nexports.shapesDigest = ${JSON.stringify(shapesDigest())};\n`;
}

/** The validators written by the build, beside this file in dist/. */
const PRECOMPILED_FILE = fileURLToPath(new URL('./shapeValidators.cjs', import.meta.url));
let precompiled: Partial<Record<ShapeName, ValidateFunction>> | null | undefined;

/** The build's validators when they were made from these shapes; null when not built (tests run the sources) or stale. */
function precompiledValidators(): Partial<Record<ShapeName, ValidateFunction>> | null {
  if (precompiled !== undefined) return precompiled;
  try {
    const module = createRequire(import.meta.url)(PRECOMPILED_FILE) as Partial<Record<ShapeName, ValidateFunction>> & { shapesDigest?: string };
    precompiled = module.shapesDigest === shapesDigest() ? module : null;
  } catch {
    precompiled = null;
  }
  return precompiled;
}

function validatorOf(name: ShapeName): ValidateFunction {
  let validate = validators.get(name);
  if (validate === undefined) {
    validate = precompiledValidators()?.[name] ?? (ajv ??= newAjv(false)).compile(SHAPES[name]);
    validators.set(name, validate);
  }
  return validate;
}

/**
 * The whoami body with `user` normalised (gaps.md, organization keys): absent, null, or a user
 * whose `id` and `membershipId` are both null, absent or blank becomes null, so "no user" has one
 * form. A user with an id but no membership id is left for the schema to refuse by name: steward
 * cannot act for a user it knows only by a user id.
 */
function normaliseWhoami(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const user = record.user;
  const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  const userless =
    user === undefined ||
    user === null ||
    (typeof user === 'object' && !Array.isArray(user) && blank((user as Record<string, unknown>).id) && blank((user as Record<string, unknown>).membershipId));
  return userless ? { ...record, user: null } : body;
}

/** Where a body came from, for its misfit message (`record 3 of page 2 has no name`). */
export interface MisfitPlace {
  /** The page the body was, for paginated lists (named only past the first). */
  page?: number;
}

/**
 * Checks a response body against its shape. Returns the body (with absent nullable fields
 * filled in) typed as T, or a one-sentence description of the first misfit.
 */
export function checkShape<T>(name: ShapeName, body: unknown, place: MisfitPlace = {}): { ok: true; value: T } | { ok: false; misfit: string } {
  // An empty body arrives as undefined: checked as null, so only a shape that allows nothing passes.
  const value = name === 'whoami' ? normaliseWhoami(body) : (body ?? null);
  const validate = validatorOf(name);
  if (validate(value)) return { ok: true, value: value as T };
  if (body === undefined) return { ok: false, misfit: 'the response body is empty' };
  return { ok: false, misfit: describeMisfit(validate.errors?.[0], value, place) };
}

// ---- one sentence per misfit ------------------------------------------------------------------

const LIST_KEYS: Readonly<Record<string, string>> = { topics: 'topic', branches: 'branch', records: 'record', Resources: 'resource', labels: 'label', users: 'entry', userGroups: 'entry', entityGroups: 'entry' };

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a number';
  return `a ${typeof value}`;
}

function wanted(type: unknown): string {
  const names = (Array.isArray(type) ? type : [type]).map((one) =>
    one === 'array' ? 'a list' : one === 'object' ? 'an object' : one === 'integer' ? 'a whole number' : one === 'null' ? 'null' : `a ${String(one)}`,
  );
  return names.join(' or ');
}

/** A value from the server, quoted, escaped and clipped: inert wherever it is printed. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}

/** A path segment as printed: a plain name as is; a key the server chose (a model id) quoted and clipped. */
function shownSegment(segment: string): string {
  return /^[A-Za-z0-9_-]{1,60}$/.test(segment) ? segment : shown(segment);
}

function valueAt(root: unknown, segments: string[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** Splits an instance path into the record it is in (if any) and the field path within it. */
function locate(segments: string[], page: number | undefined): { record: string | undefined; field: string[] } {
  const at = segments.findIndex((segment, index) => index + 1 < segments.length && LIST_KEYS[segment] !== undefined && /^\d+$/.test(segments[index + 1] ?? ''));
  if (at === -1) return { record: undefined, field: segments };
  const noun = LIST_KEYS[segments[at] as string] as string;
  const ofPage = page !== undefined && page > 1 ? ` of page ${page}` : '';
  return { record: `${noun} ${Number(segments[at + 1]) + 1}${ofPage}`, field: segments.slice(at + 2) };
}

function describeMisfit(error: ErrorObject | undefined, body: unknown, place: MisfitPlace): string {
  if (error === undefined) return 'the response does not have the expected shape';
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const { record, field } = locate(segments, place.page);
  const subject = record ?? 'the response';
  const value = valueAt(body, segments);
  const fieldName = field.map(shownSegment).join('.');
  const at = fieldName === '' ? subject : record === undefined ? fieldName : `${subject}: ${fieldName}`;
  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      const whose = fieldName === '' ? subject : record === undefined ? fieldName : `${subject}: ${fieldName}`;
      return `${whose} has no ${missing}`;
    }
    case 'type':
      if (fieldName === '' && record === undefined) return `the response is ${typeName(value)}, not ${wanted((error.params as { type: unknown }).type)}`;
      if (fieldName === '') return `${subject} is ${typeName(value)}, not ${wanted((error.params as { type: unknown }).type)}`;
      return `${at} is ${typeName(value)}, not ${wanted((error.params as { type: unknown }).type)}`;
    case 'minLength':
    case 'pattern':
      return record !== undefined && field.length === 1 ? `${subject} has a blank ${fieldName}` : `${at} is blank`;
    case 'enum':
      return `${at} is ${shown(value)}, not one of ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).map(shown).join(', ')}`;
    case 'const':
      return `${at} is ${shown(value)}, not ${shown((error.params as { allowedValue: unknown }).allowedValue)}`;
    case 'minimum':
      return `${at} is ${shown(value)}, below ${String((error.params as { limit: number }).limit)}`;
    default:
      return `${at} ${error.message ?? 'does not fit'}`;
  }
}
