// The plan-time errors that had no place in the config, or the wrong one, point at what they are
// about: the printed error starts with its `file:line:col`, lists every other place, and carries the
// suggestion where the deployment offers one; `--json` gives the places as `position`/`positions`.
// Against both emulator profiles (the key's own user, the server's update method and credit
// settings differ between them; each scenario pins what it depends on).
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../e2e/helpers.js';
import { ADA, demo, expectPlaced, PIPELINE_CHECK, planScenario, routine, scratch, twoUsersNamed, type PlaceScenario } from './places.js';

const where = scratch();
const SALES = '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30';

/** The lines of a printed error after its first: the other places it lists. */
const placesListed = (err: string, file: string) => err.split('\n').filter((line) => line.startsWith(`  ${file}:`)).map((line) => Number(line.split(':')[1]));

/** The 1-based line of `text` in the scenario's config (as planScenario writes it). */
const lineOf = (result: { line: number }, scenario: PlaceScenario, text: string) => {
  const lines = scenario.yaml.split('\n');
  return result.line - lines.findIndex((line) => line.includes(scenario.at)) + lines.findIndex((line) => line.includes(text));
};

describe.each(PROFILES)('plan-time errors at their place (%s profile)', (profile) => {
  describe('an e-mail two users of the directory share', () => {
    it('points at every place the config names it', async () => {
      const scenario: PlaceScenario = {
        code: 'plan.ambiguous-user',
        what: 'grace twice in SCIM',
        yaml: `userCreditLimits:\n  - email: grace@acme.example\n    creditLimit: 100\n${routine('Digest', '    model: Sales\n').replace(`owner: ${ADA}`, 'owner: grace@acme.example')}`,
        at: 'email: grace@',
        intercept: twoUsersNamed('grace@acme.example'),
      };
      const result = await planScenario(scenario, profile, where());
      expectPlaced(scenario, result);
      expect(result.err).toContain('this e-mail address is the userName of more than one user of the instance: grace@acme.example');
      expect(placesListed(result.err, result.file)).toEqual([result.line, lineOf(result, scenario, 'owner: grace@')]);
    });
  });

  describe('what the API key may not do', () => {
    it('points at the section a key that is no Organization Admin may not manage', async () => {
      const scenario: PlaceScenario = { code: 'preflight.permissions', what: 'member key', yaml: 'creditControls:\n  userDefaultCredits: 200\n', at: 'userDefaultCredits: 200', token: 'demo-org-member-token' };
      const result = await planScenario(scenario, profile, where());
      expectPlaced(scenario, result);
      expect(result.err).toContain("creditControls need an Organization Admin key; this key's organization role is MEMBER");
    });

    it('points a personal token at each owner and e-mail it cannot resolve', async () => {
      const scenario: PlaceScenario = {
        code: 'preflight.permissions',
        what: 'personal token naming owners',
        yaml: `userCreditLimits:\n  - email: grace@acme.example\n    creditLimit: 100\n${routine('Digest', '    model: Sales\n')}`,
        at: 'owner:',
        token: 'demo-ada-personal-token',
      };
      const result = await planScenario(scenario, profile, where());
      expectPlaced(scenario, result);
      expect(result.err).toContain('routines with an `owner` need an organization API key');
      expect(result.err).toContain('users named by e-mail are resolved through SCIM');
      expect(placesListed(result.err, result.file)).toEqual([result.line, lineOf(result, scenario, 'email: grace@')]);
    });
  });

  describe('a model whoami refuses', () => {
    it('points at the routine that names it, not at the others', async () => {
      const scenario: PlaceScenario = {
        code: 'preflight.model',
        what: 'one literal id missing beside a model by name',
        yaml: `${routine('By name', '    model: Sales\n')}${routine('By id', '    modelId: 00000000-0000-4000-8000-00000000beef\n').replace('routines:\n', '')}`,
        at: 'modelId: 0000',
      };
      const result = await planScenario(scenario, profile, where());
      expectPlaced(scenario, result);
      expect(result.err).toContain('model 00000000-0000-4000-8000-00000000beef is missing or not accessible with this API key');
      expect(result.err).not.toContain(SALES);
    });
  });

  describe('a branch named by a literal id', () => {
    it('is checked against the model, and the error points at it, listing the branches', async () => {
      const scenario: PlaceScenario = {
        code: 'plan.unknown-branch',
        what: 'branchId of no branch',
        yaml: routine('Branch by id', `    modelId: ${SALES}\n    branchId: 00000000-0000-4000-8000-0000000b7a9c\n`),
        at: 'branchId: 0000',
        suggestion: 'its branches: "forecast-v2 (0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f)"',
      };
      expectPlaced(scenario, await planScenario(scenario, profile, where()));
    });
  });

  describe('protection', () => {
    it('points a routine replacement at the field that replaces it, then at the flag', async () => {
      const scenario: PlaceScenario = {
        code: 'plan.protected',
        what: 'topic change',
        yaml: `routines:\n  - name: Daily pipeline check\n${PIPELINE_CHECK}    topicName: orders\n    protect: true\n`,
        at: 'topicName: orders',
        suggestion: 'keep topicName as it is live, or remove `protect: true` from the routine if the replacement is intended',
      };
      const result = await planScenario(scenario, profile, where());
      expectPlaced(scenario, result);
      expect(result.err).toContain('routine "Daily pipeline check" is protected, but changing topicName replaces it');
      expect(placesListed(result.err, result.file)).toEqual([result.line, lineOf(result, scenario, 'protect: true')]);
    });

    it('points an expired protected routine at its `until`', async () => {
      const scenario: PlaceScenario = {
        code: 'plan.protected',
        what: 'until passed',
        yaml: `routines:\n  - name: Daily pipeline check\n${PIPELINE_CHECK}    topicName: pipeline\n    until: "2025-01-31"\n    protect: true\n`,
        at: 'until:',
        suggestion: 'write `onExpiry: pause` to keep it',
      };
      expectPlaced(scenario, await planScenario(scenario, profile, where()));
    });

    it.each([
      ['a user limit', 'userCreditLimits:\n  - email: grace@acme.example\n    creditLimit: default\n    protect: true\n', 'the credit limit of grace@acme.example is protected'],
      ['a user group limit', 'userGroupCreditLimits:\n  - group: Sales Ops\n    creditLimit: default\n    protect: true\n', 'the credit limit of user group "Sales Ops" is protected'],
      ['an entity group limit', 'entityGroupCreditLimits:\n  - entity: embed-partners\n    creditLimit: default\n    protect: true\n', 'the credit limit of entity group "embed-partners" is protected'],
    ])('points the reset of %s at its `creditLimit: default`', async (_what, yaml, message) => {
      const scenario: PlaceScenario = { code: 'plan.protected', what: 'reset', yaml, at: 'creditLimit: default' };
      const result = await planScenario(scenario, profile, where());
      expectPlaced(scenario, result);
      expect(result.err).toContain(`${message}, but the config resets it to the default`);
      expect(placesListed(result.err, result.file)).toEqual([result.line, lineOf(result, scenario, 'protect: true')]);
    });

    it('points the reset of an expired limit at its `until`', async () => {
      const scenario: PlaceScenario = {
        code: 'plan.protected',
        what: 'expired limit',
        yaml: 'userCreditLimits:\n  - email: grace@acme.example\n    creditLimit: 500\n    until: "2025-01-31"\n    protect: true\n',
        at: 'until:',
      };
      const result = await planScenario(scenario, profile, where());
      expectPlaced(scenario, result);
      expect(result.err).toContain('the credit limit of grace@acme.example is protected, but its `until` has passed (expired on 31 Jan 2025), which resets it to the default');
    });
  });

  describe('a prune of routines no owner is named for', () => {
    it('points at the prune flag', async () => {
      const scenario: PlaceScenario = {
        code: 'plan.routine-owner',
        what: 'prune without routines',
        yaml: 'routines: []\nprune:\n  routines: true\n',
        at: 'routines: true',
        emulator: { orgKeyUser: 'absent' },
      };
      expectPlaced(scenario, await planScenario(scenario, profile, where()));
    });
  });

  describe('--strict', () => {
    it('points at each missing document and folder, with the listed ones they are likely typos of', async () => {
      const scenario: PlaceScenario = {
        code: 'plan.strict',
        what: 'a document and a folder',
        yaml: 'labels:\n  - name: marketing\n    documents:\n      - "5e4d3c2c"\n    folders:\n      - finanse\n',
        at: '5e4d3c2c',
        args: ['--strict'],
      };
      const result = await planScenario(scenario, profile, where());
      expectPlaced(scenario, result);
      expect(result.err).toContain(`${result.file}:${result.line}:9: document 5e4d3c2c does not exist in this deployment, so label "marketing" is not applied to it (did you mean 5e4d3c2b? `);
      expect(result.err).toContain(`${result.file}:${lineOf(result, scenario, 'finanse')}:9: folder "finanse" is not a folder of this deployment, so label "marketing" is not applied to it (did you mean "finance"? folders are named by path)`);
    });

    it('suggests the identifier of a document named by its name', async () => {
      const scenario: PlaceScenario = {
        code: 'plan.strict',
        what: 'a name for an identifier',
        yaml: 'labels:\n  - name: marketing\n    documents: ["churn-q3"]\n',
        at: 'churn-q3',
        suggestion: 'did you mean c0ffee01?',
        args: ['--strict'],
        emulator: { data: demo((seed) => seed.documents!.push({ identifier: 'c0ffee01', name: 'Churn-Q3' })) },
      };
      expectPlaced(scenario, await planScenario(scenario, profile, where()));
    });
  });

  it('gives the places in --json as position and positions', async () => {
    const scenario: PlaceScenario = {
      code: 'plan.protected',
      what: 'json',
      yaml: 'userCreditLimits:\n  - email: grace@acme.example\n    creditLimit: default\n    protect: true\n',
      at: 'creditLimit: default',
      args: ['--json'],
    };
    const result = await planScenario(scenario, profile, where());
    const { error } = JSON.parse(result.out.slice(result.out.indexOf('{'))) as { error: { code: string; position: unknown; positions: unknown[] } };
    expect(error.code).toBe('plan.protected');
    expect(error.position).toEqual({ file: result.file, line: result.line, col: 18 });
    expect(error.positions).toEqual([error.position, { file: result.file, line: result.line + 1, col: 14 }]);
  });
});
