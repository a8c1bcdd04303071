// --strict for CI: a label's document or folder this deployment does not have, or a protected label
// nobody declares, is a warning by default (the plan goes on) and an error (exit 1, nothing
// written, no plan file) with --strict, in plan, apply, diff, drift and validate.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { copyExample } from '../e2e/helpers.js';
import { steward } from './run.js';

let production: RunningEmulator;
let playground: RunningEmulator;
let typo: string;
beforeAll(async () => {
  [production, playground] = await Promise.all([startEmulator({ dataset: 'demo' }), startEmulator({ dataset: 'demo-playground' })]);
  typo = await copyExample('gitops');
  const labels = join(typo, 'labels.yaml');
  // 5e4d3c2b with a typo: the demo has no document 5e4d3c2c.
  await writeFile(labels, (await readFile(labels, 'utf8')).replace('documents: ["5e4d3c2b", "3a9b7c6d"]', 'documents: ["5e4d3c2c", "3a9b7c6d"]'));
});
afterAll(async () => {
  await Promise.all([production.close(), playground.close()]);
  await rm(typo, { recursive: true, force: true });
});

const at = () => ['--config', '.', '--env', 'production', '--base-url', production.url];
const MISSING = 'document 5e4d3c2c does not exist in this deployment, so label "marketing" is not applied to it';

describe('--strict', () => {
  it('plan: a warning without it; exit 1, no plan and no plan file with it', async () => {
    const lenient = await steward(['plan', ...at()], typo);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toContain(`Warning: ${MISSING}`);
    const strict = await steward(['plan', ...at(), '--strict', '--out', 'plan.json'], typo);
    expect(strict.code).toBe(1);
    expect(strict.out).toBe('');
    // At the document in labels.yaml, with the one it is likely a typo of.
    const line = (await readFile(join(typo, 'labels.yaml'), 'utf8')).split('\n').findIndex((text) => text.includes('5e4d3c2c')) + 1;
    expect(strict.err).toContain(`Error: ${join(typo, 'labels.yaml')}:${line}:17: --strict: ${MISSING} (did you mean 5e4d3c2b? `);
    expect(existsSync(join(typo, 'plan.json'))).toBe(false);
    const json = await steward(['plan', ...at(), '--strict', '--json'], typo);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'plan.strict', fault: 'user' } });
  });

  it('apply refuses before any write; drift and diff fail too', async () => {
    const writes = production.stats().writes;
    const applied = await steward(['apply', ...at(), '--strict', '--auto-approve'], typo);
    expect(applied.code).toBe(1);
    expect(applied.err).toContain(`--strict: ${MISSING}`);
    expect(production.stats().writes).toBe(writes);
    expect((await steward(['drift', ...at(), '--strict'], typo)).code).toBe(1);
    const diff = await steward(['diff', '--config', '.', '--env', 'playground', '--against', 'production', '--base-url', playground.url, '--against-base-url', production.url, '--strict'], typo);
    expect(diff.code, diff.err).toBe(0); // a promotion's desired state is production's live state, which names no missing document
  });

  it('a saved plan with such a warning is refused by apply --strict', async () => {
    expect((await steward(['plan', ...at(), '--out', 'lenient.json'], typo)).code).toBe(0);
    const writes = production.stats().writes;
    const applied = await steward(['apply', 'lenient.json', '--config', '.', '--base-url', production.url, '--strict'], typo);
    expect(applied.code).toBe(1);
    expect(applied.err).toContain(`--strict: ${MISSING}`);
    expect(production.stats().writes).toBe(writes);
  });

  it('validate: a protected label nobody declares fails under --strict', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'steward-strict-'));
    try {
      await writeFile(
        join(directory, 'steward.yaml'),
        'version: 1\nenvironments:\n  production:\n    baseUrl: https://acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n    protect:\n      labels: [financ]\nlabels:\n  - name: finance\n',
      );
      const lenient = await steward(['validate'], directory);
      expect(lenient.code, lenient.err).toBe(0);
      expect(lenient.err).toContain('protects label `financ`, which is neither declared nor renamed');
      const strict = await steward(['validate', '--strict'], directory);
      expect(strict.code).toBe(1);
      expect(strict.err).toContain('is not valid (under --strict, 1 warning that names something that does not exist)');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
