// AI credit controls: the organization's thresholds and defaults, and the individual limits of
// users, user groups and embed entity groups.
import { field, sameFor, type Static } from '../../typedSchema.js';
import { arrayOf, boolean, cursorList, fullObject, integer, nullable, number, object, onlyTrue, string } from './schema.js';
import type { Operation } from './types.js';

const credits = nullable(number({ minimum: 0 }));
const page = { cursor: string(), pageSize: integer({ minimum: 1, maximum: 100 }) };

/** The seven fields CC documents, all required. */
const controls = {
  accountCreditLimit: number({ minimum: 0 }),
  creditsUsed: number({ minimum: 0 }),
  downgradeCredits: credits,
  shutoffCredits: credits,
  userDefaultCredits: credits,
  periodStart: integer({ minimum: 0 }),
  periodEnd: integer({ minimum: 0 }),
};

/** The settings CC documents a PATCH of; null = off (thresholds) or unlimited (defaults). */
const DOCUMENTED_SETTINGS = ['downgradeCredits', 'shutoffCredits', 'userDefaultCredits'] as const;
/** Every setting a PATCH may carry: the documented ones and the generated client's entity-group default. */
export const CREDIT_CONTROL_FIELDS = [...DOCUMENTED_SETTINGS, 'entityGroupDefaultCredits'] as const;

/** A PATCH of some of these settings (at least one). */
function settingsPatch<const F extends string>(fields: readonly F[]) {
  return object(sameFor(fields, credits), [], { minProperties: 1 });
}
const settingsUpdate = settingsPatch(CREDIT_CONTROL_FIELDS);
/** The body of a credit-controls PATCH: the settings to change (absent = unchanged). */
export type CreditControlsPatch = Static<typeof settingsUpdate>;

/** The bulk PATCH body of one kind of individual limit: entries keyed by `key`, wrapped in `wrapper`. */
function limitPatch<const K extends string, const W extends string>(key: K, wrapper: W) {
  // An entry sets a limit (null = unlimited) or, with `useDefaultLimit`, removes the override.
  const entry = object({ ...field(key, string()), creditLimit: credits, useDefaultLimit: onlyTrue }, [key]);
  return object(field(wrapper, arrayOf(entry, { minItems: 1, maxItems: 1000 })), [wrapper]);
}
export type UserCreditLimitPatch = Static<ReturnType<typeof limitPatch<'userId', 'users'>>>;
export type UserGroupCreditLimitPatch = Static<ReturnType<typeof limitPatch<'userGroupId', 'userGroups'>>>;
export type EntityGroupCreditLimitPatch = Static<ReturnType<typeof limitPatch<'entity', 'entityGroups'>>>;
export type UserCreditLimitWrite = UserCreditLimitPatch['users'][number];
export type UserGroupCreditLimitWrite = UserGroupCreditLimitPatch['userGroups'][number];
export type EntityGroupCreditLimitWrite = EntityGroupCreditLimitPatch['entityGroups'][number];

/** The list and bulk PATCH of one kind of individual limit, keyed by `key`, wrapped in `wrapper`. */
function limitOperations(kind: string, path: string, key: string, wrapper: string, sources: readonly string[]): Operation[] {
  return [
    {
      id: `${kind}.list`,
      method: 'GET',
      path,
      sources,
      query: page,
      success: { status: 200, body: cursorList(fullObject({ [key]: string(), creditLimit: credits })) },
    },
    {
      id: `${kind}.update`,
      method: 'PATCH',
      path,
      sources,
      body: limitPatch(key, wrapper),
      success: { status: 200, body: object({ [wrapper]: arrayOf(fullObject({ [key]: string(), creditLimit: credits, usesDefaultLimit: boolean })) }) },
    },
  ];
}

const SDK_NOTE = 'SDK: the generated client reads and writes `entityGroupDefaultCredits` beside the seven fields CC documents';

export const creditControlOperations: readonly Operation[] = [
  {
    id: 'creditControls.get',
    method: 'GET',
    path: '/api/v1/ai/credit-controls',
    sources: ['CC', 'DOCS'],
    success: { status: 200, body: fullObject(controls) },
  },
  {
    id: 'creditControls.update',
    method: 'PATCH',
    path: '/api/v1/ai/credit-controls',
    sources: ['CC', 'DOCS'],
    body: settingsPatch(DOCUMENTED_SETTINGS),
    success: { status: 200, body: fullObject(controls) },
  },
  {
    id: 'creditControls.get~generated-client',
    method: 'GET',
    path: '/api/v1/ai/credit-controls',
    sources: ['SDK'],
    success: { status: 200, body: fullObject({ ...controls, entityGroupDefaultCredits: credits }) },
    variant: { kind: 'generated-client', note: SDK_NOTE },
  },
  {
    id: 'creditControls.update~generated-client',
    method: 'PATCH',
    path: '/api/v1/ai/credit-controls',
    sources: ['SDK'],
    body: settingsUpdate,
    success: { status: 200, body: fullObject({ ...controls, entityGroupDefaultCredits: credits }) },
    variant: { kind: 'generated-client', note: SDK_NOTE },
  },
  {
    // A read sent as POST (it takes up to 1,000 ids); not in the docs OpenAPI. A server without it
    // answers 404 or 403, and a plan then says usage is not available (src/engine/impacts.ts).
    id: 'creditUsage.users',
    method: 'POST',
    path: '/api/v1/ai/credit-usage/users',
    sources: ['OK', 'SK', 'OK+SK:usage-answer'],
    readOnly: true,
    body: object({ userIds: arrayOf(string(), { minItems: 1, maxItems: 1000, uniqueItems: true }) }, ['userIds']),
    success: {
      status: 200,
      body: object({ users: arrayOf(fullObject({ userId: string(), creditsUsed: number({ minimum: 0 }) })), periodStart: integer({ minimum: 0 }), periodEnd: integer({ minimum: 0 }) }, ['users']),
    },
  },
  ...limitOperations('userCreditLimits', '/api/v1/ai/credit-controls/users', 'userId', 'users', ['CC', 'DOCS']),
  ...limitOperations('userGroupCreditLimits', '/api/v1/ai/credit-controls/user-groups', 'userGroupId', 'userGroups', ['DOCS:user-group-limits']),
  ...limitOperations('entityGroupCreditLimits', '/api/v1/ai/credit-controls/entity-groups', 'entity', 'entityGroups', ['DOCS', 'SDK']),
];
