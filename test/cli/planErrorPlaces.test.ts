// Every error `steward plan` raises about the configuration, once it has loaded, says where: the
// printed error starts with the `file:line:col` of the object or field it is about, and carries the
// suggestion where the deployment offers one (a did-you-mean, the live value). The codes are read
// from the planner's source, so a new one cannot ship without a scenario here, or a line in
// NO_PLACE saying why the configuration is not where it is fixed. Each scenario runs through the
// real program against the emulator, in both profiles.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../e2e/helpers.js';
import { ROOT } from '../docs/markdown.js';
import { ADA, demo, expectPlaced, PIPELINE_CHECK, planScenario, routine, scratch, twoUsersNamed, type PlaceScenario } from './places.js';

/** Where the errors a plan can raise after loading its configuration are made. */
const PLANNER_SOURCES = ['src/resolve', 'src/kinds', 'src/engine', 'src/policy', 'src/config/declared.ts', 'src/cli/plan.ts', 'src/cli/context.ts', 'src/app'];

/**
 * The error codes made there that have no place in the configuration, each with the reason. Errors
 * of src/api (a token refused, a server unreachable or answering out of shape) are not made there:
 * their place is the network, the key or the server.
 */
const NO_PLACE: Record<string, string> = {
  'plan.scim-user-ids': "the instance's SCIM lists users under other ids than the credit-limit API: no declaration is wrong (fault: server)",
  'auth.missing-token': 'the token variable the environment names is unset in the shell or CI: fixed there, not in the config',
  'config.invalid': 'stands for the diagnostics printed above it, each at its own file:line:col',
  'config.invalid-option': 'a request timeout given on the command line or in STEWARD_REQUEST_TIMEOUT',
  'cli.options': 'two options that exclude each other: the command line is its place',
  'cli.target': '--target/--exclude names what the config lacks: the command line is its place (with a did-you-mean)',
  'cli.override-policy': 'apply only; --override-policy names no rule: the command line is its place',
  'policy.violated': 'apply only; plan prints each violation with the file:line:col of its rule',
  'plan-file.base-url': 'apply FILE: a saved plan made elsewhere; the file is its place',
  'plan-file.config-changed': 'apply FILE: the configuration changed since the plan',
  'plan-file.environment': 'apply FILE: made for another environment',
  'plan-file.invalid': 'apply FILE: the file is malformed',
  'plan-file.step': 'apply FILE: an edited step',
  'plan-file.unfounded': 'apply FILE: an edited step',
  'plan-file.unreadable': 'apply FILE: the file cannot be read',
  'plan-file.unwritable': 'plan --out: the file cannot be written',
  'plan-file.version': 'apply FILE: another format',
  'apply.cannot-pause': 'apply only: a write the server refused',
  'apply.invalid-step': 'apply only: a step that cannot be carried out',
  'apply.no-patch': "apply only: the server lacks PATCH (`routineUpdate: patch` is the environment's, named in the message)",
  'apply.no-put': 'apply only: the server refuses the documented PUT',
  'apply.not-sent': 'apply only: interrupted',
  'apply.not-taken': 'apply only: the server answered another value',
  'apply.outcome-unknown': 'apply only: a write whose answer was lost',
  'apply.race-unchecked': 'apply only: a listing failed after creating routines',
  'apply.routine-missing': 'apply only: a routine gone since the plan',
  'plan.stale': 'apply FILE: an object changed live since the plan (an entry expired since points at each `until`: test/e2e/until.test.ts)',
  'plan.stale-identity': 'apply FILE: a user, group or model the plan resolved is gone from the deployment',
  'export.duplicate-routine': "export only: two live routines of one owner share a name; the live state is its place, there is no config yet",
  'promote.unnamed-user': "diff only: a user in the source's live state has no e-mail to name it by",
  'promote.unmapped-id': "diff only: an id in the source's live state that no variable maps to the target's; the variable to declare is not in the config yet",
  'promote.ambiguous-id': "diff only: variables that hold one id of the source's live state map it to different ids of the target, each named in the message",
  'promote.unmapped-group': "diff only: a user group in the source's live state that SCIM does not name and no variable maps; the variable to declare is not in the config yet",
  'internal.unresolved-email': "steward's own fault (fault: tool)",
  'internal.unresolved-model': "steward's own fault (fault: tool)",
};

/** The families of error codes; codes of other families in these files are warnings' or settings'. */
const ERROR_FAMILY = /^(plan|preflight|plan-file|apply|cli|policy|internal|auth|config|api)\./;
const CODE = /'([a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*)'/g;

function files(path: string): string[] {
  if (path.endsWith('.ts')) return [path];
  return readdirSync(join(ROOT, path), { withFileTypes: true }).flatMap((entry) => files(join(path, entry.name)));
}

/** Every error code the planner's sources make: those of an error family, and any a StewardError is made with. */
function plannerCodes(): Set<string> {
  const codes = new Set<string>();
  for (const file of PLANNER_SOURCES.flatMap(files)) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      const makesError = /StewardError\(/.test(line) || /StewardError\(\s*$/.test(lines[index - 1] ?? '');
      for (const [, code] of line.matchAll(CODE)) if (ERROR_FAMILY.test(code!) || makesError) codes.add(code!);
    });
  }
  return codes;
}

const SCENARIOS: PlaceScenario[] = [
  {
    code: 'plan.unknown-user',
    what: 'an e-mail that is no user',
    yaml: 'userCreditLimits:\n  - email: grase@acme.example\n    creditLimit: 100\n',
    at: 'email: grase@',
    suggestion: 'did you mean grace@acme.example?',
  },
  {
    code: 'plan.unknown-user',
    what: 'a user id that is no user',
    yaml: 'userCreditLimits:\n  - userId: 00000000-0000-4000-8000-0000000000aa\n    creditLimit: 100\n',
    at: 'userId: 0000',
  },
  {
    code: 'plan.ambiguous-user',
    what: 'an e-mail two SCIM users have as userName',
    yaml: 'userCreditLimits:\n  - email: grace@acme.example\n    creditLimit: 100\n',
    at: 'email: grace@',
    intercept: twoUsersNamed('grace@acme.example'),
  },
  {
    code: 'plan.duplicate-user',
    what: 'one user by e-mail and by id',
    yaml: `userCreditLimits:\n  - email: ${ADA}\n    creditLimit: 100\n  - userId: 3f1c9a7e-5b2d-4e8f-9a6c-1d0e2f3a4b01\n    creditLimit: 50\n`,
    at: 'userId: 3f1c',
  },
  {
    code: 'plan.unknown-group',
    what: 'a group no SCIM group is named',
    yaml: 'userGroupCreditLimits:\n  - group: Finanse\n    creditLimit: 100\n',
    at: 'group: Finanse',
    suggestion: 'did you mean "Finance"?',
  },
  {
    code: 'plan.ambiguous-group',
    what: 'a group two SCIM groups are named',
    yaml: 'userGroupCreditLimits:\n  - group: Finance\n    creditLimit: 100\n',
    at: 'group: Finance',
    emulator: { data: demo((seed) => seed.groups!.push({ id: 'fin2dup', displayName: 'Finance' })) },
  },
  {
    code: 'plan.group-needs-scim',
    what: 'a group by name with a personal token',
    yaml: 'userGroupCreditLimits:\n  - group: Finance\n    creditLimit: 100\n',
    at: 'group: Finance',
    token: 'demo-ada-personal-token',
  },
  {
    code: 'plan.unknown-model',
    what: 'a model no shared model is named',
    yaml: routine('Model check', '    model: Slaes\n'),
    at: 'model: Slaes',
    suggestion: 'did you mean "Sales"?',
  },
  {
    code: 'plan.ambiguous-model',
    what: 'a model two shared models are named',
    yaml: routine('Model check', '    model: Sales\n'),
    at: 'model: Sales',
    emulator: { data: demo((seed) => seed.models!.push({ id: 'b7e5d3c1-0000-4000-8000-00000000d0b1', name: 'Sales', defaultRole: 'QUERIER', roles: { [ADA]: 'MANAGER' } })) },
  },
  {
    code: 'plan.unknown-branch',
    what: 'a branch the model does not have',
    yaml: routine('Branch check', '    model: Sales\n    branch: forecast-v3\n'),
    at: 'branch: forecast-v3',
    suggestion: 'did you mean "forecast-v2"?',
  },
  {
    code: 'plan.ambiguous-branch',
    what: 'a branch the model has twice',
    yaml: routine('Branch check', '    model: Sales\n    branch: forecast-v2\n'),
    at: 'branch: forecast-v2',
    emulator: { data: demo((seed) => seed.models![0]!.branches!.push({ id: '0c1d2e3f-0000-4c6d-8e7f-00000000d0b2', name: 'forecast-v2' })) },
  },
  {
    code: 'plan.unknown-topic',
    what: 'a topic the model does not have, on a routine the plan creates',
    yaml: routine('Topic check', '    model: Sales\n    topicName: pipline\n'),
    at: 'topicName: pipline',
    suggestion: 'did you mean "pipeline"?',
  },
  {
    code: 'preflight.model',
    what: 'a model id the deployment does not have',
    yaml: routine('Model id check', '    modelId: 00000000-0000-4000-8000-00000000beef\n'),
    at: 'modelId: 0000',
  },
  {
    code: 'preflight.permissions',
    what: 'credit controls with a key that is no Organization Admin',
    yaml: 'creditControls:\n  userDefaultCredits: 200\n',
    at: 'userDefaultCredits: 200',
    token: 'demo-org-member-token',
  },
  {
    code: 'plan.routine-owner',
    what: 'a routine without owner, with a key tied to no user',
    yaml: routine('Ownerless', '    model: Sales\n').replace(`    owner: ${ADA}\n`, ''),
    at: 'name: Ownerless',
    emulator: { orgKeyUser: 'absent' },
  },
  {
    code: 'plan.ambiguous-routine',
    what: 'a routine two live routines of its owner are named',
    yaml: `routines:\n  - name: Daily pipeline check\n${PIPELINE_CHECK}`,
    at: 'name: Daily pipeline check',
    suggestion: 'rename or delete the routines you do not want in the app',
    emulator: {
      data: demo((seed) => {
        const live = seed.routines!.find((candidate) => candidate.name === 'Daily pipeline check')!;
        seed.routines!.push({ ...live, prompt: 'Another prompt.', createdAt: '2025-04-01T08:00:00.000Z' });
      }),
    },
  },
  {
    code: 'plan.protected',
    what: "a protected routine whose topic change replaces it (the issue's example)",
    yaml: `routines:\n  - name: Daily pipeline check\n${PIPELINE_CHECK}    topicName: orders\n    protect: true\n`,
    at: 'topicName: orders',
    suggestion: 'keep topicName as it is live',
  },
  {
    code: 'plan.credit-thresholds',
    what: 'a downgrade threshold above the live shutoff',
    yaml: 'creditControls:\n  downgradeCredits: 11000\n',
    at: 'downgradeCredits: 11000',
    suggestion: 'declare `shutoffCredits` too (live: 10,000)',
  },
  {
    code: 'plan.unsupported-setting',
    what: 'an entity-group default on an instance that does not show it',
    yaml: 'creditControls:\n  entityGroupDefaultCredits: 100\n',
    at: 'entityGroupDefaultCredits: 100',
    emulator: { entityGroupDefaultCredits: false },
  },
  {
    code: 'plan.strict',
    what: 'a label document the deployment does not have, under --strict',
    yaml: 'labels:\n  - name: marketing\n    documents: ["5e4d3c2c"]\n',
    at: '5e4d3c2c',
    suggestion: 'did you mean 5e4d3c2b?',
    args: ['--strict'],
  },
];

describe('the error codes a plan can raise', () => {
  const codes = plannerCodes();

  it('are found in the planner', () => {
    expect(codes.size).toBeGreaterThan(30);
  });

  it.each([...codes].sort())('%s has a scenario that shows its place, or a reason it has none', (code) => {
    const placed = SCENARIOS.some((scenario) => scenario.code === code);
    expect(placed || NO_PLACE[code] !== undefined, `${code}: add a scenario to SCENARIOS, or say in NO_PLACE why the config is not its place`).toBe(true);
    expect(placed && NO_PLACE[code] !== undefined, `${code} has a scenario and a reason to have no place`).toBe(false);
  });

  it('lists no code the planner no longer makes', () => {
    expect([...SCENARIOS.map((scenario) => scenario.code), ...Object.keys(NO_PLACE)].filter((code) => !codes.has(code))).toEqual([]);
  });
});

const where = scratch();

describe.each(PROFILES)('a plan-time error points at the config (%s profile)', (profile) => {
  it.each(SCENARIOS.map((scenario) => [scenario.code, scenario.what, scenario] as const))('%s: %s', async (_code, _what, scenario) => {
    expectPlaced(scenario, await planScenario(scenario, profile, where()));
  });
});
