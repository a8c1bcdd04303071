// Impact on live usage, end to end: an emulator seeded with this period's usage (6,200 credits
// used by the organization, 80 by grace), a config that lowers the shutoff below it and grace's
// limit below hers. The plan says each consequence in text, JSON and Markdown; with
// `creditLimits.belowUsage: deny` plan exits 4 and apply refuses before any write. Where the
// credit-usage endpoint is absent (the other profile), the plan says usage is not available and
// goes on. Usage is read only when a limit goes down, and a converged plan reads none.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { datasetSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { PRODUCTION_ENVIRONMENTS, PRODUCTION_TOKEN, PROFILES, Steward, type EmulatorProfile } from './helpers.js';

const USAGE = 'POST /api/v1/ai/credit-usage/users';
const SHUTOFF_LINE = 'shutoffCredits 5,000 is below the 6,200 credits used this period: AI shuts off for the whole organization as soon as this applies';
const GRACE_LINE = 'grace@acme.example has used 80 credits this period; the new limit of 50 cuts this user off at once';


// Against the demo dataset: shutoff 10,000 and downgrade 8,000; grace's limit 500, ken's 100.
const LOWERING = `version: 1
creditControls:
  downgradeCredits: 4000
  shutoffCredits: 5000
userCreditLimits:
  - email: grace@acme.example
    creditLimit: 50
  - email: ken@acme.example
    creditLimit: 90
`;

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()));
});

async function stewardWith(profile: EmulatorProfile, config: string, policies = ''): Promise<Steward> {
  const seed = datasetSeed('demo');
  seed.creditControls = { ...seed.creditControls, creditsUsed: 6200 };
  seed.userCreditUsage = [{ user: 'grace@acme.example', creditsUsed: 80 }, { user: 'ken@acme.example', creditsUsed: 12.5 }];
  const emulator = await startEmulator({ data: seed, profile });
  emulators.push(emulator);
  const directory = await mkdtemp(join(tmpdir(), 'steward-impacts-'));
  await writeFile(join(directory, 'environments.yaml'), PRODUCTION_ENVIRONMENTS);
  await writeFile(join(directory, 'credit.yaml'), config);
  if (policies !== '') await writeFile(join(directory, 'policies.yaml'), `version: 1\n${policies}`);
  return new Steward(emulator, directory, 'production', { STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN });
}

describe.each(PROFILES)('impact on this period\'s usage (%s profile)', (profile) => {
  const usageServed = profile === 'vendor';

  it('says what lowering the shutoff and a user\'s limit below their usage does, in text, JSON and Markdown', async () => {
    const steward = await stewardWith(profile, LOWERING);
    const human = await steward.plan();
    expect(human.code, human.err).toBe(EXIT.changes);
    expect(human.out).toContain(`  ! ${SHUTOFF_LINE}\n`);
    expect(human.out).toContain('  ! downgradeCredits 4,000 is below the 6,200 credits used this period: AI moves to the cheaper model for the whole organization as soon as this applies\n');
    if (usageServed) {
      expect(human.out).toContain("Impact on this period's usage (3):\n");
      expect(human.out).toContain(`  ! ${GRACE_LINE}\n`);
      // ken's 12.5 credits are below his new 90: no impact.
      expect(human.out).not.toContain('ken@acme.example has used');
    } else {
      expect(human.out).toContain("Impact on this period's usage (2):\n");
      expect(human.out).toContain(`Warning: usage not available on this instance (${USAGE} answered 404): the plan cannot say whether the lower limits of 2 users cut them off this period\n`);
    }
    // One usage request for the two users whose limits go down, in both profiles.
    expect(steward.emulator.stats().byRoute[USAGE]).toBe(1);

    const json = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    const graceId = json.steps.find((step) => step.key === 'grace@acme.example')!.id;
    expect(json.impacts).toEqual([
      { step: 'creditControls/settings', kind: 'creditControls', scope: 'organization', subject: 'credit controls', field: 'downgradeCredits', limit: 4000, used: 6200, effect: 'downgrade', certain: true, message: expect.stringContaining('downgradeCredits 4,000') },
      { step: 'creditControls/settings', kind: 'creditControls', scope: 'organization', subject: 'credit controls', field: 'shutoffCredits', limit: 5000, used: 6200, effect: 'shutoff', certain: true, message: SHUTOFF_LINE },
      ...(usageServed ? [{ step: graceId, kind: 'userCreditLimits', scope: 'user', subject: 'grace@acme.example', field: 'creditLimit', limit: 50, used: 80, effect: 'cutoff', certain: true, message: GRACE_LINE }] : []),
    ]);
    expect(json.warnings.some((warning) => warning.code === 'usage.unavailable')).toBe(!usageServed);

    const markdown = await steward.plan({ markdown: true });
    expect(markdown.out).toContain(`#### ⚠️ Impact on this period's usage (${usageServed ? 3 : 2})\n\n- downgradeCredits 4,000`);
    expect(markdown.out).toContain(`- ${SHUTOFF_LINE}\n`);
    if (usageServed) expect(markdown.out).toContain(`- ${GRACE_LINE}\n`);
    expect(steward.emulator.stats().writes).toBe(0);
  });

  it('with belowUsage: deny, plan exits 4 and apply refuses before any write', async () => {
    const steward = await stewardWith(profile, LOWERING, 'policies:\n  creditLimits:\n    belowUsage: deny\n');
    const planned = await steward.plan();
    expect(planned.code).toBe(EXIT.policy);
    expect(planned.out).toContain(`✗ creditLimits: ${SHUTOFF_LINE}; creditLimits.belowUsage is deny\n`);
    if (usageServed) expect(planned.out).toContain(`${GRACE_LINE}; creditLimits.belowUsage is deny`);
    const applied = await steward.apply();
    expect(applied.code).toBe(EXIT.policy);
    expect(applied.err).toContain('the plan breaks policy rule creditLimits; nothing was applied');
    expect(steward.emulator.stats().writes).toBe(0);
    expect(steward.emulator.state.creditControls().shutoffCredits).toBe(10000);
  });

  it('applies with the default warn, converges, and reads no usage once nothing goes down', async () => {
    const steward = await stewardWith(profile, LOWERING);
    const applied = await steward.apply();
    expect(applied.code, applied.err).toBe(0);
    const before = steward.emulator.stats().byRoute[USAGE] ?? 0;
    const again = await steward.plan();
    expect(again.code).toBe(0);
    expect(again.out).not.toContain('Impact on');
    expect(steward.emulator.stats().byRoute[USAGE] ?? 0).toBe(before);
  });

  it('reads no usage for a plan that only raises limits', async () => {
    const steward = await stewardWith(profile, 'version: 1\ncreditControls:\n  shutoffCredits: 12000\nuserCreditLimits:\n  - email: grace@acme.example\n    creditLimit: 750\n');
    const planned = await steward.plan();
    expect(planned.code, planned.err).toBe(EXIT.changes);
    expect(planned.out).not.toContain('Impact on');
    expect(steward.emulator.stats().byRoute[USAGE]).toBeUndefined();
  });
});
