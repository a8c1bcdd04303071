// State: reset restores the seed, stats count what happened, and `statePath` persists writes so
// a second emulator (a later CLI run, or one running beside it) sees them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { Api, aRoutine, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
const directories: string[] = [];
function stateFile(): string {
  const directory = mkdtempSync(join(tmpdir(), 'steward-emulator-'));
  directories.push(directory);
  return join(directory, 'nested', 'state.json');
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('stats', () => {
  it('counts requests per method and route template, reads, writes, statuses', async () => {
    const digest = fixture.emulator.state.routines().find((routine) => routine.name === 'Weekly revenue digest')!;
    await fixture.api.get('/api/v1/whoami');
    await fixture.api.get(`/api/v1/ai/routines/${digest.id}`);
    await fixture.api.get(`/api/v1/ai/routines/${digest.id}`);
    await fixture.api.post('/api/v1/labels', { name: 'xy' });
    await fixture.api.delete('/api/v1/labels/obsolete');
    await fixture.api.get('/api/v1/nowhere');
    const stats = await (await fetch(`${fixture.emulator.url}/__emulator/stats`)).json();
    expect(stats).toEqual({
      requests: 6,
      reads: 4,
      writes: 2,
      rateLimited: 0,
      faultsFired: 0,
      byRoute: {
        'GET /api/v1/whoami': 1,
        'GET /api/v1/ai/routines/{routineId}': 2,
        'POST /api/v1/labels': 1,
        'DELETE /api/v1/labels/{name}': 1,
        'GET <unknown>': 1,
      },
      byStatus: { 200: 3, 201: 1, 204: 1, 404: 1 },
    });
    expect(fixture.emulator.stats()).toEqual(stats);
  });
});

describe('reset', () => {
  it('restores the seed and zeroes the counters, programmatically and over HTTP', async () => {
    await fixture.api.delete('/api/v1/labels/obsolete');
    fixture.emulator.reset();
    expect(fixture.emulator.state.labels().map((label) => label.name)).toContain('obsolete');
    expect(fixture.emulator.stats().requests).toBe(0);

    await fixture.api.patch('/api/v1/ai/credit-controls', { shutoffCredits: 99999 });
    const response = await fetch(`${fixture.emulator.url}/__emulator/reset`, { method: 'POST' });
    expect(await response.json()).toEqual({ reset: true });
    expect(fixture.emulator.state.creditControls().shutoffCredits).toBe(10000);
  });

  it('answers 404 for an unknown control route, without a token', async () => {
    const response = await fetch(`${fixture.emulator.url}/__emulator/nothing`);
    expect(response.status).toBe(404);
  });
});

describe('state file', () => {
  it('lets a second emulator see the writes of the first', async () => {
    const path = stateFile();
    const first = await startEmulator({ statePath: path });
    expect(first.description.stateLoaded).toBe(false);
    const created = await new Api(first.url, TOKENS.orgAdmin).post('/api/v1/ai/routines', aRoutine({ name: 'Persisted' }));
    await new Api(first.url, TOKENS.orgAdmin).delete('/api/v1/labels/obsolete');
    await first.close();

    const second = await startEmulator({ statePath: path });
    try {
      expect(second.description.stateLoaded).toBe(true);
      const read = await new Api(second.url, TOKENS.orgAdmin).get(`/api/v1/ai/routines/${created.body.id}`);
      expect(read.body.name).toBe('Persisted');
      expect(second.state.labels().map((label) => label.name)).not.toContain('obsolete');
    } finally {
      await second.close();
    }
  });

  it('keeps two emulators running side by side in step', async () => {
    const path = stateFile();
    const left = await startEmulator({ statePath: path });
    const right = await startEmulator({ statePath: path });
    try {
      await new Api(left.url, TOKENS.orgAdmin).post('/api/v1/labels', { name: 'from-left' });
      const labels = await new Api(right.url, TOKENS.orgAdmin).get('/api/v1/labels');
      expect(labels.body.labels.map((label: { name: string }) => label.name)).toContain('from-left');
    } finally {
      await left.close();
      await right.close();
    }
  });

  it('does not save failed writes, saves a reset, and never stores a token', async () => {
    const path = stateFile();
    const emulator = await startEmulator({ statePath: path });
    try {
      const api = new Api(emulator.url, TOKENS.orgAdmin);
      await api.post('/api/v1/labels', { name: 'kept' });
      expect((await api.post('/api/v1/labels', { name: 'failed', verified: 'no' })).status).toBe(400);
      const saved = readFileSync(path, 'utf8');
      expect(saved).toContain('"kept"');
      expect(saved).not.toContain('"failed"');
      expect(saved).not.toContain('demo-org-admin-token');
      emulator.reset();
      expect(readFileSync(path, 'utf8')).not.toContain('"kept"');
    } finally {
      await emulator.close();
    }
  });

  it('refuses a file that is not an emulator state', async () => {
    const path = stateFile();
    const directory = join(path, '..');
    rmSync(directory, { recursive: true, force: true });
    const plain = join(directories.at(-1)!, 'plain.json');
    writeFileSync(plain, '{"hello": "world"}');
    await expect(startEmulator({ statePath: plain })).rejects.toThrow(`cannot use state file ${plain}: it is not an emulator state file`);
    writeFileSync(plain, 'nope');
    await expect(startEmulator({ statePath: plain })).rejects.toThrow(/it is not JSON/);
  });
});
