// Plan and apply make exactly the fewest requests the API allows, route by route, on a smaller
// scenario L (bench/scenarioL.mjs): an org large enough that each read has two ways (SCIM filters
// or the listing; per-label queries or one documents listing) and the cheaper one is taken; and
// routines of three owners, named by model name, some updated, created, pruned and replaced.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runApply } from '../../src/cli/apply.js';
import type { CommandIo } from '../../src/cli/context.js';
import { runDrift } from '../../src/cli/drift.js';
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

// Routines per owner: live ones (the first owner's take two pages), new ones, how many of its
// live ones get a new prompt, whether one moves to another model (a replacement), and how many
// of its last live ones the config leaves out (pruned).
const ROUTINE_OWNERS = [
  { email: 'ada@acme.example', live: 101, created: 2, updated: 2, replaced: false, pruned: 1 },
  { email: 'grace@acme.example', live: 8, created: 0, updated: 1, replaced: true, pruned: 1 },
  { email: 'ken@acme.example', live: 4, created: 0, updated: 0, replaced: false, pruned: 0 },
];
const ROUTINE_MODELS = ['Sales', 'Marketing']; // the demo's; Sales Forecast (added) contains "Sales"

interface ScenarioRoutine {
  name: string;
  owner: string;
  prompt: string;
  model: string;
  topicName: string;
  branch?: string;
}

/**
 * The scenario's routines: live ones into `seed`, declared ones as config lines. Routine j of an
 * owner runs on Sales (topic orders, every fourth on branch forecast-v2) or Marketing (campaigns).
 */
function routineScenario(seed: ReturnType<typeof datasetSeed>) {
  const models = seed.models!;
  models.push({ id: '0f0e0d0c-0000-4000-8000-000000000001', name: 'Sales Forecast', defaultRole: 'QUERIER', topics: ['orders'] });
  const modelId = (name: string) => models.find((model) => model.name === name)!.id;
  const branchId = models.find((model) => model.name === 'Sales')!.branches![0]!.id;
  seed.organization.maxActiveRoutinesPerUser = 150;
  const routine = (owner: string, j: number): ScenarioRoutine => {
    const model = ROUTINE_MODELS[j % 2]!;
    return {
      name: `${owner.split('@')[0]} routine ${j}`,
      owner,
      prompt: `Summarise report ${j}.`,
      model,
      topicName: model === 'Sales' ? 'orders' : 'campaigns',
      ...(model === 'Sales' && j % 4 === 0 ? { branch: 'forecast-v2' } : {}),
    };
  };
  const declared: ScenarioRoutine[] = [];
  seed.routines = ROUTINE_OWNERS.flatMap((owner, k) => {
    const live = Array.from({ length: owner.live }, (_, j) => routine(owner.email, j));
    const kept = live.slice(0, owner.live - owner.pruned).map((wanted, j) => {
      if (j >= 1 && j <= owner.updated) return { ...wanted, prompt: `${wanted.prompt} Call out anomalies.` };
      // Routine 0 runs on Sales: moving it to Marketing cannot be done in place.
      if (j === 0 && owner.replaced) return { ...wanted, model: 'Marketing', topicName: 'campaigns', branch: undefined };
      return wanted;
    });
    declared.push(...kept, ...Array.from({ length: owner.created }, (_, i) => routine(owner.email, owner.live + i)));
    return live.map(({ model, branch, ...rest }, j) => ({
      ...rest,
      schedule: '0 9 ? * MON *',
      timezone: 'UTC',
      modelId: modelId(model),
      branchId: branch === undefined ? null : branchId,
      destination: { type: 'email' as const, recipientEmails: [owner.email], userGroupIds: [] },
      createdAt: new Date(Date.UTC(2025, 0, 1) + (k * 1000 + j) * 3_600_000).toISOString(),
    }));
  });
  const config = [
    'routines:',
    ...declared.map((r) =>
      [
        `  - name: ${r.name}`,
        `    owner: ${r.owner}`,
        `    prompt: ${r.prompt}`,
        `    schedule: "0 9 ? * MON *"`,
        '    timezone: UTC',
        `    model: ${r.model}`,
        ...(r.branch === undefined ? [] : [`    branch: ${r.branch}`]),
        `    topicName: ${r.topicName}`,
        `    destination: {type: email, recipientEmails: [${r.owner}]}`,
      ].join('\n'),
    ),
  ];
  return { config, owners: ROUTINE_OWNERS.map((owner) => owner.email) };
}

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
  const routines = routineScenario(seed);
  const config = [
    'version: 1',
    'userCreditLimits:',
    ...users.slice(0, DECLARED).map((user) => `  - email: ${user.email}\n    creditLimit: 75`),
    'labels:',
    ...labels.map((name) => `  - name: ${name}\n    documents: [${carried.get(name)!.join(', ')}]\n    pruneDocuments: true`),
    ...routines.config,
    'prune:',
    '  userCreditLimits: true',
    '  routines: true',
  ].join('\n');
  return { seed, config, owners: routines.owners, pages: (records: number) => Math.ceil(records / 100) };
}

const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

/** The requests per route made between two snapshots of the emulator's counts. */
const since = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([route, count]) => [route, count - (before[route] ?? 0)]).filter(([, count]) => count !== 0));

/** A config directory holding `config`, and how to run commands on it against `running`. */
async function workspace(config: string, running: RunningEmulator) {
  const directory = await mkdtemp(join(tmpdir(), 'steward-counts-'));
  await writeFile(join(directory, 'environments.yaml'), 'version: 1\nenvironments:\n  bench:\n    baseUrl: https://bench.example.com\n    tokenEnv: TOKEN\n    requestsPerMinute: 100000\n');
  await writeFile(join(directory, 'scenario.yaml'), `${config}\n`);
  const io = (): CommandIo => ({ stdout: () => {}, stderr: () => {}, env: { TOKEN: PRODUCTION_TOKEN }, cwd: directory, isTTY: false }) as unknown as CommandIo;
  return { io, options: { config: directory, env: 'bench', baseUrl: running.url } };
}

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe.each(PROFILES)('request counts of a smaller scenario L (%s profile)', (profile) => {
  it('plan and apply make the fewest requests per route', async () => {
    const { seed, config, owners, pages } = scenario();
    // The premises: each read has two ways, and the listings are the cheaper ones (the routine
    // owners' e-mails are resolved with the declared users').
    expect(pages(seed.users.length)).toBeLessThan(DECLARED + owners.length);
    expect(pages(seed.documents!.length)).toBeLessThan(LABELS);
    emulator = await startEmulator({ data: seed, port: 0, profile });
    const { io, options } = await workspace(config, emulator);
    const reads = {
      'GET /api/v1/whoami': 1,
      'GET /api/v1/labels': 1,
      'GET /api/v1/ai/credit-controls/users': 2, // 150 live limits
      'GET /api/scim/v2/users': pages(seed.users.length), // page 1 tells the org size; the other pages < 300 filters
      'GET /api/v1/documents': pages(seed.documents!.length), // one include=labels listing < 6 queries
      'GET /api/v1/models': ROUTINE_MODELS.length, // one name= query per model name, branches included
      'GET /api/v1/models/{modelId}/topic': ROUTINE_MODELS.length, // the topics of each model a created routine runs on (here every model), once
      // Each owner's routines, 100 a page (the most the API allows): 101, 8 and 4 live, 2 + 1 + 1.
      'GET /api/v1/ai/routines': sum(ROUTINE_OWNERS.map((owner) => pages(owner.live))),
    };
    // A routine update is one documented PUT, in both profiles: nothing probes for a PATCH.
    const updates = sum(ROUTINE_OWNERS.map((owner) => owner.updated));
    const replaced = ROUTINE_OWNERS.filter((owner) => owner.replaced).length;
    const routineUpdates = { 'PUT /api/v1/ai/routines/{routineId}': updates };

    expect(await runPlan({ ...options, detailedExitcode: true }, io())).toBe(EXIT.destructive);
    const afterPlan = emulator.stats().byRoute;
    expect(afterPlan).toEqual(reads);

    // drift is a plan read as a report: the same reads, no more.
    expect(await runDrift(options, io())).toBe(EXIT.changes);
    const afterDrift = emulator.stats().byRoute;
    expect(since(afterPlan, afterDrift)).toEqual(reads);

    expect(await runApply(undefined, { ...options, autoApprove: true }, io())).toBe(0);
    const applied = since(afterDrift, emulator.stats().byRoute);
    expect(applied).toEqual({
      ...reads,
      // 180 creates + 60 updates + 30 resets in one bulk PATCH; one PATCH per document moved.
      'PATCH /api/v1/ai/credit-controls/users': 1,
      'PATCH /api/v1/documents/{identifier}/labels': CHANGING,
      ...routineUpdates,
      // A create is a POST, a prune a DELETE, a replacement both (create the new, delete the old).
      'POST /api/v1/ai/routines': sum(ROUTINE_OWNERS.map((owner) => owner.created)) + replaced,
      'DELETE /api/v1/ai/routines/{routineId}': sum(ROUTINE_OWNERS.map((owner) => owner.pruned)) + replaced,
      // The race check after the creates (routineDuplicates.ts): each owner with a create or a
      // replacement listed once more, whole, to find copies a concurrent apply made: ada's 102
      // routines now (2 pages) and grace's 7 (1 page).
      'GET /api/v1/ai/routines':
        reads['GET /api/v1/ai/routines'] +
        sum(ROUTINE_OWNERS.filter((owner) => owner.created > 0 || owner.replaced).map((owner) => pages(owner.live - owner.pruned + owner.created))),
    });

    expect(await runPlan({ ...options, detailedExitcode: true }, io())).toBe(EXIT.ok);
  });

  it("lists only the routines a plan may change: not the key's own when none is declared and prune is off", async () => {
    // The organization key was created by ada (whoami names her in the vendor profile); the
    // config manages one routine of grace's, as it is live, and prunes nothing.
    emulator = await startEmulator({ data: datasetSeed('demo'), port: 0, profile });
    const { io, options } = await workspace(
      [
        'version: 1',
        'routines:',
        "  - name: Grace's weekly KPIs",
        '    owner: grace@acme.example',
        "    prompt: Summarise this week's KPIs.",
        '    schedule: "0 7 ? * FRI *"',
        '    timezone: UTC',
        '    model: Sales',
        '    topicName: orders',
        '    destination: {type: email, recipientEmails: [grace@acme.example]}',
      ].join('\n'),
      emulator,
    );
    expect(await runPlan({ ...options, detailedExitcode: true }, io())).toBe(EXIT.ok);
    expect(emulator.stats().byRoute).toEqual({
      'GET /api/v1/models': 1, // its model by name (the routine's topic needs no check: nothing creates it)
      'GET /api/v1/whoami': 1,
      'GET /api/scim/v2/users': 1, // grace's id
      'GET /api/v1/ai/routines': 1, // grace's routines; ada's are neither declared nor pruned
    });
  });
});

describe.each(PROFILES)('one user named, the others pruned (%s profile)', (profile) => {
  it('looks the one e-mail up by page 1 of the listing, which names the pruned users too: one SCIM request, not two', async () => {
    // The demo has four live limits (grace, linus, ken, analyst01) and fewer than 100 users.
    emulator = await startEmulator({ data: datasetSeed('demo'), port: 0, profile });
    const { io, options } = await workspace('version: 1\nuserCreditLimits:\n  - email: grace@acme.example\n    creditLimit: 750\nprune:\n  userCreditLimits: true', emulator);
    expect(await runPlan({ ...options, detailedExitcode: true }, io())).toBe(EXIT.destructive);
    expect(emulator.stats().byRoute).toEqual({
      'GET /api/v1/whoami': 1,
      'GET /api/v1/ai/credit-controls/users': 1,
      'GET /api/scim/v2/users': 1, // page 1: grace's id, and the e-mails of the three limits pruned
    });
  });

  it('queries the one e-mail when no undeclared limit is live: pruning names nobody', async () => {
    // 150 users sorted before grace push her off page 1; her limit is the only one live.
    const seed = datasetSeed('demo');
    seed.users.push(...Array.from({ length: 150 }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, email: `aa${String(i).padStart(3, '0')}@acme.example`, displayName: `AA ${i}`, role: 'MEMBER' as const })));
    seed.userCreditLimits = [{ user: 'grace@acme.example', creditLimit: 500 }];
    emulator = await startEmulator({ data: seed, port: 0, profile });
    const { io, options } = await workspace('version: 1\nuserCreditLimits:\n  - email: grace@acme.example\n    creditLimit: 750\nprune:\n  userCreditLimits: true', emulator);
    expect(await runPlan({ ...options, detailedExitcode: true }, io())).toBe(EXIT.changes);
    expect(emulator.stats().byRoute['GET /api/scim/v2/users']).toBe(1); // her query; page 1 would not hold her
  });
});
