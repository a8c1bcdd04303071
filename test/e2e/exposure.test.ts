// Exposure, end to end: a plan that changes credit values states the most credits the
// configuration allows per period once applied (individual limits, group limits applied to their
// members, the default times the users without either), as an estimate with its rule, in text,
// JSON and Markdown; `creditLimits.maxExposure` refuses a plan above it before any write; and
// `steward validate --env` states what the config alone allows, offline.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { runValidate } from '../../src/cli/validate.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { captureIo, PRODUCTION_ENVIRONMENTS, PRODUCTION_TOKEN, PROFILES, Steward } from './helpers.js';


// The demo: 36 users; grace 500, linus unlimited, ken 100, analyst01 50; Sales Ops (linus, ken)
// 400 and Analysts (analyst01..30) 100; default 200; the account's limit 12,000. After this plan:
// grace 500 + linus 300 = 800; ken 400 by Sales Ops and 30 analysts × 100 = 3,400; ada, margaret
// and barbara on the default 20 = 60. In all 4,260.
const CONFIG = `version: 1
creditControls:
  userDefaultCredits: 20
userCreditLimits:
  - email: grace@acme.example
    creditLimit: 500
  - email: linus@acme.example
    creditLimit: 300
userGroupCreditLimits:
  - group: Analysts
    creditLimit: 100
prune:
  userCreditLimits: true
`;

const HEADLINE = "Exposure (an estimate): at most 4,260 credits per period, within the account's limit of 12,000";
const PARTS = 'individual limits: 2 users, 800 credits · user group limits: 31 users, 3,400 credits · the default: 20 × 3 users, 60 credits';
const RULE = "rule: a user's own limit, else the highest limit among her groups, else the default (the vendor does not say how they combine)";

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()));
});

async function configDirectory(policies = ''): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-exposure-'));
  await writeFile(join(directory, 'environments.yaml'), PRODUCTION_ENVIRONMENTS);
  await writeFile(join(directory, 'credit.yaml'), CONFIG);
  if (policies !== '') await writeFile(join(directory, 'policies.yaml'), `version: 1\n${policies}`);
  return directory;
}

describe.each(PROFILES)('exposure (%s profile)', (profile) => {
  async function stewardWith(policies = ''): Promise<Steward> {
    const emulator = await startEmulator({ dataset: 'demo', profile });
    emulators.push(emulator);
    return new Steward(emulator, await configDirectory(policies), 'production', { STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN });
  }

  it('is stated in text, JSON and Markdown as an estimate with its rule', async () => {
    const steward = await stewardWith();
    const human = await steward.plan();
    expect(human.code, human.err).toBe(EXIT.destructive);
    expect(human.out).toContain(`${HEADLINE}\n  ${PARTS}\n  ${RULE}\n`);

    const json = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    expect(json.exposure).toEqual({
      credits: 4260,
      individual: { users: 2, credits: 800 },
      groups: { users: 31, credits: 3400 },
      default: { users: 3, perUser: 20, credits: 60 },
      notCounted: [],
      accountCreditLimit: 12000,
      rule: "a user's own limit, else the highest limit among her groups, else the default",
    });

    const markdown = await steward.plan({ markdown: true });
    expect(markdown.out).toContain(`**${HEADLINE}**\n\n- ${PARTS}\n- ${RULE}\n`);
  });

  it('creditLimits.maxExposure refuses a plan above it before any write', async () => {
    const steward = await stewardWith('policies:\n  creditLimits:\n    maxExposure: 4000\n');
    const planned = await steward.plan();
    expect(planned.code).toBe(EXIT.policy);
    expect(planned.out).toContain('✗ creditLimits: the configuration would allow 4,260 credits per period (an estimate); creditLimits.maxExposure allows at most 4,000\n');
    const applied = await steward.apply();
    expect(applied.code).toBe(EXIT.policy);
    expect(steward.emulator.stats().writes).toBe(0);

    const within = await stewardWith('policies:\n  creditLimits:\n    maxExposure: 5000\n');
    expect((await within.apply()).code).toBe(0);
    // Converged: nothing changes, so nothing is judged or stated.
    const again = await within.plan();
    expect(again.code).toBe(0);
    expect(again.out).not.toContain('Exposure');
  });
});

describe('steward validate --env, offline', () => {
  it('states what the config alone allows and names what only the deployment knows', async () => {
    const directory = await configDirectory();
    const io = captureIo({}, directory);
    const result = io.result(await runValidate(undefined, { config: directory, env: 'production' }, io));
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(
      'Exposure (an estimate): at least 800 credits per period\n' +
        '  individual limits: 2 users, 800 credits · user group limits: 0 users, 0 credits\n' +
        `  ${RULE}\n` +
        '  not counted: the members of user group Analysts (not known); the users on the default (the number of users is not known)\n',
    );
  });
});
