// GET /api/v1/api-keys: metadata only (never a token), type filter, sort and pagination, and
// Organization Admin only.
import { describe, expect, it } from 'vitest';
import { collectPages, expectDetail, expectError, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
const KEYS = '/api/v1/api-keys';

describe('GET /api/v1/api-keys', () => {
  it('lists token metadata newest first, never a token value', async () => {
    const response = await fixture.api.get(KEYS);
    expect(response.status).toBe(200);
    expect(response.body.records.map((key: { name: string }) => key.name)).toEqual([
      "Grace's personal token",
      "Ada's personal token",
      'Organization member key',
      'Organization admin key',
    ]);
    expect(response.body.records[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Grace's personal token",
      type: 'personal',
      enabled: true,
      createdAt: '2025-01-05T10:00:00.000Z',
      membershipId: fixture.emulator.state.userId('grace@acme.example'),
    });
    expect(response.body.pageInfo).toEqual({ hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 4 });
    expect(JSON.stringify(response.body)).not.toMatch(/demo-.*-token/);
  });

  it('filters by type; organization keys have no membershipId', async () => {
    const response = await fixture.api.get(KEYS, { type: 'organization' });
    expect(response.body.records).toEqual([
      expect.objectContaining({ name: 'Organization member key', membershipId: null }),
      expect.objectContaining({ name: 'Organization admin key', membershipId: null }),
    ]);
    expect((await fixture.api.get(KEYS, { type: 'mcp' })).body.records).toEqual([]);
  });

  it('sorts by name in either direction', async () => {
    const ascending = await fixture.api.get(KEYS, { sortField: 'name', sortDirection: 'asc' });
    expect(ascending.body.records.map((key: { name: string }) => key.name)).toEqual([
      "Ada's personal token",
      "Grace's personal token",
      'Organization admin key',
      'Organization member key',
    ]);
  });

  it('pages with pageSize and cursor', async () => {
    const { records, pages } = await collectPages(fixture.api, KEYS, { pageSize: 3, sortField: 'name' });
    expect(pages).toBe(2);
    expect(records).toHaveLength(4);
  });

  it.each([
    ['an unknown type', { type: 'service' }, 'Bad Request: type: must be one of organization, personal, mcp'],
    ['an unknown sort field', { sortField: 'type' }, 'Bad Request: sortField: must be one of createdAt, name'],
    ['an unknown sort direction', { sortDirection: 'up' }, 'Bad Request: sortDirection: must be one of asc, desc'],
  ])('answers 400 for %s', async (_what, query, detail) => {
    expectDetail(await fixture.api.get(KEYS, query), 400, detail);
  });

  it('refuses anyone but an Organization Admin', async () => {
    expectError(await fixture.api.as(TOKENS.orgMember).get(KEYS), 403, 'Insufficient permissions');
    expect((await fixture.api.as(TOKENS.adaPersonal).get(KEYS)).status).toBe(200);
  });
});
