// `apply PLANFILE` reuses what the plan resolved: users by e-mail (declared, routine owners, and
// those a pruned limit only shows), user groups by name, models, branches and topics by name. It
// reads the live state again, by those ids, so a changed object is still stale, and an id that no
// longer exists fails its write; nothing goes to another object. The ids are reused only when the
// file's seal verifies under the applying key; an older, trimmed or foreign file resolves the
// names it lacks again, and a malformed section is refused before any request.
import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { datasetSeed, startEmulator, type EmulatorProfile, type EmulatorState, type RunningEmulator } from '../../src/emulator/index.js';
import { sealIdentities } from '../../src/engine/planFile.js';
import type { Plan } from '../../src/model/plan.js';
import { PRODUCTION_ENVIRONMENTS, PRODUCTION_TOKEN, PROFILES, Steward } from './helpers.js';


// Against the demo dataset: grace has a limit of 500; linus, ken and analyst01 have limits the
// config does not declare (pruned, shown by e-mail); Finance has no group limit; margaret has no routines.
const CONFIG = `version: 1
userCreditLimits:
  - email: grace@acme.example
    creditLimit: 750
  - email: Margaret@acme.example
    creditLimit: 300
  - email: barbara@acme.example
    creditLimit: 300
userGroupCreditLimits:
  - group: Finance
    creditLimit: 1500
routines:
  - name: Margaret's forecast
    owner: margaret@acme.example
    prompt: Summarise the forecast branch's pipeline.
    schedule: "0 8 ? * MON *"
    timezone: UTC
    model: Sales
    branch: forecast-v2
    topicName: orders
    destination:
      type: email
      recipientEmails: [margaret@acme.example]
prune:
  userCreditLimits: true
`;

/** What resolving names costs: SCIM users and groups, models by name and their topics. */
const RESOLUTION_ROUTES = ['GET /api/scim/v2/users', 'GET /api/scim/v2/groups', 'GET /api/v1/models', 'GET /api/v1/models/{modelId}/topic'];

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()));
});

/** steward with CONFIG against a demo emulator (its state kept in a file when `statePath` is given). */
async function stewardFor(profile: EmulatorProfile, statePath?: string): Promise<Steward> {
  const emulator = await startEmulator({ dataset: 'demo', profile, ...(statePath === undefined ? {} : { statePath }) });
  emulators.push(emulator);
  const directory = await mkdtemp(join(tmpdir(), 'steward-saved-identities-'));
  await writeFile(join(directory, 'environments.yaml'), PRODUCTION_ENVIRONMENTS);
  await writeFile(join(directory, 'steward.yaml'), CONFIG);
  return new Steward(emulator, directory);
}

/** The requests per route `run` made, resolution routes included even when none was made. */
async function requestsOf(emulator: RunningEmulator, run: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = emulator.stats().byRoute;
  await run();
  const after = emulator.stats().byRoute;
  const routes = new Set([...Object.keys(after), ...RESOLUTION_ROUTES]);
  return Object.fromEntries([...routes].map((route) => [route, (after[route] ?? 0) - (before[route] ?? 0)]).filter(([route, count]) => count !== 0 || RESOLUTION_ROUTES.includes(route as string)));
}

const planPath = (steward: Steward) => join(steward.directory, 'plan.json');
const readPlan = async (steward: Steward) => JSON.parse(await readFile(planPath(steward), 'utf8')) as Plan;
const writePlan = async (steward: Steward, plan: unknown) => writeFile(planPath(steward), JSON.stringify(plan, null, 2));

describe.each(PROFILES)('apply PLANFILE reuses the ids the plan resolved (%s profile)', (profile) => {
  it('records users, groups and models in the plan file, sealed, with no token in it', async () => {
    const steward = await stewardFor(profile);
    expect((await steward.plan({ out: 'plan.json' })).code).toBe(EXIT.destructive);
    const text = await readFile(planPath(steward), 'utf8');
    expect(text).not.toContain(PRODUCTION_TOKEN);
    const { identities, steps } = JSON.parse(text) as Plan;
    const id = (email: string) => steward.emulator.state.userId(email);
    const seed = datasetSeed('demo');
    expect(new Map(identities!.users.map((user) => [user.email, user.id]))).toEqual(
      new Map(['grace', 'margaret', 'barbara', 'linus', 'ken', 'analyst01'].map((local) => [`${local}@acme.example`, id(`${local}@acme.example`)])),
    );
    expect(identities!.groups).toEqual([{ name: 'Finance', id: seed.groups!.find((group) => group.displayName === 'Finance')!.id }]);
    const sales = seed.models!.find((model) => model.name === 'Sales')!;
    expect(identities!.models).toEqual([{ id: sales.id, name: 'Sales', branches: sales.branches, topics: ['orders'] }]);
    expect(identities!.seal).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    // The pruned limits are shown by the e-mails recorded.
    expect(steps.filter((step) => step.reason?.startsWith('pruned')).map((step) => step.key).sort()).toEqual(['analyst01@acme.example', 'ken@acme.example', 'linus@acme.example']);
  });

  it('makes no SCIM or models request, only the live reads, the whoami preflight, the created routine\'s topics and the writes; then plans nothing', async () => {
    const steward = await stewardFor(profile);
    let plannedOut = '';
    const planned = await requestsOf(steward.emulator, async () => {
      const result = await steward.plan({ out: 'plan.json' });
      expect(result.code).toBe(EXIT.destructive);
      plannedOut = result.out;
    });
    // The plan resolved: the org's users (one SCIM page), Finance, Sales by name and its topics.
    expect(Object.fromEntries(RESOLUTION_ROUTES.map((route) => [route, planned[route]]))).toEqual({
      'GET /api/scim/v2/users': 1,
      'GET /api/scim/v2/groups': 1,
      'GET /api/v1/models': 1,
      'GET /api/v1/models/{modelId}/topic': 1,
    });

    let result: Awaited<ReturnType<Steward['apply']>> | undefined;
    const applied = await requestsOf(steward.emulator, async () => (result = await steward.apply('plan.json')));
    expect(result!.err).toBe('');
    expect(result!.code).toBe(0);
    const liveReads = Object.fromEntries(Object.entries(planned).filter(([route]) => !RESOLUTION_ROUTES.includes(route)));
    expect(applied).toEqual({
      ...liveReads, // whoami, the user and user group limits, margaret's routines
      'GET /api/v1/ai/routines': 2, // and her routines once more after the create, to settle a race (routineRaces.ts)
      'GET /api/scim/v2/users': 0,
      'GET /api/scim/v2/groups': 0,
      'GET /api/v1/models': 0,
      'GET /api/v1/models/{modelId}/topic': 1, // checked again before the routine is created: a topic is not an id
      'PATCH /api/v1/ai/credit-controls/users': 1, // 3 sets and 3 resets in one bulk PATCH
      'PATCH /api/v1/ai/credit-controls/user-groups': 1,
      'POST /api/v1/ai/routines': 1,
    });
    expect(liveReads).toEqual({
      'GET /api/v1/whoami': 1,
      'GET /api/v1/ai/credit-controls/users': 1,
      'GET /api/v1/ai/credit-controls/user-groups': 1,
      'GET /api/v1/ai/routines': 1,
    });
    // The plan's estimate of applying the saved file counts what the apply made.
    const made = Object.values(applied).reduce((sum, count) => sum + count, 0);
    expect(plannedOut).toContain(`Applying makes about ${made} requests`);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });

  it('applies a plan file without identities, or with some of them, resolving only what it lacks; both converge', async () => {
    for (const trim of ['all', 'groups and models'] as const) {
      const steward = await stewardFor(profile);
      expect((await steward.plan({ out: 'plan.json' })).code).toBe(EXIT.destructive);
      const plan = await readPlan(steward);
      if (trim === 'all') delete plan.identities;
      else {
        plan.identities = { ...plan.identities!, groups: [], models: [] };
        plan.identities.seal = sealIdentities(plan, PRODUCTION_TOKEN);
      }
      await writePlan(steward, plan);

      let result: Awaited<ReturnType<Steward['apply']>> | undefined;
      const applied = await requestsOf(steward.emulator, async () => (result = await steward.apply('plan.json')));
      expect(result!.err, trim).toBe('');
      expect(result!.code, trim).toBe(0);
      expect(Object.fromEntries(RESOLUTION_ROUTES.map((route) => [route, applied[route]])), trim).toEqual({
        'GET /api/scim/v2/users': trim === 'all' ? 1 : 0,
        'GET /api/scim/v2/groups': 1,
        'GET /api/v1/models': 1,
        // The topics of the routine the plan creates are checked again before anything is written.
        'GET /api/v1/models/{modelId}/topic': 1,
      });
      expect((await steward.plan()).code, trim).toBe(EXIT.ok);
    }
  });
});

/** The emulator's state file, edited as another process would (a new file renamed over it). */
async function editState(statePath: string, edit: (state: EmulatorState) => void): Promise<void> {
  const file = JSON.parse(await readFile(statePath, 'utf8')) as { state: EmulatorState };
  edit(file.state);
  await writeFile(`${statePath}.edit`, JSON.stringify(file));
  await rename(`${statePath}.edit`, statePath);
}

/** A user deleted and invited again: same e-mail, a new id, none of the old limits. */
function reinvite(state: EmulatorState, email: string, newId: string): void {
  const user = state.users.find((candidate) => candidate.email === email)!;
  delete state.userCreditLimits[user.id];
  state.users = [...state.users.filter((candidate) => candidate !== user), { ...user, id: newId }];
}

/** steward with its emulator's state in a file (edited between plan and apply), and a saved plan of `config` (default: CONFIG) made. */
async function plannedWithState(profile: EmulatorProfile, config?: string): Promise<{ steward: Steward; statePath: string }> {
  const statePath = join(await mkdtemp(join(tmpdir(), 'steward-saved-identities-state-')), 'state.json');
  const steward = await stewardFor(profile, statePath);
  if (config !== undefined) await writeFile(join(steward.directory, 'steward.yaml'), config);
  // The state file exists from the first write on; a reset writes it.
  steward.emulator.reset();
  expect((await steward.plan({ out: 'plan.json' })).code).toBeGreaterThanOrEqual(EXIT.changes);
  return { steward, statePath };
}

const NEW_ID = '00000000-0000-4000-8000-0000000000aa';

describe.each(PROFILES)('a changed identity between plan and apply PLANFILE (%s profile)', (profile) => {
  const planned = (config: string) => plannedWithState(profile, config);

  const limitsOnly = CONFIG.slice(0, CONFIG.indexOf('userGroupCreditLimits:'));

  it('a user re-invited since the plan whose limit it changes: the step is stale, nothing is written', async () => {
    const { steward, statePath } = await planned(limitsOnly);
    await editState(statePath, (state) => reinvite(state, 'grace@acme.example', NEW_ID));
    const writes = steward.emulator.stats().writes;

    const refused = await steward.apply('plan.json');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('The plan is stale: 1 object changed since it was made. Nothing was applied.');
    expect(refused.err).toContain('grace@acme.example');
    expect(steward.emulator.stats().writes).toBe(writes);

    // A new plan finds her by her new id.
    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.userCreditLimits().find((limit) => limit.userId === NEW_ID)?.creditLimit).toBe(750);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });

  it('a user re-invited since the plan whose limit it creates: the server refuses the old id and the whole batch, nothing is written', async () => {
    const { steward, statePath } = await planned(limitsOnly);
    const before = steward.emulator.state.userCreditLimits();
    await editState(statePath, (state) => reinvite(state, 'margaret@acme.example', NEW_ID));

    const failed = await steward.apply('plan.json');
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('User not found');
    expect(steward.emulator.state.userCreditLimits()).toEqual(before);

    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.userCreditLimits().find((limit) => limit.userId === NEW_ID)?.creditLimit).toBe(300);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });

  it('a routine owner re-invited since the plan: reading her routines by the old id fails before anything is written', async () => {
    const { steward, statePath } = await planned(CONFIG);
    await editState(statePath, (state) => reinvite(state, 'margaret@acme.example', NEW_ID));
    const writes = steward.emulator.stats().writes;

    const failed = await steward.apply('plan.json', { json: true });
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.out)).toMatchObject({
      error: { code: 'plan.stale-identity', message: expect.stringContaining('404 User not found; an id this plan resolved no longer exists, so nothing was applied') },
    });
    expect(steward.emulator.stats().writes).toBe(writes);

    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.routines('margaret@acme.example').map((routine) => routine.name)).toEqual(["Margaret's forecast"]);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });
});

describe.each(PROFILES)('a model replaced between plan and apply PLANFILE (%s profile)', (profile) => {
  it('whoami\'s check of the saved model id answers 404: the plan is refused as stale, nothing is written', async () => {
    const { steward, statePath } = await plannedWithState(profile);
    // "Sales" deleted and made again: same name, new id.
    await editState(statePath, (state) => {
      const sales = state.models.find((model) => model.name === 'Sales')!;
      state.models = [...state.models.filter((model) => model !== sales), { ...sales, id: '00000000-0000-4000-8000-0000000000bb' }];
    });
    const writes = steward.emulator.stats().writes;

    const refused = await steward.apply('plan.json', { json: true });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toMatchObject({ error: { code: 'plan.stale-identity', message: expect.stringContaining('an id this plan resolved no longer exists, so nothing was applied') } });
    expect(steward.emulator.stats().writes).toBe(writes);

    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.routines('margaret@acme.example').map((routine) => routine.modelId)).toEqual(['00000000-0000-4000-8000-0000000000bb']);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });
});

describe.each(PROFILES)('a plan file whose identities cannot be trusted (%s profile)', (profile) => {
  it('refuses a malformed identities section before any request, naming the field', async () => {
    const steward = await stewardFor(profile);
    expect((await steward.plan({ out: 'plan.json' })).code).toBe(EXIT.destructive);
    const plan = await readPlan(steward);
    const identities = plan.identities!;
    const malformed: [unknown, string][] = [
      ['Finance', 'identities must be an object'],
      [{ ...identities, users: { 'grace@acme.example': 'x' } }, 'identities.users must be an array'],
      [{ ...identities, users: [{ email: 'grace@acme.example', id: 7 }] }, 'identities.users[0].id must be a non-empty string'],
      [{ ...identities, users: [{ email: 'grace@acme.example', id: 'a' }, { email: 'GRACE@acme.example', id: 'b' }] }, 'identities.users[1] gives e-mail GRACE@acme.example two ids (a and b)'],
      [{ ...identities, groups: [{ name: 'Finance', id: 'a' }, { name: 'Finance', id: 'b' }] }, 'identities.groups[1] gives user group "Finance" two ids (a and b)'],
      [{ ...identities, models: [{ ...identities.models[0]!, topics: [3] }] }, 'identities.models[0].topics must be an array of non-empty strings'],
      [{ ...identities, models: [{ ...identities.models[0]!, branches: [{ name: 'forecast-v2' }] }] }, 'identities.models[0].branches[0].id must be a non-empty string'],
      [{ ...identities, seal: 'sha1:abc' }, 'identities.seal must be `hmac-sha256:` and 64 hex digits'],
    ];
    const requests = steward.emulator.stats().requests;
    for (const [section, message] of malformed) {
      await writePlan(steward, { ...plan, identities: section });
      const refused = await steward.apply('plan.json', { json: true });
      expect(refused.code, message).toBe(1);
      expect(JSON.parse(refused.out), message).toMatchObject({ error: { code: 'plan-file.invalid', message: `${planPath(steward)} is not a well-formed steward plan file: ${message}` } });
    }
    expect(steward.emulator.stats().requests).toBe(requests);
  });

  it('does not reuse ids edited after the plan: the seal fails, the names are resolved again, and the edited steps are refused', async () => {
    const steward = await stewardFor(profile);
    expect((await steward.plan({ out: 'plan.json' })).code).toBe(EXIT.destructive);
    // GIVEN an artifact edited consistently: margaret's new limit aimed at barbara's id, ids and steps alike
    const plan = await readPlan(steward);
    const margaret = steward.emulator.state.userId('margaret@acme.example');
    const barbara = steward.emulator.state.userId('barbara@acme.example');
    const swap = (id: string) => (id === margaret ? barbara : id === barbara ? margaret : id);
    plan.identities!.users = plan.identities!.users.map((user) => ({ ...user, id: swap(user.id) }));
    plan.steps = plan.steps.map((step) => (step.kind === 'userCreditLimits' ? { ...step, id: `userCreditLimits/${swap(step.ref.userId!)}`, ref: { userId: swap(step.ref.userId!) } } : step));
    await writePlan(steward, plan);

    const refused = await steward.apply('plan.json', { json: true });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("The plan file's resolved ids are not reused: their seal does not match this API key (the plan was made with another key, or the file was edited). Users, groups and models are resolved again.");
    expect(JSON.parse(refused.out)).toMatchObject({ error: { code: 'plan-file.unfounded' } });
    expect(steward.emulator.stats().writes).toBe(0);
  });

  it('resolves the names again for a plan sealed with another API key, and applies it', async () => {
    const steward = await stewardFor(profile);
    expect((await steward.plan({ out: 'plan.json' })).code).toBe(EXIT.destructive);
    const plan = await readPlan(steward);
    plan.identities!.seal = sealIdentities(plan, 'the-key-that-made-the-plan');
    await writePlan(steward, plan);

    let result: Awaited<ReturnType<Steward['apply']>> | undefined;
    const applied = await requestsOf(steward.emulator, async () => (result = await steward.apply('plan.json')));
    expect(result!.code).toBe(0);
    expect(result!.err).toContain('their seal does not match this API key');
    expect(applied['GET /api/scim/v2/users']).toBe(1);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });
});

describe.each(PROFILES)('a topic taken off its model between plan and apply PLANFILE (%s profile)', (profile) => {
  it('is found before anything is written, at the routine\'s position, though the file holds the model', async () => {
    const { steward, statePath } = await plannedWithState(profile);
    await editState(statePath, (state) => {
      const sales = state.models.find((model) => model.name === 'Sales')!;
      sales.topics = sales.topics.filter((topic) => topic !== 'orders');
    });
    const writes = steward.emulator.stats().writes;

    const refused = await steward.apply('plan.json');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/steward\.yaml:\d+:\d+: routine "Margaret's forecast": topic "orders" is not a topic of model "Sales"/);
    expect(steward.emulator.stats().writes).toBe(writes);
  });
});
