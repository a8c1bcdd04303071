// Labels: list, create, read, update/rename, delete, with case-insensitive names, 2..25
// characters, 409 on a taken name, 403 for non-admins setting verified/homepage, and 409 when
// deleting a label still applied to documents.
import { describe, expect, it } from 'vitest';
import { expectDetail, expectError, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
const LABELS = '/api/v1/labels';

describe('GET /api/v1/labels', () => {
  it('lists every label ordered by name with its usage count: the documents and folders carrying it', async () => {
    const response = await fixture.api.get(LABELS);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      labels: [
        // draft: a document and the sandbox folder; finance: two documents and the finance folder.
        { name: 'draft', color: null, description: null, homepage: false, verified: false, usage_count: 2 },
        { name: 'finance', color: '#0366d6', description: 'Finance-owned content', homepage: true, verified: true, usage_count: 3 },
        { name: 'legacy-kpis', color: '#6f42c1', description: 'KPIs shown to the board', homepage: false, verified: false, usage_count: 2 },
        { name: 'marketing', color: '#d73a4a', description: null, homepage: false, verified: false, usage_count: 1 },
        { name: 'obsolete', color: '#cccccc', description: 'No longer used', homepage: false, verified: false, usage_count: 0 },
      ],
    });
  });
});

describe('GET /api/v1/labels/{name}', () => {
  it('finds a label whatever the case of the name', async () => {
    const response = await fixture.api.get(`${LABELS}/FINANCE`);
    expect(response.body).toMatchObject({ name: 'finance', verified: true, usage_count: 3 });
  });

  it('answers 404 for an unknown label', async () => {
    expectDetail(await fixture.api.get(`${LABELS}/nope`), 404, 'Label not found');
  });
});

describe('POST /api/v1/labels', () => {
  it('creates a label (201) with defaults for the fields not sent', async () => {
    const response = await fixture.api.as(TOKENS.gracePersonal).post(LABELS, { name: 'Quarterly', color: '#123' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ name: 'Quarterly', color: '#123', description: null, homepage: false, verified: false, usage_count: 0 });
  });

  it('lets an admin create a verified homepage label', async () => {
    const response = await fixture.api.post(LABELS, { name: 'certified', verified: true, homepage: true });
    expect(response.body).toMatchObject({ verified: true, homepage: true });
  });

  it('answers 409 when the name is taken in any case', async () => {
    expectError(await fixture.api.post(LABELS, { name: 'Finance' }), 409, 'Label with this name already exists');
  });

  it.each([
    ['a one-character name', { name: 'x' }, 'Bad Request: name: must be 2 to 25 characters long'],
    ['a 26-character name', { name: 'x'.repeat(26) }, 'Bad Request: name: must be 2 to 25 characters long'],
    ['no name', { color: '#fff' }, 'Bad Request: name: is required'],
    ['a name with surrounding spaces', { name: ' spaced ' }, 'Bad Request: name: must not start or end with whitespace'],
    ['a colour that is not hex', { name: 'ok', color: 'blue' }, 'Bad Request: color: must be a hex colour like #0366d6'],
    ['a description over 500 characters', { name: 'ok', description: 'd'.repeat(501) }, 'Bad Request: description: must be 0 to 500 characters long'],
    ['verified that is not a boolean', { name: 'ok', verified: 'yes' }, 'Bad Request: verified: must be true or false'],
    // usage_count is answered, not sent: an undocumented request key, refused by the vendor's generic screen.
    ['an unknown field', { name: 'ok', usage_count: 3 }, "Bad Request: formErrors: Unrecognized key(s) in object: 'usage_count'"],
  ])('rejects %s with 400', async (_what, body, detail) => {
    expectDetail(await fixture.api.post(LABELS, body), 400, detail);
  });

  it('accepts names of exactly 2 and 25 characters', async () => {
    expect((await fixture.api.post(LABELS, { name: 'ab' })).status).toBe(201);
    expect((await fixture.api.post(LABELS, { name: 'y'.repeat(25) })).status).toBe(201);
  });

  it('counts characters, not UTF-16 units: an emoji is one', async () => {
    expect((await fixture.api.post(LABELS, { name: '😀'.repeat(13), description: '😀'.repeat(500) })).status).toBe(201);
    expectDetail(await fixture.api.post(LABELS, { name: '😀' }), 400, 'Bad Request: name: must be 2 to 25 characters long');
  });

  it('answers 403 when a non-admin sets verified or homepage', async () => {
    const message = 'Permission denied - cannot create verified/homepage labels without admin permissions';
    expectError(await fixture.api.as(TOKENS.gracePersonal).post(LABELS, { name: 'mine', verified: true }), 403, message);
    expectError(await fixture.api.as(TOKENS.orgMember).post(LABELS, { name: 'mine', homepage: true }), 403, message);
    const grace = fixture.emulator.state.userId('grace@acme.example');
    expectError(await fixture.api.post(LABELS, { name: 'mine', verified: true }, { userId: grace }), 403, message);
  });
});

describe('PUT /api/v1/labels/{name}', () => {
  it('updates any subset of fields', async () => {
    const response = await fixture.api.put(`${LABELS}/marketing`, { description: 'Campaign material', color: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ name: 'marketing', color: null, description: 'Campaign material', homepage: false, verified: false, usage_count: 1 });
  });

  it('renames, and the documents and folders keep the label under its new name', async () => {
    const response = await fixture.api.put(`${LABELS}/legacy-kpis`, { name: 'board-kpis' });
    expect(response.body).toMatchObject({ name: 'board-kpis', usage_count: 2 });
    expect(fixture.emulator.state.documentLabels('9d8e7f60')).toEqual(['board-kpis', 'finance']);
    expect(fixture.emulator.state.folderLabels('finance/board-packs')).toEqual(['board-kpis']);
    expectDetail(await fixture.api.get(`${LABELS}/legacy-kpis`), 404, 'Label not found');
  });

  it('allows changing only the case of a name', async () => {
    expect((await fixture.api.put(`${LABELS}/draft`, { name: 'Draft' })).body.name).toBe('Draft');
  });

  it('answers 409 when the new name belongs to another label', async () => {
    expectError(await fixture.api.put(`${LABELS}/draft`, { name: 'OBSOLETE' }), 409, 'Label with new name already exists');
  });

  it('answers 403 when a non-admin changes verified or homepage, but allows other changes', async () => {
    const member = fixture.api.as(TOKENS.gracePersonal);
    expectError(
      await member.put(`${LABELS}/marketing`, { verified: true }),
      403,
      'Permission denied - cannot modify verified/homepage labels without admin permissions',
    );
    expect((await member.put(`${LABELS}/finance`, { description: 'Finance', verified: true })).status).toBe(200);
  });

  it('answers 404 for an unknown label and 400 for an invalid field', async () => {
    expectDetail(await fixture.api.put(`${LABELS}/nope`, { color: '#fff' }), 404, 'Label not found');
    expectDetail(await fixture.api.put(`${LABELS}/draft`, { name: 'a' }), 400, 'Bad Request: name: must be 2 to 25 characters long');
  });
});

describe('DELETE /api/v1/labels/{name}', () => {
  it('deletes an unused label (204)', async () => {
    const response = await fixture.api.delete(`${LABELS}/obsolete`);
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    expect(fixture.emulator.state.labels().map((label) => label.name)).not.toContain('obsolete');
  });

  it('answers 409 while the label is applied to documents, and 204 once removed from them', async () => {
    expectError(await fixture.api.delete(`${LABELS}/marketing`), 409, 'Cannot delete label that is applied to documents');
    expect((await fixture.api.delete('/api/v1/documents/5e4d3c2b/labels/marketing')).status).toBe(204);
    expect((await fixture.api.delete(`${LABELS}/Marketing`)).status).toBe(204);
  });

  it('answers 403 when a non-admin deletes a verified or homepage label, 404 for an unknown one', async () => {
    await fixture.api.delete('/api/v1/documents/8f2e1d4c/labels/finance');
    await fixture.api.delete('/api/v1/documents/9d8e7f60/labels/finance');
    expectError(
      await fixture.api.as(TOKENS.gracePersonal).delete(`${LABELS}/finance`),
      403,
      'Permission denied - cannot delete verified/homepage labels without admin permissions',
    );
    expectDetail(await fixture.api.delete(`${LABELS}/nope`), 404, 'Label not found');
  });
});
