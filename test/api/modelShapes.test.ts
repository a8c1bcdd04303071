// The models list and a model's topics are checked at the boundary like every other response:
// an identity missing or blank is a one-sentence misfit, nullable fields may be absent (read as
// null), branches appear only when asked for, and extra fields pass.
import { describe, expect, it } from 'vitest';
import { checkShape } from '../../src/api/shapes.js';

const PAGE = { hasNextPage: false, nextCursor: null };
const model = (overrides: Record<string, unknown> = {}) => ({
  id: '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30',
  name: 'Sales',
  modelKind: 'SHARED',
  baseModelId: null,
  connectionId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  deletedAt: null,
  ...overrides,
});
const misfit = (result: ReturnType<typeof checkShape>) => (result.ok ? undefined : result.misfit);

describe('the models list', () => {
  it('passes a model with or without branches, reading absent nullable fields as null', () => {
    const { baseModelId: _b, connectionId: _c, deletedAt: _d, ...sparse } = model();
    expect(checkShape('modelList', { records: [sparse, model({ branches: [{ id: 'b1', name: 'forecast-v2' }], extra: true })], pageInfo: PAGE })).toEqual({
      ok: true,
      value: { records: [model(), model({ branches: [{ id: 'b1', name: 'forecast-v2' }], extra: true })], pageInfo: PAGE },
    });
  });

  it('refuses a model without an id, a branch without its id, and branches that are no list', () => {
    expect(misfit(checkShape('modelList', { records: [model({ id: '' })], pageInfo: PAGE }))).toBe('record 1 has a blank id');
    expect(misfit(checkShape('modelList', { records: [model({ branches: [{ name: 'forecast-v2' }] })], pageInfo: PAGE }))).toBe('record 1: branches.0 has no id');
    expect(misfit(checkShape('modelList', { records: [model({ branches: 'forecast-v2' })], pageInfo: PAGE }))).toBe('record 1: branches is a string, not a list');
  });
});

describe('the topics of a model', () => {
  it('passes topics by name with whatever else they carry', () => {
    const body = { success: true, topics: [{ name: 'orders', base_view_name: 'orders', label: 'Orders', hidden: false }] };
    expect(checkShape('modelTopics', body)).toEqual({ ok: true, value: body });
  });

  it('refuses a topic without a name and an answer without topics', () => {
    expect(misfit(checkShape('modelTopics', { success: true, topics: [{ label: 'Orders' }] }))).toBe('topic 1 has no name');
    expect(misfit(checkShape('modelTopics', { success: true }))).toBe('the response has no topics');
  });
});
