// GET /api/v1/models and GET /api/v1/models/{modelId}/topic as the emulator serves them: the
// filters (name, modelId, modelKind), active branches on request, cursor pages, and the topics of
// a model the caller may use. What `name=` matches is OPEN (gaps.md): exactly in the vendor
// profile, any name containing it in any case in the other.
import { describe, expect, it } from 'vitest';
import { checkShape } from '../../src/api/shapes.js';
import { datasetSeed } from '../../src/emulator/index.js';
import { expectDetail, useEmulator } from './helpers.js';

const seed = datasetSeed('demo');
const sales = seed.models!.find((model) => model.name === 'Sales')!;
const marketing = seed.models!.find((model) => model.name === 'Marketing')!;
const MODELS = '/api/v1/models';

describe('the models list', () => {
  const vendor = useEmulator({ profile: 'vendor' });
  const other = useEmulator({ profile: 'other' });

  it('lists every model the caller may use, by name, in the shape steward reads', async () => {
    const response = await vendor.api.get(MODELS);
    expect(response.status).toBe(200);
    expect(checkShape('modelList', response.body).ok).toBe(true);
    const body = response.body as { records: Record<string, unknown>[]; pageInfo: { totalRecords: number } };
    expect(body.records.map((model) => model.name)).toEqual(['Marketing', 'Sales']);
    expect(body.records[1]).toEqual({
      id: sales.id,
      name: 'Sales',
      modelKind: 'SHARED',
      baseModelId: null,
      connectionId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      deletedAt: null,
    });
    expect(body.pageInfo.totalRecords).toBe(2);
  });

  it('includes active branches only when asked', async () => {
    const body = (await vendor.api.get(MODELS, { name: 'Sales', include: 'activeBranches' })).body as { records: { branches?: unknown }[] };
    expect(body.records.map((model) => model.branches)).toEqual([sales.branches]);
    expectDetail(await vendor.api.get(MODELS, { include: 'everything' }), 400, 'Bad Request: include: unknown value `everything` (known: activeBranches)');
  });

  it('filters by model id and kind', async () => {
    const byId = (await vendor.api.get(MODELS, { modelId: marketing.id })).body as { records: { name: string }[] };
    expect(byId.records.map((model) => model.name)).toEqual(['Marketing']);
    expect(((await vendor.api.get(MODELS, { modelKind: 'SCHEMA' })).body as { records: unknown[] }).records).toEqual([]);
    expectDetail(await vendor.api.get(MODELS, { modelKind: 'TABLE' }), 400, /^Bad Request: modelKind: must be one of SCHEMA, SHARED/);
  });

  it('matches name= exactly in the vendor profile, and names containing it in any case in the other', async () => {
    const names = async (api: typeof vendor.api, name: string) => ((await api.get(MODELS, { name })).body as { records: { name: string }[] }).records.map((model) => model.name);
    expect(await names(vendor.api, 'Sales')).toEqual(['Sales']);
    expect(await names(vendor.api, 'sale')).toEqual([]);
    expect(await names(other.api, 'sale')).toEqual(['Sales']);
    expect(await names(other.api, 'E')).toEqual(['Marketing', 'Sales']);
  });

  it('pages with a cursor', async () => {
    const first = (await vendor.api.get(MODELS, { pageSize: 1 })).body as { records: { name: string }[]; pageInfo: { hasNextPage: boolean; nextCursor: string } };
    expect(first.records.map((model) => model.name)).toEqual(['Marketing']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await vendor.api.get(MODELS, { pageSize: 1, cursor: first.pageInfo.nextCursor })).body as { records: { name: string }[]; pageInfo: { hasNextPage: boolean } };
    expect(second.records.map((model) => model.name)).toEqual(['Sales']);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

describe('the topics of a model', () => {
  const emulator = useEmulator({ profile: 'vendor' });

  it('lists the topics of a model the caller may use', async () => {
    const response = await emulator.api.get(`${MODELS}/${sales.id}/topic`);
    expect(response.status).toBe(200);
    expect(checkShape('modelTopics', response.body).ok).toBe(true);
    expect((response.body as { topics: { name: string }[] }).topics.map((topic) => topic.name)).toEqual(sales.topics);
    expect((await emulator.api.get(`${MODELS}/${sales.id}/topic`, { branch_id: sales.branches![0]!.id })).status).toBe(200);
  });

  it('answers 404 for a model that is not there, or a branch it does not have', async () => {
    expect((await emulator.api.get(`${MODELS}/00000000-0000-4000-8000-000000000000/topic`)).status).toBe(404);
    expect((await emulator.api.get(`${MODELS}/${sales.id}/topic`, { branch_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });
});
