// GET /api/v1/api-keys (Organization Admin): token metadata, never secrets, with the type
// filter, sort by createdAt or name, and cursor pagination.
import type { ApiKeyRecord } from '../../api/types.js';
import { requireOrgAdmin } from '../auth.js';
import type { Route } from '../context.js';
import { badRequest, json } from '../http.js';
import { paginate } from '../pagination.js';
import type { EmulatorState, StoredApiToken } from '../state.js';
import { enumQuery } from '../validate.js';

const TYPES = ['organization', 'personal', 'mcp'] as const;

/** The metadata record of a token (never the token). */
export function toApiKeyRecord(token: StoredApiToken): ApiKeyRecord {
  return {
    id: token.id,
    name: token.name,
    type: token.type,
    enabled: token.enabled,
    createdAt: token.createdAt,
    membershipId: token.type === 'organization' ? null : token.ownerId,
  };
}

/** Every token's record, oldest first. */
export function apiKeyRecords(state: EmulatorState): ApiKeyRecord[] {
  return state.apiTokens.map(toApiKeyRecord).sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

export const apiKeyRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v1/api-keys',
    handler: ({ caller, state, query }) => {
      requireOrgAdmin(caller);
      const type = query.get('type');
      if (type !== null && !(TYPES as readonly string[]).includes(type)) {
        throw badRequest('type', `must be one of ${TYPES.join(', ')}`);
      }
      const sortField = enumQuery(query, 'sortField', ['createdAt', 'name'] as const, 'createdAt');
      const sortDirection = enumQuery(query, 'sortDirection', ['asc', 'desc'] as const, 'desc');
      const records = apiKeyRecords(state).filter((record) => type === null || record.type === type);
      return json(
        paginate(records, query, {
          list: `api-keys:${sortField}`,
          keyOf: (record) => [sortField === 'name' ? record.name.toLowerCase() : record.createdAt, record.id],
          directions: [sortDirection, sortDirection],
        }),
      );
    },
  },
];
