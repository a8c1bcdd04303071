// The shape of every response steward reads, one JSON Schema per response, checked with ajv at
// the boundary (PlatformApi) before any other code sees the body. Each shape is declared once,
// here, with the typed builders of ../typedSchema.ts: the schema is what ajv runs, and the type
// beside it (`Routine`, `Whoami`, ...; types.ts names them for the rest of the code) is read off
// that schema, so it says exactly what the check guarantees: a field ajv fills in is present, a
// field the check passes over is `unknown`.
//
// This is steward's reading of the answers, not the vendor's word. The vendor contract
// (contract/) describes the same answers strictly, as the vendor documents them, for the emulator
// and the contract test; the reader here is tolerant on purpose (below), reads fewer fields (the
// contract test holds it to fields the contract's answers have) and takes its enums from the
// contract. The bodies steward sends are not read back: their types are the contract's.
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
import { CREDIT_CONTROL_FIELDS } from './contract/creditControls.js';
import { apiKeyType, keyScope } from './contract/identity.js';
import { slackRecipientType } from './contract/routines.js';
import { arrayOf, constant, mapOf, objectOf, oneOf, sameFor, scalar, type Fields, type ObjectOf, type Schema, type Static, type Typed } from '../typedSchema.js';

/**
 * An object schema of every field in `properties`; `optional` lists the fields that may be
 * absent. A field with a default is not required either: ajv fills it in, so its type has it.
 */
function shapeOf<F extends Fields, const O extends keyof F & string = never>(properties: F, optional: readonly O[] = []): Typed<ObjectOf<F, O>> {
  const required = Object.entries(properties)
    .filter(([key, schema]) => !optional.includes(key as O) && !('default' in schema))
    .map(([key]) => key);
  return { type: 'object', properties, required };
}

/**
 * One of several object shapes, chosen by their `type` (each named by it). Written as if/then
 * rather than oneOf: ajv fills defaults inside `then` but not inside `oneOf`, and an unknown type
 * is told as such.
 */
function chosenByType<V extends Record<string, Typed<unknown>>>(variants: V & { [K in keyof V]: Typed<{ type: K }> }): Typed<Static<V[keyof V]>> {
  const types = Object.keys(variants);
  return {
    type: 'object',
    properties: { type: oneOf(...types) },
    required: ['type'],
    allOf: types.map((type) => ({ if: { properties: { type: constant(type) } }, then: variants[type] })),
  };
}

// ---- building blocks --------------------------------------------------------------------------

/** An identity: a string with at least one visible character. */
const identity = scalar('string', { minLength: 1, pattern: '\\S' });
const text = scalar('string');
const flag = scalar('boolean');
const count = scalar('integer', { minimum: 0 });
const amount = scalar('number');
/** A number or null where null means something (off, unlimited): it must be present. */
const amountOrNull = scalar(['number', 'null']);
/** A number the server may leave out: absent (or null) reads as null, "not known". */
const amountOrAbsent = scalar(['number', 'null'], { default: null });
/** Nullable and optional: absent reads as null. */
const textOrNull = scalar(['string', 'null'], { default: null });
/** A field steward never reads: any value, or none. */
const unread: Typed<unknown> = {};
/** A list; with `fallback`, an absent list reads as it. */
const listOf = <T>(items: Typed<T>, fallback?: []): Typed<T[]> => arrayOf(items, fallback === undefined ? {} : { default: fallback });
/** An object or null (present). */
const orNull = <T>(object: Typed<T>): Typed<T | null> => ({ ...object, type: ['object', 'null'] });

const pageInfo = shapeOf({ hasNextPage: flag, nextCursor: textOrNull, pageSize: count, totalRecords: count }, ['pageSize', 'totalRecords']);
/** Cursor pagination envelope (`pageInfo`); `pageSize` in effect and `totalRecords` only when a server gives them. */
export type PageInfo = Static<typeof pageInfo>;

/** A cursor-paginated list: `records` of one shape plus `pageInfo`. */
const cursorList = <T>(record: Typed<T>) => shapeOf({ records: listOf(record), pageInfo });

/** A SCIM ListResponse of one resource shape; `itemsPerPage` and `startIndex` are required by SCIM only for partial results. */
const scimList = <T>(resource: Typed<T>) =>
  shapeOf(
    {
      schemas: listOf(text, []),
      Resources: listOf(resource, []),
      totalResults: count,
      itemsPerPage: count,
      startIndex: scalar('integer', { minimum: 1 }),
    },
    ['itemsPerPage', 'startIndex'],
  );
export type ScimList<T> = Static<ReturnType<typeof scimList<T>>>;

// ---- whoami -----------------------------------------------------------------------------------

// Only what steward decides on is checked: the key's scope and role, each model's permissions
// and the user's membership id. Role names (custom ones too), base roles, connection ids and the
// user id are passed over, whatever they hold.
/** The key's user: `id` is the user id, `membershipId` the id every `userId` parameter takes. */
const whoamiUser = shapeOf({ id: textOrNull, membershipId: identity });
/** What steward reads of one model's role: the permissions (`USE_AI`, ...). */
const modelRole = shapeOf({ permissions: listOf(text, []) });
const whoami = shapeOf(
  {
    keyScope,
    // `MEMBER` or `ORG_ADMIN` as documented; read as text, so a role the documents do not name
    // yet is not refused: only `ORG_ADMIN` grants what an Organization Admin may do.
    orgRole: text,
    rolesByModel: mapOf(modelRole),
    rolesByModelTruncated: flag,
    // For an organization key, the user the key was created by, or null when the server names
    // none: normaliseWhoami has already turned a user without either id into null.
    user: orNull(whoamiUser),
  },
  ['rolesByModelTruncated'],
);
export type Whoami = Static<typeof whoami>;

// ---- credit controls --------------------------------------------------------------------------

// The settings read null as off (thresholds) or unlimited (defaults). The account's limit and the
// period's usage are read for a plan's impacts and exposure; absent, they read as null (not
// known; 0 = no account limit), so a server that leaves them out never stops a plan. The period
// is passed over. `entityGroupDefaultCredits` is not in the documented answer: optional, and
// absent stays absent (an instance that does not show it).
const creditControls = shapeOf(
  {
    ...sameFor(CREDIT_CONTROL_FIELDS, amountOrNull),
    accountCreditLimit: amountOrAbsent,
    creditsUsed: amountOrAbsent,
    periodStart: unread,
    periodEnd: unread,
  },
  ['entityGroupDefaultCredits', 'periodStart', 'periodEnd'],
);
export type CreditControls = Static<typeof creditControls>;
/** The settings a PATCH may carry. */
export type CreditControlSettings = Pick<CreditControls, (typeof CREDIT_CONTROL_FIELDS)[number]>;
// The usage answer's shape is steward's choice (OPEN): a user it leaves out is read as unknown.
/** One user's usage this period, by the membership id asked about. */
const userCreditUsage = shapeOf({ userId: identity, creditsUsed: amount });
// A credit limit of null is an explicit unlimited override (not the default): it must be there.
const userCreditLimit = shapeOf({ userId: identity, creditLimit: amountOrNull });
/** A user group's limit, by its id in the credit-limit API (gaps.md: the SCIM id or a uuid; OPEN). */
const userGroupCreditLimit = shapeOf({ userGroupId: identity, creditLimit: amountOrNull });
const entityGroupCreditLimit = shapeOf({ entity: identity, creditLimit: amountOrNull });
const userCreditLimitResult = shapeOf({ userId: identity, creditLimit: amountOrNull, usesDefaultLimit: flag });
const userGroupCreditLimitResult = shapeOf({ userGroupId: identity, creditLimit: amountOrNull, usesDefaultLimit: flag });
const entityGroupCreditLimitResult = shapeOf({ entity: identity, creditLimit: amountOrNull, usesDefaultLimit: flag });
export type UserCreditLimitRecord = Static<typeof userCreditLimit>;
export type UserGroupCreditLimitRecord = Static<typeof userGroupCreditLimit>;
export type EntityGroupCreditLimitRecord = Static<typeof entityGroupCreditLimit>;

// ---- routines ---------------------------------------------------------------------------------

const emailDestination = shapeOf({
  type: constant('email'),
  // A server may leave out an empty list of recipients: read as empty.
  recipientEmails: listOf(text, []),
  userGroupIds: listOf(text, []),
});
const slackDestination = shapeOf({
  type: constant('slack'),
  /** `C…` for a channel, `U…` for a user. */
  recipientId: identity,
  slackRecipientType,
});
const destination = chosenByType({ email: emailDestination, slack: slackDestination });
export type EmailDestination = Static<typeof emailDestination>;
export type SlackDestination = Static<typeof slackDestination>;
export type RoutineDestination = Static<typeof destination>;
const routine = shapeOf({
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
  /** Paused by its owner. */
  disabled: flag,
  // Server-managed and never compared: passed over whatever their form. createdAt orders
  // namesakes (oldest kept); without it (null) they are ordered by id.
  systemDisabled: unread,
  systemDisabledReason: unread,
  lastRun: unread,
  recipientCount: unread,
  createdAt: textOrNull,
  updatedAt: unread,
}, ['systemDisabled', 'systemDisabledReason', 'lastRun', 'recipientCount', 'updatedAt']);
export type Routine = Static<typeof routine>;
const createdId = shapeOf({ id: identity });

// ---- labels and documents ---------------------------------------------------------------------

const label = shapeOf({
  name: identity,
  color: textOrNull,
  description: textOrNull,
  homepage: flag,
  verified: flag,
  usage_count: count,
});
export type Label = Static<typeof label>;
// steward reads a document's identifier, name and labels (present with `include=labels`); the
// rest is passed over, whatever a server puts there (a null connectionId, no url), so it cannot
// fail a plan. A missing name reads as null.
const documentRecord = shapeOf(
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
export type DocumentRecord = Static<typeof documentRecord>;
/** A document's or folder's labels after a PATCH of them. */
const labelsAfter = shapeOf({ labels: listOf(identity) });
export type DocumentLabelsPatchResult = Static<typeof labelsAfter>;

// ---- folders ----------------------------------------------------------------------------------

// The vendor requires nothing of a folder; steward needs its id, and reads its path (where it
// sits, as the list filters it), name and labels (with `include=labels`).
const folderRecord = shapeOf({ id: identity, path: textOrNull, name: textOrNull, labels: listOf(identity) }, ['labels']);
export type FolderRecord = Static<typeof folderRecord>;
export type FolderLabelsPatchResult = Static<typeof labelsAfter>;

// ---- models -----------------------------------------------------------------------------------

/** An active branch of a model (`include=activeBranches`); the vendor lets its name be null. */
const modelBranch = shapeOf({ id: identity, name: textOrNull });
/** A model as `GET /api/v1/models` lists it (gaps.md "Models"), with its branches when asked. */
const modelRecord = shapeOf(
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
/** One topic of a model; steward reads only its name. */
const modelTopic = shapeOf({ name: identity, label: text, hidden: flag }, ['label', 'hidden']);
export type ModelRecord = Static<typeof modelRecord>;
export type ModelTopic = Static<typeof modelTopic>;

// ---- SCIM and API keys ------------------------------------------------------------------------

/** A SCIM multi-valued attribute's entry (a group of a user, a member of a group); only its value is required. */
const scimValue = shapeOf({ value: text, display: text }, ['display']);
const scimUser = shapeOf({
  schemas: listOf(text, []),
  id: identity,
  userName: identity,
  // Optional in SCIM (RFC 7643): absent reads as no display name.
  displayName: scalar('string', { default: '' }),
  active: flag,
  emails: listOf(shapeOf({ value: text, primary: flag }, ['primary']), []),
  groups: listOf(scimValue, []),
});
const scimGroup = shapeOf({
  schemas: listOf(text, []),
  id: identity,
  displayName: text,
  members: listOf(scimValue, []),
});
const apiKey = shapeOf({
  id: identity,
  name: text,
  type: apiKeyType,
  enabled: flag,
  createdAt: text,
  membershipId: textOrNull,
});
export type ScimUser = Static<typeof scimUser>;
export type ScimGroup = Static<typeof scimGroup>;
export type ApiKeyRecord = Static<typeof apiKey>;

/** One schema per response steward reads, by name. */
const SHAPES = {
  whoami,
  creditControls,
  userCreditUsage: shapeOf({ users: listOf(userCreditUsage) }),
  userCreditLimitList: cursorList(userCreditLimit),
  userCreditLimitPatchResult: shapeOf({ users: listOf(userCreditLimitResult) }),
  userGroupCreditLimitList: cursorList(userGroupCreditLimit),
  userGroupCreditLimitPatchResult: shapeOf({ userGroups: listOf(userGroupCreditLimitResult) }),
  entityGroupCreditLimitList: cursorList(entityGroupCreditLimit),
  entityGroupCreditLimitPatchResult: shapeOf({ entityGroups: listOf(entityGroupCreditLimitResult) }),
  routineList: cursorList(routine),
  routine,
  createdRoutine: createdId,
  // `{deleted: true, id}`, or nothing at all (a 204).
  deletedRoutine: orNull(objectOf({ deleted: flag, id: text })),
  routineRun: createdId,
  labelList: shapeOf({ labels: listOf(label) }),
  label,
  documentList: cursorList(documentRecord),
  documentLabels: labelsAfter,
  // The folders list: FO requires neither key of the envelope, but a listing without either cannot be read.
  folderList: cursorList(folderRecord),
  folderLabels: labelsAfter,
  modelList: cursorList(modelRecord),
  modelTopics: shapeOf({ success: flag, topics: listOf(modelTopic) }, ['success']),
  scimUserList: scimList(scimUser),
  scimUser,
  scimGroupList: scimList(scimGroup),
  apiKeyList: cursorList(apiKey),
} satisfies Record<string, Schema>;

/** The type of a checked response body of this shape. */
export type ShapeType<N extends ShapeName> = Static<(typeof SHAPES)[N]>;
/** The shapes of cursor-paginated lists (`records` and `pageInfo`). */
export type CursorListShape = { [N in ShapeName]: ShapeType<N> extends { records: unknown[]; pageInfo: PageInfo } ? N : never }[ShapeName];
export type UserCreditLimitPatchResult = ShapeType<'userCreditLimitPatchResult'>;
export type UserGroupCreditLimitPatchResult = ShapeType<'userGroupCreditLimitPatchResult'>;
export type EntityGroupCreditLimitPatchResult = ShapeType<'entityGroupCreditLimitPatchResult'>;

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
 * filled in) typed as that shape, or a one-sentence description of the first misfit.
 */
export function checkShape<N extends ShapeName>(name: N, body: unknown, place: MisfitPlace = {}): { ok: true; value: ShapeType<N> } | { ok: false; misfit: string } {
  // An empty body arrives as undefined: checked as null, so only a shape that allows nothing passes.
  const value = name === 'whoami' ? normaliseWhoami(body) : (body ?? null);
  const validate = validatorOf(name);
  if (validate(value)) return { ok: true, value: value as ShapeType<N> };
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
