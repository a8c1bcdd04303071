// Models, their active branches, and their topics: what a routine's model, branch and topic are
// resolved against.
import { arrayOf, boolean, integer, nullable, object, oneOf, pageInfo, string, uuid, type Schema } from './schema.js';
import type { Operation } from './types.js';

const MODEL_KINDS = ['SCHEMA', 'SHARED', 'SHARED_EXTENSION', 'WORKBOOK', 'BRANCH', 'QUERY', 'TOPIC', 'FIELD_PICKER_TOPIC'];

const modelFields: Record<string, Schema> = {
  id: uuid,
  baseModelId: nullable(uuid),
  connectionId: nullable(uuid),
  modelKind: nullable(string()),
  name: nullable(string()),
  createdAt: string(),
  updatedAt: string(),
  deletedAt: nullable(string()),
};

// MO gives active branches as Models; CLI as `{id, name}`. Either fits; a branch's name may be null.
const branch: Schema = { anyOf: [object(modelFields), object({ id: uuid, name: nullable(string()) }, ['id', 'name'])] };

export const modelOperations: readonly Operation[] = [
  {
    id: 'models.list',
    method: 'GET',
    path: '/api/v1/models',
    sources: ['MO', 'DOCS', 'CLI'],
    query: {
      // MO types both as plain strings (CLI: uuid).
      baseModelId: string(),
      connectionId: string(),
      includeDeleted: boolean,
      modelId: string(),
      modelKind: oneOf(...MODEL_KINDS),
      name: string(),
      pageSize: integer({ minimum: 1 }),
      cursor: string(),
      sortDirection: oneOf('asc', 'desc'),
      sortField: oneOf('name', 'modelKind', 'connectionId', 'baseModelId', 'createdAt', 'updatedAt'),
      include: oneOf('activeBranches'),
    },
    success: { status: 200, body: object({ pageInfo, records: arrayOf(object({ ...modelFields, branches: arrayOf(branch) })) }) },
  },
  {
    id: 'models.topics.list',
    method: 'GET',
    path: '/api/v1/models/{modelId}/topic',
    // Not in TO or MO; CLI documents it, and OmniKit lists it among the documented calls.
    sources: ['CLI'],
    params: { modelId: uuid },
    query: { branch_id: uuid },
    success: {
      status: 200,
      body: object(
        {
          success: boolean,
          topics: arrayOf(object({ name: string(), base_view_name: string(), description: string(), group_label: string(), hidden: boolean, label: string() }, ['name', 'base_view_name'])),
        },
        ['success', 'topics'],
      ),
    },
  },
];
