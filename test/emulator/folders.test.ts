// Folders and their labels, as the vendor documents them: the folders list (organization scope by
// default, include=labels, path exact or with `*`/`**`, cursor pages), the bulk label PATCH of one
// folder (add/remove, atomic, labels must exist), and a label on a folder counting in its usage, so
// deleting it is refused until it is taken off (or, with labelDeleteInUse unlink, taken off too).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { Api, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
const FOLDERS = '/api/v1/folders';
const folderId = async (path: string): Promise<string> => (await fixture.api.get(FOLDERS, { path })).body.records[0].id;

describe('GET /api/v1/folders', () => {
  it('lists the organization\'s folders by path, with their labels when asked', async () => {
    const response = await fixture.api.get(FOLDERS, { include: 'labels', pageSize: 100 });
    expect(response.status).toBe(200);
    expect(response.body.records.map((folder: { path: string; labels: string[] }) => [folder.path, folder.labels])).toEqual([
      ['finance', ['finance']],
      ['finance/board-packs', ['legacy-kpis']],
      ['marketing', []],
      ['sandbox', ['draft']],
    ]);
    expect(response.body.records[0]).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Finance', scope: 'organization', owner: { id: expect.any(String), name: 'Ada Lovelace' } });
    expect((await fixture.api.get(FOLDERS)).body.records[0].labels).toBeUndefined();
  });

  it('filters by exact path, children (*) and descendants (**), and by label', async () => {
    const paths = async (query: Record<string, string>) => (await fixture.api.get(FOLDERS, query)).body.records.map((folder: { path: string }) => folder.path);
    expect(await paths({ path: 'finance' })).toEqual(['finance']);
    expect(await paths({ path: 'finance/*' })).toEqual(['finance/board-packs']);
    expect(await paths({ path: 'finance/**' })).toEqual(['finance/board-packs']);
    expect(await paths({ labels: 'draft' })).toEqual(['sandbox']);
    expect((await fixture.api.get(FOLDERS, { path: 'nowhere' })).body).toMatchObject({ detail: 'Folder with path nowhere does not exist', status: 404 });
  });

  it('pages with a cursor, and lists restricted folders only for an owner', async () => {
    const first = await fixture.api.get(FOLDERS, { pageSize: 3 });
    expect(first.body.pageInfo).toMatchObject({ hasNextPage: true, totalRecords: 4 });
    const second = await fixture.api.get(FOLDERS, { pageSize: 3, cursor: first.body.pageInfo.nextCursor });
    expect(second.body.records.map((folder: { path: string }) => folder.path)).toEqual(['sandbox']);
    const restricted = await fixture.api.get(FOLDERS, { scope: 'restricted' });
    expect(restricted.body).toMatchObject({ detail: "Bad Request: ownerId: ownerId is required when scope is 'restricted'", status: 400 });
  });
});

describe('PATCH /api/v1/folders/{folderId}/labels', () => {
  it('adds and removes labels in one call and answers the folder\'s labels after', async () => {
    const finance = await folderId('finance');
    const response = await fixture.api.patch(`${FOLDERS}/${finance}/labels`, { add: ['Marketing'], remove: ['finance'] });
    expect(response).toMatchObject({ status: 200, body: { labels: ['marketing'] } });
    expect(fixture.emulator.state.folderLabels('finance')).toEqual(['marketing']);
  });

  it('refuses an empty change, a label in both lists and an unknown label, changing nothing', async () => {
    const sandbox = await folderId('sandbox');
    for (const [body, status, detail] of [
      [{}, 400, 'Bad Request: At least one label must be specified in add or remove'],
      [{ add: ['finance'], remove: ['FINANCE'] }, 400, 'Bad Request: Labels cannot appear in both add and remove arrays'],
      [{ add: ['finance', 'nope'] }, 404, 'Label not found: nope'],
    ] as const) {
      const response = await fixture.api.patch(`${FOLDERS}/${sandbox}/labels`, body);
      expect(response.status).toBe(status);
      expect(response.body.detail).toBe(detail);
    }
    expect(fixture.emulator.state.folderLabels('sandbox')).toEqual(['draft']);
    expect((await fixture.api.patch(`${FOLDERS}/not-a-uuid/labels`, { add: ['finance'] })).status).toBe(400);
  });
});

describe('a label on a folder', () => {
  it('counts in its usage, so it cannot be deleted until it is taken off the folder', async () => {
    const sandbox = await folderId('sandbox');
    await fixture.api.patch('/api/v1/documents/1b2c3d4e/labels', { remove: ['draft'] });
    expect((await fixture.api.get('/api/v1/labels/draft')).body.usage_count).toBe(1);
    expect((await fixture.api.delete('/api/v1/labels/draft')).status).toBe(409);
    await fixture.api.patch(`${FOLDERS}/${sandbox}/labels`, { remove: ['draft'] });
    expect((await fixture.api.delete('/api/v1/labels/draft')).status).toBe(204);
  });

  it('is taken off the folders too where deleting a label in use unlinks it', async () => {
    const unlinking = await startEmulator({ labelDeleteInUse: 'unlink' });
    try {
      expect((await new Api(unlinking.url, TOKENS.orgAdmin).delete('/api/v1/labels/draft')).status).toBe(204);
      expect(unlinking.state.folderLabels('sandbox')).toEqual([]);
    } finally {
      await unlinking.close();
    }
  });
});

describe('state files from before folders were kept', () => {
  it('load with no folders', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'steward-folders-state-'));
    const path = join(directory, 'state.json');
    const first = await startEmulator({ statePath: path });
    await new Api(first.url, TOKENS.orgAdmin).post('/api/v1/labels', { name: 'saved' });
    await first.close();
    const file = JSON.parse(await readFile(path, 'utf8')) as { state: Record<string, unknown> };
    delete file.state.folders;
    await writeFile(path, JSON.stringify(file));
    const second = await startEmulator({ statePath: path });
    try {
      expect((await new Api(second.url, TOKENS.orgAdmin).get(FOLDERS)).body.records).toEqual([]);
      expect(second.state.labels().map((label) => label.name)).toContain('saved');
    } finally {
      await second.close();
    }
  });
});
