// Documents and their labels: the list (include=labels, labels= filter requiring ALL listed
// labels, cursor pagination over 126 documents) and PUT/DELETE/PATCH of document labels.
import { describe, expect, it } from 'vitest';
import { collectPages, expectDetail, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
const DOCUMENTS = '/api/v1/documents';

describe('GET /api/v1/documents', () => {
  it('returns document records without labels unless asked', async () => {
    const response = await fixture.api.get(DOCUMENTS, { pageSize: 1 });
    expect(response.status).toBe(200);
    expect(response.body.records[0]).toEqual({
      identifier: '9d8e7f60',
      name: 'Board KPIs',
      connectionId: expect.any(String),
      deleted: false,
      description: null,
      folder: null,
      hasDashboard: true,
      owner: { id: fixture.emulator.state.userId('ada@acme.example'), name: 'Ada Lovelace' },
      scope: 'organization',
      type: 'document',
      updatedAt: expect.any(String),
      url: `${fixture.emulator.url}/dashboards/9d8e7f60`,
    });
    expect(response.body.pageInfo).toMatchObject({ hasNextPage: true, pageSize: 1, totalRecords: 126 });
  });

  it('includes label names with include=labels', async () => {
    const response = await fixture.api.get(DOCUMENTS, { include: 'labels', labels: 'finance' });
    expect(response.body.records.map((d: { identifier: string; labels: string[] }) => [d.identifier, d.labels])).toEqual([
      ['9d8e7f60', ['finance', 'legacy-kpis']],
      ['8f2e1d4c', ['finance']],
    ]);
  });

  it('filters to documents carrying ALL the listed labels, names compared case-insensitively', async () => {
    const both = await fixture.api.get(DOCUMENTS, { labels: 'FINANCE,legacy-kpis' });
    expect(both.body.records.map((d: { identifier: string }) => d.identifier)).toEqual(['9d8e7f60']);
    const unknown = await fixture.api.get(DOCUMENTS, { labels: 'finance,nope' });
    expect(unknown.body).toEqual({ records: [], pageInfo: { hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 0 } });
  });

  it('pages through all 126 documents with pageSize 100, the last page short', async () => {
    const first = await fixture.api.get(DOCUMENTS, { pageSize: 100 });
    expect(first.body.records).toHaveLength(100);
    const last = await fixture.api.get(DOCUMENTS, { pageSize: 100, cursor: first.body.pageInfo.nextCursor });
    expect(last.body.records).toHaveLength(26);
    expect(last.body.pageInfo).toEqual({ hasNextPage: false, nextCursor: null, pageSize: 100, totalRecords: 126 });
  });

  it('ends exactly on a page boundary without an empty extra page (126 = 2 x 63)', async () => {
    const { records, pages } = await collectPages(fixture.api, DOCUMENTS, { pageSize: 63 });
    expect(pages).toBe(2);
    expect(new Set(records.map((d) => d.identifier)).size).toBe(126);
  });

  it('uses a default page size of 20', async () => {
    const response = await fixture.api.get(DOCUMENTS);
    expect(response.body.records).toHaveLength(20);
    expect(response.body.pageInfo.pageSize).toBe(20);
  });

  it.each([
    ['an unknown include', { include: 'labels,owners' }, 'Bad Request: include: unknown value `owners` (allowed: _count, labels, includeDeleted, onlyFavorites, onlySharedWithMe)'],
    ['an unsupported include', { include: 'onlyFavorites' }, 'Bad Request: include: `onlyFavorites` is not supported by the emulator'],
    ['an unknown sort field', { sortField: 'size' }, 'Bad Request: sortField: must be one of name, favorites, updatedAt, visits'],
  ])('rejects %s with 400', async (_what, query, detail) => {
    expectDetail(await fixture.api.get(DOCUMENTS, query), 400, detail);
  });

  it('sorts by name descending when asked', async () => {
    const response = await fixture.api.get(DOCUMENTS, { sortDirection: 'desc', pageSize: 2 });
    expect(response.body.records.map((d: { name: string }) => d.name)).toEqual(['Scratchpad (old)', 'Revenue overview']);
  });
});

describe('PUT and DELETE /api/v1/documents/{identifier}/labels/{labelName}', () => {
  it('applies a label (204) and does nothing when it is already applied', async () => {
    expect((await fixture.api.put(`${DOCUMENTS}/3a9b7c6d/labels/Finance`)).status).toBe(204);
    expect((await fixture.api.as(TOKENS.gracePersonal).put(`${DOCUMENTS}/3a9b7c6d/labels/finance`)).status).toBe(204);
    expect(fixture.emulator.state.documentLabels('3a9b7c6d')).toEqual(['finance']);
  });

  it('removes a label (204)', async () => {
    expect((await fixture.api.delete(`${DOCUMENTS}/9d8e7f60/labels/legacy-kpis`)).status).toBe(204);
    expect(fixture.emulator.state.documentLabels('9d8e7f60')).toEqual(['finance']);
  });

  it('answers 404 for an unknown document or label', async () => {
    expectDetail(await fixture.api.put(`${DOCUMENTS}/nope/labels/finance`), 404, 'Document not found');
    expectDetail(await fixture.api.put(`${DOCUMENTS}/3a9b7c6d/labels/nope`), 404, 'Label not found');
    expectDetail(await fixture.api.delete(`${DOCUMENTS}/nope/labels/finance`), 404, 'Document not found');
    expectDetail(await fixture.api.delete(`${DOCUMENTS}/3a9b7c6d/labels/nope`), 404, 'Label not found');
  });

  it('answers 404 to removing a label the document does not carry: the delete is not idempotent, as documented', async () => {
    expectDetail(await fixture.api.delete(`${DOCUMENTS}/3a9b7c6d/labels/finance`), 404, 'Label "finance" not found on this document');
  });
});

describe('PATCH /api/v1/documents/{identifier}/labels', () => {
  it('answers 404 naming the labels to remove that the document does not carry, and changes nothing', async () => {
    expectDetail(await fixture.api.patch(`${DOCUMENTS}/9d8e7f60/labels`, { add: ['draft'], remove: ['finance', 'marketing', 'draft-x'] }), 404, 'Label not found: draft-x');
    expectDetail(await fixture.api.patch(`${DOCUMENTS}/9d8e7f60/labels`, { add: ['draft'], remove: ['finance', 'marketing'] }), 404, 'Labels not found on this document: "marketing"');
    expect(fixture.emulator.state.documentLabels('9d8e7f60')).toEqual(['finance', 'legacy-kpis']);
  });

  it('adds and removes in one request and answers the resulting label names', async () => {
    const response = await fixture.api.patch(`${DOCUMENTS}/9d8e7f60/labels`, { add: ['draft', 'finance'], remove: ['legacy-kpis'] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ labels: ['draft', 'finance'] });
  });

  it('accepts only add or only remove', async () => {
    expect((await fixture.api.patch(`${DOCUMENTS}/1b2c3d4e/labels`, { remove: ['draft'] })).body).toEqual({ labels: [] });
    expect((await fixture.api.patch(`${DOCUMENTS}/1b2c3d4e/labels`, { add: ['obsolete'] })).body).toEqual({ labels: ['obsolete'] });
  });

  it('answers 400 when both lists are empty or missing', async () => {
    const message = 'Bad Request: At least one label must be specified in add or remove';
    expectDetail(await fixture.api.patch(`${DOCUMENTS}/9d8e7f60/labels`, { add: [], remove: [] }), 400, message);
    expectDetail(await fixture.api.patch(`${DOCUMENTS}/9d8e7f60/labels`, {}), 400, message);
  });

  it.each([
    ['a list that is not an array', { add: 'draft' }, 'Bad Request: add: must be an array of strings'],
    ['a label in both lists', { add: ['draft'], remove: ['DRAFT'] }, 'Bad Request: Labels cannot appear in both add and remove arrays'],
    // An undocumented key meets the vendor's generic refusal before the handler's own checks.
    ['an unknown field', { add: ['draft'], replace: true }, "Bad Request: formErrors: Unrecognized key(s) in object: 'replace'"],
  ])('answers 400 for %s', async (_what, body, detail) => {
    expectDetail(await fixture.api.patch(`${DOCUMENTS}/9d8e7f60/labels`, body), 400, detail);
  });

  it('answers 404 for an unknown document or label and changes nothing', async () => {
    expectDetail(await fixture.api.patch(`${DOCUMENTS}/nope/labels`, { add: ['draft'] }), 404, 'Document not found');
    expectDetail(await fixture.api.patch(`${DOCUMENTS}/9d8e7f60/labels`, { add: ['draft', 'nope'] }), 404, 'Label not found: nope');
    expect(fixture.emulator.state.documentLabels('9d8e7f60')).toEqual(['finance', 'legacy-kpis']);
  });
});
