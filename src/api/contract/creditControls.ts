// AI credit controls: the organization's thresholds and defaults, and the individual limits of
// users, user groups and embed entity groups.
import { arrayOf, boolean, cursorList, fullObject, integer, nullable, number, object, string, type Schema } from './schema.js';
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

function settingsPatch(fields: readonly string[]): Schema {
  return { ...object(Object.fromEntries(fields.map((field) => [field, credits]))), minProperties: 1 };
}

/** The list and bulk PATCH of one kind of individual limit, keyed by `key`, wrapped in `wrapper`. */
function limitOperations(kind: string, path: string, key: string, wrapper: string, sources: readonly string[]): Operation[] {
  const entry: Schema = object({ [key]: string(), creditLimit: credits, useDefaultLimit: { type: 'boolean', enum: [true] } }, [key]);
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
      body: object({ [wrapper]: arrayOf(entry, { minItems: 1, maxItems: 1000 }) }, [wrapper]),
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
    body: settingsPatch(['downgradeCredits', 'shutoffCredits', 'userDefaultCredits']),
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
    body: settingsPatch(['downgradeCredits', 'shutoffCredits', 'userDefaultCredits', 'entityGroupDefaultCredits']),
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
