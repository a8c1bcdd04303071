// Plan and apply make exactly the fewest requests the API allows, route by route, on a smaller
// scenario L (bench/scenarioL.mjs): an org large enough that each read has two ways (SCIM filters
// or the listing; per-label queries or one documents listing) and the cheaper one is taken.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runApply } from '../../src/cli/apply.js';
import type { CommandIo } from '../../src/cli/context.js';
import { EXIT, runPlan } from '../../src/cli/plan.js';
import { datasetSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { PROFILES, PRODUCTION_TOKEN } from './helpers.js';

const USERS = 450; // with the demo's users: 5 SCIM pages
const DECLARED = 300; // 5 pages < 300 filters: the listing
const LIVE_DECLARED = 120; // 60 at the declared value, 60 to change
const PRUNED = 30;
const LABELS = 6;
const DOCUMENTS = 180; // with the demo's: 4 pages of documents, fewer than the 6 per-label queries
const LABELLED = 60;
const CHANGING = 25;

function scenario() {
  const seed = datasetSeed('demo');
  const users = Array.from({ length: USERS }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, email: `s${i}@acme.example`, displayName: `S ${i}`, role: 'MEMBER' as const }));
  seed.users.push(...users);
  seed.userCreditLimits = [
    ...users.slice(0, LIVE_DECLARED).map((user, i) => ({ user: user.email, creditLimit: i % 2 === 0 ? 75 : 50 })),
    ...users.slice(DECLARED, DECLARED + PRUNED).map((user) => ({ user: user.email, creditLimit: 20 })),
  ];
  const labels = Array.from({ length: LABELS }, (_, i) => `bench-${i}`);
  seed.labels = [...(seed.labels ?? []), ...labels.map((name) => ({ name }))];
  const documents = Array.from({ length: DOCUMENTS }, (_, i) => ({ identifier: `s${String(i).padStart(7, '0')}`, name: `S ${i}`, labels: [] as string[] }));
  const carried = new Map(labels.map((name) => [name, [] as string[]]));
  documents.slice(0, LABELLED).forEach((document, i) => {
    document.labels = [labels[i % LABELS]!];
    carried.get(labels[(i < CHANGING ? i + 1 : i) % LABELS]!)!.push(document.identifier);
  });
  seed.documents = [...(seed.documents ?? []), ...documents];
  const config = [
    'version: 1',
    'userCreditLimits:',
    ...users.slice(0, DECLARED).map((user) => `  - email: ${user.email}\n    creditLimit: 75`),
    'labels:',
    ...labels.map((name) => `  - name: ${name}\n    documents: [${carried.get(name)!.join(', ')}]\n    pruneDocuments: true`),
    'prune:',
    '  userCreditLimits: true',
  ].join('\n');
  return { seed, config, pages: (records: number) => Math.ceil(records / 100) };
}

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe.each(PROFILES)('request counts of a smaller scenario L (%s profile)', (profile) => {
  it('plan and apply make the fewest requests per route', async () => {
    const { seed, config, pages } = scenario();
    // The premises: each read has two ways, and the listings are the cheaper ones.
    expect(pages(seed.users.length)).toBeLessThan(DECLARED);
    expect(pages(seed.documents!.length)).toBeLessThan(LABELS);
    emulator = await startEmulator({ data: seed, port: 0, profile });
    const directory = await mkdtemp(join(tmpdir(), 'steward-counts-'));
    await writeFile(join(directory, 'environments.yaml'), 'version: 1\nenvironments:\n  bench:\n    baseUrl: https://bench.example.com\n    tokenEnv: TOKEN\n    requestsPerMinute: 100000\n');
    await writeFile(join(directory, 'scenario.yaml'), `${config}\n`);
    const io = (): CommandIo => ({ stdout: () => {}, stderr: () => {}, env: { TOKEN: PRODUCTION_TOKEN }, cwd: directory, isTTY: false }) as unknown as CommandIo;
    const options = { config: directory, env: 'bench', baseUrl: emulator.url };
    const reads = {
      'GET /api/v1/whoami': 1,
      'GET /api/v1/labels': 1,
      'GET /api/v1/ai/credit-controls/users': 2, // 150 live limits
      'GET /api/scim/v2/Users': pages(seed.users.length), // page 1 tells the org size; the other pages < 300 filters
      'GET /api/v1/documents': pages(seed.documents!.length), // one include=labels listing < 6 queries
    };

    expect(await runPlan({ ...options, detailedExitcode: true }, io())).toBe(EXIT.destructive);
    const afterPlan = emulator.stats().byRoute;
    expect(afterPlan).toEqual(reads);

    expect(await runApply(undefined, { ...options, autoApprove: true }, io())).toBe(0);
    const applied = Object.fromEntries(Object.entries(emulator.stats().byRoute).map(([route, count]) => [route, count - (afterPlan[route] ?? 0)]));
    expect(applied).toEqual({
      ...reads,
      // 180 creates + 60 updates + 30 resets in one bulk PATCH; one PATCH per document moved.
      'PATCH /api/v1/ai/credit-controls/users': 1,
      'PATCH /api/v1/documents/{identifier}/labels': CHANGING,
    });

    expect(await runPlan({ ...options, detailedExitcode: true }, io())).toBe(EXIT.ok);
  });
});
