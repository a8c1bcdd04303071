// whoami, SCIM users and groups, and API keys, as the vendor documents them.
import type { Static } from '../../typedSchema.js';
import { arrayOf, boolean, fullObject, integer, mapOf, nullable, object, oneOf, pageInfo, scimList, string, uuid, type Schema } from './schema.js';
import type { Operation } from './types.js';

/** The scope of an API key (whoami's `keyScope`). */
export const keyScope = oneOf('user', 'organization');
/** The organization roles the documents name (whoami's `orgRole`). */
const orgRole = oneOf('MEMBER', 'ORG_ADMIN');
/** The types of API key (`GET /api/v1/api-keys`). */
export const apiKeyType = oneOf('organization', 'personal', 'mcp');
export type KeyScope = Static<typeof keyScope>;
export type OrgRole = Static<typeof orgRole>;
export type ApiKeyType = Static<typeof apiKeyType>;

/** The permissions whoami lists per model (WhoamiModelRole.permissions). */
export const MODEL_PERMISSIONS = [
  'QUERY_FULL_MODEL', 'QUERY_SQL', 'VIEW_SQL', 'QUERY_TOPICS', 'RUN_CONTENT_QUERIES', 'DOWNLOAD_CONTENT_QUERY', 'UPLOAD_CSV',
  'SCHEDULE', 'SAVE_SPREADSHEETS', 'USE_AI', 'USE_WORKBOOKS', 'UPDATE', 'UPDATE_RESTRICTED',
] as const;

const whoamiModelRole = fullObject({
  baseRole: string(),
  // Organizations name roles as they like: any text.
  roleName: string(),
  connectionId: string(),
  permissions: arrayOf(oneOf(...MODEL_PERMISSIONS)),
});

function whoamiBody(user: Schema, required: readonly ('keyScope' | 'orgRole' | 'rolesByModel' | 'rolesByModelTruncated' | 'user')[]): Schema {
  return object({ keyScope, orgRole, rolesByModel: mapOf(whoamiModelRole), rolesByModelTruncated: boolean, user }, required);
}

const scimUser = object({
  id: string(),
  userName: string(),
  displayName: string(),
  active: boolean,
  emails: arrayOf(object({ primary: boolean, value: string() })),
  groups: arrayOf(object({ display: string(), value: string() })),
  meta: object({ resourceType: string(), created: string(), lastModified: string() }),
  schemas: arrayOf(string()),
  'urn:omni:params:1.0:UserAttribute': { type: 'object' },
  'urn:omni:params:scim:schemas:extension:user:2.0': object({ lastLogin: nullable(string()) }),
});

const scimGroup = object({
  id: string(),
  displayName: string(),
  members: arrayOf(object({ value: string(), display: string() })),
  meta: object({ resourceType: string(), created: string(), lastModified: string() }),
  schemas: arrayOf(string()),
});

/** `attr op "value"`, the attribute and operator in any case. */
const userNameFilter = string({ pattern: '^\\s*[Uu][Ss][Ee][Rr][Nn][Aa][Mm][Ee]\\s+([Ee][Qq]|[Cc][Oo])\\s+"(?:[^"\\\\]|\\\\.)*"\\s*$' });

const apiKey = object({
  id: uuid,
  name: string(),
  type: apiKeyType,
  enabled: boolean,
  createdAt: string(),
  membershipId: nullable(uuid),
});

export const identityOperations: readonly Operation[] = [
  {
    id: 'whoami.get',
    method: 'GET',
    path: '/api/v1/whoami',
    sources: ['WH', 'DOCS'],
    query: { modelId: string() },
    success: { status: 200, body: whoamiBody(fullObject({ id: string(), membershipId: string() }), ['keyScope', 'orgRole', 'rolesByModel', 'user']) },
  },
  {
    id: 'whoami.get~guess',
    method: 'GET',
    path: '/api/v1/whoami',
    sources: ['WH'],
    query: { modelId: string() },
    success: {
      status: 200,
      body: whoamiBody(nullable(fullObject({ id: nullable(string()), membershipId: nullable(string()) })), ['keyScope', 'orgRole', 'rolesByModel']),
    },
    variant: { kind: 'guess', note: 'gaps.md (OPEN): an organization key tied to no user may get no user, null, or a user whose ids are null, though WH requires a user' },
  },
  {
    id: 'scim.users.list',
    method: 'GET',
    path: '/api/scim/v2/users',
    sources: ['US', 'CLI'],
    query: { filter: userNameFilter, count: integer({ minimum: 0 }), startIndex: integer({ minimum: 1 }) },
    success: { status: 200, body: scimList(scimUser) },
  },
  {
    id: 'scim.users.get',
    method: 'GET',
    path: '/api/scim/v2/users/{id}',
    sources: ['US', 'CLI', 'DOCS'],
    params: { id: string() },
    success: { status: 200, body: scimUser },
  },
  {
    id: 'scim.groups.list',
    method: 'GET',
    path: '/api/scim/v2/groups',
    sources: ['UG'],
    query: { count: integer({ minimum: 0 }), startIndex: integer({ minimum: 1 }) },
    success: { status: 200, body: scimList(scimGroup) },
  },
  {
    id: 'scim.groups.list~cli-openapi',
    method: 'GET',
    path: '/api/scim/v2/groups',
    sources: ['CLI'],
    query: { count: integer({ minimum: 0 }), startIndex: integer({ minimum: 1 }), filter: string(), excludedAttributes: oneOf('members') },
    success: { status: 200, body: scimList(scimGroup) },
    variant: { kind: 'cli-openapi', note: 'CLI documents `filter` (displayName eq) and `excludedAttributes` on the groups list; UG documents neither' },
  },
  {
    id: 'apiKeys.list',
    method: 'GET',
    path: '/api/v1/api-keys',
    sources: ['AK', 'CLI'],
    query: {
      type: apiKeyType,
      cursor: uuid,
      pageSize: integer({ minimum: 1, maximum: 100 }),
      sortField: oneOf('createdAt', 'name'),
      sortDirection: oneOf('asc', 'desc'),
    },
    // AK requires neither key of the list (CLI requires both).
    success: { status: 200, body: object({ pageInfo, records: arrayOf(apiKey) }) },
  },
];
