// Performance record, part 1: scenario L against the emulator, both profiles. Prints, per route,
// the fewest requests the API allows (derived from the data below, not measured) and the count
// steward made, for plan and for apply; then plan's wall time with 25 ms emulator latency and
// the limit lifted, against the longest chain of requests that must run one after another.
//
// Scenario L (issue 12, without its 200 routines, which need models and topics): an org of 6,000
// users; 5,000 user limits declared by e-mail, 2,500 of them live (half at the declared value),
// 500 further live limits pruned; 50 labels; 2,000 documents, 620 labelled, 220 changing labels.
//
//   node bench/scenarioL.mjs            (after `npm run build`)
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApply } from '../dist/cli/apply.js';
import { runPlan } from '../dist/cli/plan.js';
import { datasetSeed, startEmulator } from '../dist/emulator/index.js';

const TOKEN = 'demo-org-admin-token';
const PAGE = 100;
const BATCH = 1000;
const USERS = 6000, DECLARED = 5000, LIVE_DECLARED = 2500, PRUNED = 500, LABELS = 50, DOCUMENTS = 2000, LABELLED = 620, CHANGING = 220;

function scenario() {
  const seed = datasetSeed('demo');
  const n = (i) => String(i + 1).padStart(5, '0');
  const users = Array.from({ length: USERS }, (_, i) => ({ id: `00000000-0000-4000-8000-${n(i).padStart(12, '0')}`, email: `u${n(i)}@acme.example`, displayName: `User ${n(i)}`, role: 'MEMBER' }));
  seed.users.push(...users);
  // Live (replacing the demo's): the first 2,500 declared users (every other one already at the
  // declared 75), and 500 undeclared ones.
  seed.userCreditLimits = [
    ...users.slice(0, LIVE_DECLARED).map((user, i) => ({ user: user.email, creditLimit: i % 2 === 0 ? 75 : 50 })),
    ...users.slice(DECLARED, DECLARED + PRUNED).map((user) => ({ user: user.email, creditLimit: 20 })),
  ];
  const labels = Array.from({ length: LABELS }, (_, i) => `l${String(i).padStart(2, '0')}`);
  seed.labels = [...(seed.labels ?? []), ...labels.map((name) => ({ name }))];
  const documents = Array.from({ length: DOCUMENTS }, (_, i) => ({ identifier: `d${String(i).padStart(7, '0')}`, name: `Document ${i}` }));
  // 620 documents carry one label each (label i % 50); the config moves 220 of them to the next label.
  const carried = new Map(labels.map((name) => [name, []]));
  documents.slice(0, LABELLED).forEach((document, i) => {
    document.labels = [labels[i % LABELS]];
    carried.get(labels[(i < CHANGING ? i + 1 : i) % LABELS]).push(document.identifier);
  });
  seed.documents = [...(seed.documents ?? []), ...documents];
  const config = [
    'version: 1',
    'userCreditLimits:',
    ...users.slice(0, DECLARED).map((user) => `  - email: ${user.email}\n    creditLimit: 75`),
    'labels:',
    ...labels.map((name) => `  - name: ${name}\n    documents: [${carried.get(name).join(', ')}]\n    pruneDocuments: true`),
    'prune:',
    '  userCreditLimits: true',
  ].join('\n');
  // The fewest requests, from the data: whoami (preflight), GET /labels, the live limits, the
  // cheaper of listing SCIM and filtering per e-mail, the cheaper of one include=labels listing and
  // one query per label in use; then one bulk PATCH per 1,000 limit changes and one PATCH per document.
  const liveLimits = seed.userCreditLimits.length;
  const demoDocuments = (datasetSeed('demo').documents ?? []).length;
  const fewestPlan = {
    'GET /api/v1/whoami': 1,
    'GET /api/v1/labels': Math.ceil((LABELS + (datasetSeed('demo').labels ?? []).length) / PAGE),
    'GET /api/v1/ai/credit-controls/users': Math.ceil(liveLimits / PAGE),
    'GET /api/scim/v2/Users': Math.min(DECLARED, Math.ceil((USERS + datasetSeed('demo').users.length) / PAGE)),
    'GET /api/v1/documents': Math.min(labels.reduce((sum) => sum + Math.ceil(LABELLED / LABELS / PAGE), 0), Math.ceil((DOCUMENTS + demoDocuments) / PAGE)),
  };
  // Creates for the 2,500 declared without a limit, updates for the 1,250 live at 50, 500 resets.
  const limitChanges = DECLARED - LIVE_DECLARED / 2 + PRUNED;
  const fewestWrites = {
    'PATCH /api/v1/ai/credit-controls/users': Math.ceil(limitChanges / BATCH),
    'PATCH /api/v1/documents/{identifier}/labels': CHANGING,
  };
  return { seed, config, fewestPlan, fewestWrites };
}

async function run(profile, latencyMs = 0) {
  const { seed, config, fewestPlan, fewestWrites } = scenario();
  const emulator = await startEmulator({ data: seed, port: 0, profile, latencyMs });
  const directory = await mkdtemp(join(tmpdir(), 'steward-bench-l-'));
  await writeFile(join(directory, 'environments.yaml'), 'version: 1\nenvironments:\n  bench:\n    baseUrl: https://bench.example.com\n    tokenEnv: BENCH_TOKEN\n    requestsPerMinute: 1000000\n');
  await writeFile(join(directory, 'scenario.yaml'), `${config}\n`);
  const io = () => ({ stdout: () => {}, stderr: (text) => process.stderr.write(text), env: { BENCH_TOKEN: TOKEN, STEWARD_CACHE_DIR: 'off' }, cwd: directory, isTTY: false });
  const options = { config: directory, env: 'bench', baseUrl: emulator.url };
  const counted = async (step) => {
    const before = emulator.stats().byRoute;
    const started = performance.now();
    await step();
    const ms = performance.now() - started;
    const after = emulator.stats().byRoute;
    return { ms, byRoute: Object.fromEntries(Object.entries(after).map(([route, count]) => [route, count - (before[route] ?? 0)]).filter(([, count]) => count > 0)) };
  };
  const plan = await counted(() => runPlan({ ...options, detailedExitcode: true }, io()));
  const apply = latencyMs > 0 ? undefined : await counted(() => runApply(undefined, { ...options, autoApprove: true }, io()));
  await emulator.close();
  return { plan, apply, fewestPlan, fewestWrites };
}

const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
const rows = [];
for (const profile of ['reference', 'other']) {
  const { plan, apply, fewestPlan, fewestWrites } = await run(profile);
  const routes = [...new Set([...Object.keys(fewestPlan), ...Object.keys(fewestWrites), ...Object.keys(plan.byRoute), ...Object.keys(apply.byRoute)])];
  for (const route of routes) {
    rows.push({ profile, route, 'plan fewest': fewestPlan[route] ?? 0, 'plan made': plan.byRoute[route] ?? 0, 'apply fewest': (fewestPlan[route] ?? 0) + (fewestWrites[route] ?? 0), 'apply made': apply.byRoute[route] ?? 0 });
  }
  rows.push({ profile, route: 'total', 'plan fewest': sum(fewestPlan), 'plan made': sum(plan.byRoute), 'apply fewest': sum(fewestPlan) + sum(fewestWrites), 'apply made': sum(apply.byRoute) });
}
console.log(`Scenario L (without routines), node ${process.version}`);
console.table(rows);

const LATENCY = 25;
const slow = await run('reference', LATENCY);
// The longest chain: cursor pages follow one another; SCIM pages after the first go side by side.
const chain = Math.max(slow.fewestPlan['GET /api/v1/ai/credit-controls/users'], slow.fewestPlan['GET /api/v1/documents']) + 1;
console.log(`plan with ${LATENCY} ms latency, limit lifted: ${Math.round(slow.plan.ms)} ms; longest sequential chain ${chain} requests = ${chain * LATENCY} ms (${(slow.plan.ms / (chain * LATENCY)).toFixed(2)}×)`);
