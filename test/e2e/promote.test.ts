// Promotion against two emulators: `steward diff --env production --against playground` shows,
// as a plan with production's ids, what production would change to match playground's live
// state; `steward apply` of that plan converges, and refuses it once playground has changed.
// Every scenario runs against both emulator profiles (the two sides of gaps.md's open points).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { datasetSeed, type EmulatorProfile } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { Deployments, type EnvironmentName } from './deployments.js';
import { captureIo, creatorRoutineKey, creatorRoutineStepId, KEY_CREATOR, nameRoutineOwners, PROFILES } from './helpers.js';

let deployments: Deployments;
afterEach(async () => {
  await deployments.close();
});

/** Starts both deployments under `profile` before each test of the calling describe block. */
function startEach(profile: EmulatorProfile): void {
  beforeEach(async () => {
    deployments = await Deployments.start({ profile });
  });
}

/**
 * Changes a routine's schedule through the API, as someone in the app would: by PATCH, or by a
 * full PUT where the server updates routines by PUT only (other profile), naming the owner.
 */
async function changeSchedule(environment: EnvironmentName, name: string, schedule: string): Promise<number> {
  const emulator = deployments.emulator(environment);
  const routine = emulator.state.routines(KEY_CREATOR).find((candidate) => candidate.name === name)!;
  const path = `/api/v1/ai/routines/${routine.id}?userId=${emulator.state.userId(KEY_CREATOR)}`;
  // The documented PUT, which both profiles serve.
  return (await deployments.call(environment, 'PUT', path, { name: routine.name, prompt: routine.prompt, schedule })).status;
}

/**
 * The demo playground's objects that the gitops config does not declare: production prunes
 * undeclared objects, so a promotion leaves them to production's own plan, and says so.
 */
const UNDECLARED =
  'Warning: left to production\'s own plan: 5 objects playground has and the config does not declare (user credit limit "analyst01@acme.example"; entity group credit limit "embed-trial"; routine "Old experiment"; labels "legacy-kpis", "obsolete"); the config prunes undeclared ones, so a promotion neither creates nor deletes them (declare one to promote it)\n\n';

const PRODUCTION_MARKETING_MODEL = 'a3d9c1e7-2f4b-4e8a-b6c5-0d1e2f3a4b5c';

async function promotionPlan(): Promise<Plan> {
  const result = await deployments.diff({ json: true });
  expect(result.err).toBe('');
  return JSON.parse(result.out) as Plan;
}

/** Every document identifier of a deployment, read through the API as any client would. */
async function documentIdentifiers(environment: EnvironmentName): Promise<Set<string>> {
  const found = new Set<string>();
  let cursor: string | null = null;
  do {
    const response = await deployments.call(environment, 'GET', `/api/v1/documents?pageSize=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    const page = (await response.json()) as { records: { identifier: string }[]; pageInfo: { hasNextPage: boolean; nextCursor: string | null } };
    for (const record of page.records) found.add(record.identifier);
    cursor = page.pageInfo.hasNextPage ? page.pageInfo.nextCursor : null;
  } while (cursor !== null);
  return found;
}

/** Output with the emulators' ports, and the next runs (which depend on today), replaced. */
function stable(text: string): string {
  return text
    .replaceAll(deployments.production.url, 'http://production')
    .replaceAll(deployments.playground.url, 'http://playground')
    .replace(/^( +)next runs: .*$/gm, '$1next runs: …');
}

describe.each(PROFILES)('steward diff --against (promotion) (%s profile)', (profile) => {
  startEach(profile);

  it('finds nothing to change between the two demo deployments: their ids differ, their state does not', async () => {
    const result = await deployments.diff();
    expect(result.code).toBe(0);
    expect(stable(result.out).replace(UNDECLARED, '')).toMatch(
      /^steward promotion from playground \(http:\/\/playground\) to production \(http:\/\/production\)\n\nNo changes\. production matches the live state of playground\.\n\nPlanning made \d+ API requests\.\n$/,
    );
    // Each deployment's users and groups fit on page 1 of their listings: one request each, the
    // routine owners and the users of the live limits (and the groups named and pruned) together.
    for (const emulator of [deployments.playground, deployments.production]) {
      expect(emulator.stats().byRoute['GET /api/scim/v2/users']).toBe(1);
      expect(emulator.stats().byRoute['GET /api/scim/v2/groups']).toBe(1);
    }
    // Every read, on each side, is the fewest: one preflight whoami; each managed kind's listing
    // once (one page each here); the routines of the config's two owners, one listing each; the
    // 126 documents as one listing of 2 pages, cheaper than the 3 per-label queries; the folders as
    // one listing (their labels with it). Playground
    // names its routines' models from one listing; production looks up the config's 2 model
    // names (as its plan does). Nothing is created, so no model topics are read.
    const each = {
      'GET /api/v1/whoami': 1,
      'GET /api/v1/ai/credit-controls': 1,
      'GET /api/v1/ai/credit-controls/users': 1,
      'GET /api/v1/ai/credit-controls/user-groups': 1,
      'GET /api/v1/ai/credit-controls/entity-groups': 1,
      'GET /api/v1/labels': 1,
      'GET /api/v1/documents': 2,
      'GET /api/v1/folders': 1,
      'GET /api/v1/ai/routines': 2,
      'GET /api/scim/v2/users': 1,
      'GET /api/scim/v2/groups': 1,
    };
    expect(deployments.playground.stats().byRoute).toEqual({ ...each, 'GET /api/v1/models': 1 });
    expect(deployments.production.stats().byRoute).toEqual({ ...each, 'GET /api/v1/models': 1 });
  });

  it('shows exactly what was changed in playground, with production\'s ids', async () => {
    // GIVEN someone changes playground through the app: grace's limit, a label colour, a routine's schedule.
    const grace = deployments.playground.state.userId('grace@acme.example');
    for (const [method, path, body] of [
      ['PATCH', '/api/v1/ai/credit-controls/users', { users: [{ userId: grace, creditLimit: 650 }] }],
      ['PUT', '/api/v1/labels/marketing', { color: '#ff0000' }],
    ] as const) expect((await deployments.call('playground', method, path, body)).status).toBe(200);
    expect(await changeSchedule('playground', 'Weekly revenue digest', '0 7 ? * MON *')).toBe(200);

    // WHEN production is compared with playground, THEN the plan holds those three changes, nothing else.
    const result = await deployments.diff();
    expect(result.code).toBe(2);
    expect(stable(result.out).replace(/Planning made \d+/, 'Planning made N')).toBe(`steward promotion from playground (http://playground) to production (http://production)

${UNDECLARED}~   label "marketing"
      color: "#d73a4a" → "#ff0000"

~   user credit limit grace@acme.example: 500 → 650

~   routine "${creatorRoutineKey({ profile }, 'Weekly revenue digest')}"
      schedule: "0 9 ? * MON *" → "0 7 ? * MON *"
      next runs: …

Plan: 0 to add, 3 to change, 0 to replace, 0 to destroy.
Exposure (an estimate): unlimited credits per period, above the account's limit of 12,000
  individual limits: 4 users, unlimited · user group limits: 29 users, 2,900 credits · the default: 200 × 3 users, 600 credits
  rule: a user's own limit, else the highest limit among her groups, else the default (the vendor does not say how they combine)
Planning made N API requests.
`);
    const plan = await promotionPlan();
    const productionDigest = deployments.production.state.routines('ada@acme.example').find((routine) => routine.name === 'Weekly revenue digest')!;
    expect(plan.steps.map((step) => step.ref)).toEqual([
      { liveName: 'marketing' },
      { userId: deployments.production.state.userId('grace@acme.example') },
      // Every routine owner is passed as userId, the key's creator too (gaps.md: whenever the owner is known).
      { ownerId: deployments.production.state.userId(KEY_CREATOR), routineId: productionDigest.id },
    ]);
  });

  it('plans the gitops changes applied to playground for production, except what playground protects', async () => {
    // GIVEN the gitops example applied to playground (which protects its routines from pruning).
    expect((await deployments.apply('playground')).code).toBe(0);
    const gitops = JSON.parse((await deployments.plan('production', { json: true })).out) as Plan;
    const promotion = await promotionPlan();

    // THEN production's promotion plan is its gitops plan, except "Old experiment", still in playground.
    const summary = (plan: Plan) => plan.steps.map((step) => `${step.action} ${step.id}`);
    const oldExperiment = `delete ${creatorRoutineStepId({ profile }, deployments.production, 'Old experiment')}`;
    expect(summary(promotion)).toEqual(summary(gitops).filter((step) => step !== oldExperiment));
    expect(summary(gitops)).toContain(oldExperiment);
    expect(promotion.promotion).toEqual({ from: 'playground', fromBaseUrl: deployments.playground.url, sourceDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(promotion).toMatchObject({ environment: 'production', baseUrl: deployments.production.url, configDigest: gitops.configDigest });

    // AND it speaks production's ids: models, users and routines.
    const recap = promotion.steps.find((step) => step.id === creatorRoutineStepId({ profile }, deployments.production, 'Monthly marketing recap'));
    expect(recap).toMatchObject({ action: 'create', after: { modelId: PRODUCTION_MARKETING_MODEL } });
    const margaret = promotion.steps.find((step) => step.key === 'margaret@acme.example');
    expect(margaret?.ref).toEqual({ userId: deployments.production.state.userId('margaret@acme.example') });
    const pipeline = deployments.production.state.routines('ada@acme.example').find((routine) => routine.name === 'Daily pipeline check')!;
    expect(promotion.steps.find((step) => step.action === 'replace')?.ref).toEqual({ ownerId: deployments.production.state.userId(KEY_CREATOR), routineId: pipeline.id });
  });

  it('applies the promotion plan to production, after which production matches playground', async () => {
    expect((await deployments.apply('playground')).code).toBe(0);
    const planFile = join(deployments.gitops, 'promote.json');
    const made = await deployments.diff({ out: planFile });
    expect(made.code).toBe(3);
    // The follow-up command carries the options that reach the same config and instance.
    expect(made.err).toBe(
      `Saved the promotion plan to ${planFile}. Apply it with: steward apply --env production ${planFile} --config ${deployments.gitops} --base-url ${deployments.production.url}\n`,
    );
    expect(await readFile(planFile, 'utf8')).not.toContain('token');

    const applied = await deployments.apply('production', planFile);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('Apply: 25 done, 0 already applied, 0 failed, 0 skipped.');

    const again = await deployments.diff();
    expect(again.code).toBe(0);
    expect(again.out).toContain('No changes. production matches the live state of playground.');
    const recap = deployments.production.state.routines('ada@acme.example').find((routine) => routine.name === 'Monthly marketing recap');
    expect(recap?.modelId).toBe(PRODUCTION_MARKETING_MODEL);
    // The config's own plan for production now only prunes what playground kept.
    const plan = JSON.parse((await deployments.plan('production', { json: true })).out) as Plan;
    expect(plan.steps.map((step) => `${step.action} ${step.id}`)).toEqual([`delete ${creatorRoutineStepId({ profile }, deployments.production, 'Old experiment')}`]);
  });

  it('says a deletion comes from the source, not from the config', async () => {
    const digest = deployments.playground.state.routines().find((routine) => routine.name === 'Weekly revenue digest')!;
    await deployments.call('playground', 'DELETE', `/api/v1/ai/routines/${digest.id}?userId=${deployments.playground.state.userId(KEY_CREATOR)}`);
    const result = await deployments.diff();
    expect(result.out).toContain(`-   routine "${creatorRoutineKey({ profile }, 'Weekly revenue digest')}" (not in playground)`);
    expect(result.out).not.toContain('not in the config');
  });

  it('writes the Markdown plan to a file, as the CI recipe does, and prints the plan', async () => {
    await deployments.call('playground', 'PUT', '/api/v1/labels/finance', { description: 'Owned by finance' });
    const summaryFile = join(deployments.gitops, 'summary.md');
    await writeFile(summaryFile, '');
    const result = await deployments.diff({ markdown: summaryFile, detailedExitcode: false });
    expect(result.code).toBe(0);
    expect(result.out).toContain('~   label "finance"\n      description: "Finance-owned content" → "Owned by finance"\n');
    const markdown = await readFile(summaryFile, 'utf8');
    expect(markdown).toMatch(/^### steward promotion from `playground` to `production`\n/);
    expect(markdown).toContain('**Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.**');
  });

  it('accepts the command line of the CI recipe', async () => {
    const summaryFile = join(deployments.gitops, 'summary.md');
    const io = captureIo(deployments.env, deployments.gitops);
    const program = buildProgram(() => io).exitOverride();
    await program.parseAsync(
      ['diff', '--config', deployments.gitops, '--env', 'production', '--against', 'playground', '--markdown', summaryFile,
        '--base-url', deployments.production.url, '--against-base-url', deployments.playground.url],
      { from: 'user' },
    );
    expect(process.exitCode).toBe(0);
    process.exitCode = undefined;
    expect(await readFile(summaryFile, 'utf8')).toContain('**No changes.** production matches the live state of playground.');
  });
});

describe.each(PROFILES)('document links across deployments (%s profile)', (profile) => {
  it('a label-only config never proposes a document link, and reads no documents for it', async () => {
    deployments = await Deployments.start({ profile });
    // GIVEN a config that manages labels (and prunes them) but no label's documents, and
    // playground, where someone put marketing on another document than in production.
    const directory = await deployments.besideEnvironments('version: 1\nlabels:\n  - name: marketing\n    color: "#d73a4a"\nprune:\n  labels: true\n');
    expect((await deployments.call('playground', 'PUT', '/api/v1/documents/7c6b5a49/labels/marketing')).status).toBe(204);
    // WHEN production is compared with playground, THEN there is nothing to do: links are not managed.
    const result = await deployments.diff({ config: directory, json: true });
    expect(result.err).toBe('');
    const plan = JSON.parse(result.out) as Plan;
    expect(plan.steps.filter((step) => step.kind === 'documentLabels')).toEqual([]);
    expect(plan.steps).toEqual([]);
    expect(deployments.playground.stats().byRoute['GET /api/v1/documents']).toBeUndefined();
    expect(deployments.production.stats().byRoute['GET /api/v1/documents']).toBeUndefined();
  });

  it('between the demo deployments with their own document identifiers: warns about each missing document, never writes to one, and converges', async () => {
    // GIVEN a playground whose documents have identifiers of their own (gaps.md: OPEN).
    deployments = await Deployments.start({ profile }, { documentIdentifiers: 'per-deployment' });
    const identifiers = { production: await documentIdentifiers('production'), playground: await documentIdentifiers('playground') };
    const known = (environment: EnvironmentName) => identifiers[environment];
    // The gitops config names production's identifiers: in playground its plan warns instead of failing.
    const playgroundPlan = JSON.parse((await deployments.plan('playground', { json: true })).out) as Plan;
    const missingInPlayground = playgroundPlan.warnings.filter((warning) => warning.code === 'documentLabels.missing-document');
    expect(missingInPlayground.map((warning) => warning.message.split(' ')[1]).sort()).toEqual(['3a9b7c6d', '5e4d3c2b', '8f2e1d4c', '9d8e7f60']);
    expect(playgroundPlan.steps.filter((step) => step.kind === 'documentLabels' && !known('playground').has(step.ref.document!))).toEqual([]);
    expect((await deployments.apply('playground')).code).toBe(0);
    expect(deployments.playground.stats().byStatus['404']).toBeUndefined();

    // WHEN production is promoted from playground
    const planFile = join(deployments.gitops, 'promote.json');
    const made = await deployments.diff({ out: planFile });
    const plan = JSON.parse(await readFile(planFile, 'utf8')) as Plan;
    const missing = plan.warnings.filter((warning) => warning.code === 'documentLabels.missing-document');
    expect(missing.length).toBeGreaterThan(0);
    for (const warning of missing) {
      const document = warning.message.split(' ')[1]!;
      expect(known('production').has(document)).toBe(false);
      expect(made.out).toContain(`Warning: ${warning.message}`);
    }
    // THEN no step names a document production lacks, apply succeeds without a 404, and it converges.
    expect(plan.steps.filter((step) => step.kind === 'documentLabels' && !known('production').has(step.ref.document!))).toEqual([]);
    const applied = await deployments.apply('production', planFile);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(deployments.production.stats().byStatus['404']).toBeUndefined();
    const again = await deployments.diff();
    expect(again.code).toBe(0);
    expect(again.out).toContain('No changes. production matches the live state of playground.');
  });
});

describe.each(PROFILES)('routine owners in a promotion (%s profile)', (profile) => {
  it('does not warn that the key\'s own user has no routines when the config names her as owner', async () => {
    deployments = await Deployments.start({ profile });
    await nameRoutineOwners(deployments.gitops);
    const result = await deployments.diff({ json: true });
    expect(result.err).toBe('');
    const plan = JSON.parse(result.out) as Plan;
    expect(plan.warnings.map((warning) => warning.code)).toEqual(['promote.undeclared']);
    expect(plan.steps).toEqual([]);
  });
});

describe.each(PROFILES)('applying a promotion plan (%s profile)', (profile) => {
  startEach(profile);

  async function savedPlan(): Promise<string> {
    await deployments.call('playground', 'PUT', '/api/v1/labels/marketing', { color: '#ff0000' });
    const planFile = join(deployments.gitops, 'promote.json');
    expect((await deployments.diff({ out: planFile })).code).toBe(2);
    return planFile;
  }

  it('refuses it once playground has changed, and writes nothing', async () => {
    const planFile = await savedPlan();
    await deployments.call('playground', 'PUT', '/api/v1/labels/finance', { color: '#000000' });
    const result = await deployments.apply('production', planFile);
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      'Error: playground has changed since this promotion plan was made; nothing was applied\nHint: make a new one: steward diff --env production --against playground --out FILE\n',
    );
    expect(deployments.production.stats().writes).toBe(0);
  });

  it('refuses it when the config has changed', async () => {
    const planFile = await savedPlan();
    await deployments.editEnvironments((text) => text.replace('requestsPerMinute: 6000', 'requestsPerMinute: 5000'));
    const result = await deployments.apply('production', planFile);
    expect(result.code).toBe(1);
    expect(result.err).toContain('the configuration has changed since this plan was made');
  });

  it('sends playground\'s token to no address only the plan file names', async () => {
    const planFile = await savedPlan();
    const plan = JSON.parse(await readFile(planFile, 'utf8')) as Plan;
    await writeFile(planFile, JSON.stringify({ ...plan, promotion: { ...plan.promotion, fromBaseUrl: 'https://collector.example.net' } }));
    const before = deployments.playground.stats().requests;
    const result = await deployments.apply('production', planFile);
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      "Error: this promotion plan read playground at https://collector.example.net, which is neither playground's baseUrl (https://acme-playground.example.com) nor this machine; playground's API token is not sent to an address only the plan file names\n" +
        'Hint: make the promotion plan against https://acme-playground.example.com: steward diff --env production --against playground --out FILE\n',
    );
    expect(deployments.playground.stats().requests).toBe(before);
    expect(deployments.production.stats().writes).toBe(0);
  });

  it('needs the playground token too, to check that playground has not changed', async () => {
    const planFile = await savedPlan();
    deployments.env = { STEWARD_PRODUCTION_TOKEN: deployments.env.STEWARD_PRODUCTION_TOKEN };
    const result = await deployments.apply('production', planFile);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      'this is a promotion plan from playground, which apply reads again to check it has not changed; the environment variable STEWARD_PLAYGROUND_TOKEN is not set',
    );
    expect(deployments.production.stats().writes).toBe(0);
  });
});

describe.each(PROFILES)('promotion errors (%s profile)', (profile) => {
  startEach(profile);

  it('names an unknown source environment, with a suggestion', async () => {
    const result = await deployments.diff({ against: 'playgrond' });
    expect(result.code).toBe(1);
    expect(result.err).toBe('Error: --against playgrond: unknown environment; this configuration declares `production` and `playground`\nHint: did you mean `playground`?\n');
  });

  it('refuses to compare an environment with itself', async () => {
    const result = await deployments.diff({ against: 'production' });
    expect(result.code).toBe(1);
    expect(result.err).toContain('--against production names the environment being planned; a promotion compares two environments');
  });

  it('says which variable should hold the source\'s token, before any request', async () => {
    deployments.env = { STEWARD_PRODUCTION_TOKEN: deployments.env.STEWARD_PRODUCTION_TOKEN };
    const result = await deployments.diff();
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      'Error: the environment variable STEWARD_PLAYGROUND_TOKEN is not set; it holds the API token for environment "playground"\nHint: export STEWARD_PLAYGROUND_TOKEN=<token> (in CI, from a secret)\n',
    );
    expect(deployments.production.stats().requests + deployments.playground.stats().requests).toBe(0);
  });

  it('names the routine whose model the target does not have by that name', async () => {
    // GIVEN a playground whose marketing model has another name than production's.
    const seed = datasetSeed('demo-playground');
    seed.models = seed.models!.map((model) => (model.name === 'Marketing' ? { ...model, name: 'Marketing (playground)' } : model));
    await deployments.close();
    deployments = await Deployments.start({ profile }, { data: seed });
    // Declared, so the promotion carries it (production prunes undeclared routines, so one the config lacks stays home).
    const routines = join(deployments.gitops, 'routines.yaml');
    await writeFile(routines, (await readFile(routines, 'utf8')).replace(/\nprune:/, `
  - name: Old experiment
    owner: ${KEY_CREATOR}
    prompt: Compare campaign spend month over month.
    schedule: "0 6 1 * ? *"
    timezone: UTC
    model: Marketing
    destination: { type: email, recipientEmails: [${KEY_CREATOR}] }

prune:`));
    const result = await deployments.diff();
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error: .*routines\.yaml:\d+:\d+: routine "Old experiment": model "Marketing \(playground\)" is not a shared model of this deployment; its shared models: "Marketing", "Sales"\n/);
    expect(deployments.production.stats().writes).toBe(0);
  });

  it('prints errors as the JSON envelope with --json', async () => {
    const result = await deployments.diff({ against: 'playgrond', json: true });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toEqual({
      error: { code: 'promote.unknown-environment', fault: 'user', message: '--against playgrond: unknown environment; this configuration declares `production` and `playground`', hint: 'did you mean `playground`?' },
    });
  });
});
