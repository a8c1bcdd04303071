// The two OPEN points about labels (gaps.md, "Labels"), both ways: what `labels=a,b` means on the
// documents list (ALL or ANY of them), and what DELETE of a label applied to documents does
// (409, or delete it and take it off every document).
import { describe, expect, it } from 'vitest';
import { expectError, TOKENS, useEmulator } from './helpers.js';

const DOCUMENTS = '/api/v1/documents';
const all = useEmulator({ documentLabelsFilter: 'all', labelDeleteInUse: 'conflict' });
const any = useEmulator({ documentLabelsFilter: 'any', labelDeleteInUse: 'unlink' });

async function identifiers(fixture: typeof all, labels: string): Promise<string[]> {
  const response = await fixture.api.get(DOCUMENTS, { labels, pageSize: 100 });
  expect(response.status).toBe(200);
  return response.body.records.map((document: { identifier: string }) => document.identifier);
}

describe('documents labels=a,b (documentLabelsFilter)', () => {
  it('with all, keeps documents carrying every listed label', async () => {
    expect(await identifiers(all, 'finance,legacy-kpis')).toEqual(['9d8e7f60']);
    expect(await identifiers(all, 'finance,marketing')).toEqual([]);
    expect(await identifiers(all, 'finance,no-such-label')).toEqual([]);
  });

  it('with any, keeps documents carrying at least one of them', async () => {
    expect(await identifiers(any, 'finance,legacy-kpis')).toEqual(['9d8e7f60', '8f2e1d4c']);
    expect(await identifiers(any, 'FINANCE,marketing')).toEqual(['9d8e7f60', '5e4d3c2b', '8f2e1d4c']);
    expect(await identifiers(any, 'finance,no-such-label')).toEqual(['9d8e7f60', '8f2e1d4c']);
    expect(await identifiers(any, 'no-such-label')).toEqual([]);
  });

  it('means the same either way for one label, or none', async () => {
    for (const fixture of [all, any]) {
      expect(await identifiers(fixture, 'finance')).toEqual(['9d8e7f60', '8f2e1d4c']);
      expect(await identifiers(fixture, '')).toHaveLength(100);
    }
  });
});

describe('DELETE of a label applied to documents (labelDeleteInUse)', () => {
  it('with conflict, answers 409 and keeps the label on its documents', async () => {
    expectError(await all.api.delete('/api/v1/labels/draft'), 409, 'Cannot delete label that is applied to documents');
    expect(all.emulator.state.labels().map((label) => label.name)).toContain('draft');
    expect(all.emulator.state.documentLabels('1b2c3d4e')).toEqual(['draft']);
  });

  it('with unlink, deletes it and takes it off every document (204)', async () => {
    const response = await any.api.delete('/api/v1/labels/legacy-kpis');
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    expect(any.emulator.state.labels().map((label) => label.name)).not.toContain('legacy-kpis');
    expect(any.emulator.state.documentLabels('9d8e7f60')).toEqual(['finance']);
    const listed = await any.api.get(DOCUMENTS, { include: 'labels', labels: 'finance' });
    expect(listed.body.records.map((document: { labels: string[] }) => document.labels)).toEqual([['finance'], ['finance']]);
    expect((await any.api.get('/api/v1/labels/legacy-kpis')).status).toBe(404);
  });

  it('deletes an unused label with 204 either way', async () => {
    for (const fixture of [all, any]) expect((await fixture.api.delete('/api/v1/labels/obsolete')).status).toBe(204);
  });

  it('still refuses a member deleting a verified label in use, either way', async () => {
    for (const fixture of [all, any]) expect((await fixture.api.as(TOKENS.orgMember).delete('/api/v1/labels/finance')).status).toBe(403);
  });
});
