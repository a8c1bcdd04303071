// GET /api/v1/models (filters `name`, `modelId`, `modelKind`, `include=activeBranches`, cursor
// pagination) and GET /api/v1/models/{modelId}/topic. Only models the caller may use are listed
// (as whoami reports them). What `name=` matches is OPEN (gaps.md): the exact name, or
// (`modelNameFilter: contains`) any name containing it in any case, so clients compare exactly.
import type { ModelRecord, ModelTopic } from '../../api/types.js';
import type { Route } from '../context.js';
import { badRequest, json, notFound } from '../http.js';
import { paginate } from '../pagination.js';
import { modelRoleOf, type EmulatorState, type StoredModel } from '../state.js';
import type { Caller } from '../auth.js';
import type { ModelNameFilter } from '../profiles.js';

const MODEL_KINDS = ['SCHEMA', 'SHARED', 'SHARED_EXTENSION', 'WORKBOOK', 'BRANCH', 'QUERY', 'TOPIC', 'FIELD_PICKER_TOPIC'];
/** When the emulator's models were made: the wire form has timestamps, the seed none. */
const SEEDED_AT = '2025-01-01T00:00:00.000Z';

function accessible(state: EmulatorState, caller: Caller): StoredModel[] {
  return state.models.filter((model) => modelRoleOf(model, caller.creator.id) !== null);
}

function nameMatches(name: string, filter: string, meaning: ModelNameFilter): boolean {
  return meaning === 'exact' ? name === filter : name.toLowerCase().includes(filter.toLowerCase());
}

function toRecord(model: StoredModel, branches: boolean): ModelRecord {
  return {
    id: model.id,
    name: model.name,
    modelKind: model.modelKind ?? 'SHARED',
    baseModelId: null,
    connectionId: null,
    createdAt: model.createdAt ?? SEEDED_AT,
    updatedAt: model.createdAt ?? SEEDED_AT,
    deletedAt: null,
    ...(branches ? { branches: model.branches.map((branch) => ({ ...branch })) } : {}),
  };
}

function toTopic(name: string): ModelTopic & { base_view_name: string } {
  return { name, base_view_name: name, label: name.replace(/[_-]+/g, ' ').replace(/^./, (first) => first.toUpperCase()), hidden: false };
}

export const modelRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v1/models',
    handler: ({ caller, state, query, knobs }) => {
      const include = (query.get('include') ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
      const unknownInclude = include.find((part) => part !== 'activeBranches');
      if (unknownInclude !== undefined) throw badRequest('include', `unknown value \`${unknownInclude}\` (known: activeBranches)`);
      const kind = query.get('modelKind');
      if (kind !== null && !MODEL_KINDS.includes(kind)) throw badRequest('modelKind', `must be one of ${MODEL_KINDS.join(', ')}`);
      const name = query.get('name');
      const modelId = query.get('modelId');
      const models = accessible(state, caller).filter(
        (model) =>
          (kind === null || (model.modelKind ?? 'SHARED') === kind) &&
          (modelId === null || model.id === modelId) &&
          (name === null || nameMatches(model.name, name, knobs.modelNameFilter)),
      );
      const page = paginate(models, query, { list: 'models', keyOf: (model) => [model.name, model.id], directions: ['asc', 'asc'] });
      return json({ records: page.records.map((model) => toRecord(model, include.includes('activeBranches'))), pageInfo: page.pageInfo });
    },
  },
  {
    method: 'GET',
    template: '/api/v1/models/{modelId}/topic',
    handler: ({ caller, state, params, query }) => {
      const model = accessible(state, caller).find((candidate) => candidate.id === params.modelId);
      if (model === undefined) throw notFound('Model not found');
      const branchId = query.get('branch_id');
      if (branchId !== null && !model.branches.some((branch) => branch.id === branchId)) throw notFound('Branch not found');
      return json({ success: true, topics: model.topics.map(toTopic) });
    },
  },
];
