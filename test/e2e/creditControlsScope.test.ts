// Credit controls as the vendor defines them: seven documented fields, no entity-group default
// (a config that declares one is an error before any write on an instance that does not show it,
// and planned as usual where one does), and settings that apply to every instance of an
// organization: environments sharing an account must declare the same credit controls (a
// validation error naming both otherwise), and a promotion between them leaves them alone.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config.js';
import type { Plan } from '../../src/model/plan.js';
import { Deployments } from './deployments.js';
import { gitopsAgainstDemo, type Steward } from './helpers.js';

let steward: Steward | undefined;
let deployments: Deployments | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  await deployments?.close();
  steward = undefined;
  deployments = undefined;
});

async function declareEntityGroupDefault(directory: string): Promise<void> {
  const file = join(directory, 'credit.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace('  userDefaultCredits: 200\n', '  userDefaultCredits: 200\n  entityGroupDefaultCredits: 500\n'));
}

describe('the entity-group default, which the documented credit controls do not have', () => {
  it('stops the plan at the declaration, before any write, on an instance that does not show it', async () => {
    steward = await gitopsAgainstDemo({ profile: 'vendor' });
    await declareEntityGroupDefault(steward.directory);
    const result = await steward.apply();
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/credit\.yaml:11:\d+: creditControls\.entityGroupDefaultCredits: this instance's credit controls show no entity-group default \(the documented API has none\)/);
    expect(result.err).toContain('Hint: remove `entityGroupDefaultCredits` from creditControls (the config declares credit controls once, for every environment');
    expect(steward.emulator.stats().writes).toBe(0);
  });

  it('is planned, applied and converges where the instance shows it (the generated client\'s field)', async () => {
    steward = await gitopsAgainstDemo({ profile: 'vendor', entityGroupDefaultCredits: true });
    await declareEntityGroupDefault(steward.directory);
    const plan = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    const controls = plan.steps.find((step) => step.kind === 'creditControls');
    expect(controls?.action === 'update' && controls.fields.map((field) => field.path)).toEqual(['shutoffCredits', 'entityGroupDefaultCredits']);
    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.creditControls().entityGroupDefaultCredits).toBe(500);
    expect((await steward.plan()).code).toBe(0);
    // Served by the knob, the field is a named variant of the contract, not a misfit.
    expect(steward.emulator.contractMisfits()).toEqual([]);
  });

  it('is never sent when the config does not declare it', async () => {
    steward = await gitopsAgainstDemo({ profile: 'other' });
    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.creditControls().entityGroupDefaultCredits).toBeNull();
  });
});

describe('environments that share one account\'s credit controls', () => {
  const sharing = (production: string, playground: string) =>
    (text: string) =>
      text
        .replace('    tokenEnv: STEWARD_PRODUCTION_TOKEN\n', `    tokenEnv: STEWARD_PRODUCTION_TOKEN\n    account: acme\n    variables:\n      shutoff: ${production}\n`)
        .replace('    tokenEnv: STEWARD_PLAYGROUND_TOKEN\n', `    tokenEnv: STEWARD_PLAYGROUND_TOKEN\n    account: acme\n    variables:\n      shutoff: ${playground}\n`);

  it('must declare the same credit controls: different values are one error naming both environments, at the field', async () => {
    deployments = await Deployments.start();
    await deployments.editEnvironments(sharing('12000', '10'));
    const credit = join(deployments.gitops, 'credit.yaml');
    await writeFile(credit, (await readFile(credit, 'utf8')).replace('shutoffCredits: 12000', 'shutoffCredits: ${var.shutoff}'));
    const diagnostics = await validateConfig(deployments.gitops, { processEnv: {} });
    expect(diagnostics.filter((diagnostic) => diagnostic.code === 'creditControls.sharedAccount')).toEqual([
      expect.objectContaining({
        severity: 'error',
        summary: 'environments `production` and `playground` share account `acme`, whose AI credit controls are one setting, but declare different ones: `creditControls.shutoffCredits` is 12000 in production and 10 in playground',
        location: expect.objectContaining({ file: expect.stringMatching(/credit\.yaml$/), line: 9 }),
      }),
    ]);
    const plan = await deployments.plan('production');
    expect(plan.code).toBe(1);
    expect(plan.err).toContain('share account `acme`');
    expect(deployments.production.stats().requests).toBe(0);
    // The same value in both is no finding.
    await deployments.editEnvironments((text) => text.replace('shutoff: 10\n', 'shutoff: 12000\n'));
    expect((await validateConfig(deployments.gitops, { processEnv: {} })).filter((diagnostic) => diagnostic.severity === 'error')).toEqual([]);
  });

  it('are not promoted between: the promotion says so once and does not read them', async () => {
    deployments = await Deployments.start();
    await deployments.editEnvironments(sharing('12000', '12000'));
    // Playground's thresholds differ from production's: a promotion between unrelated deployments would copy them.
    expect((await deployments.call('playground', 'PATCH', '/api/v1/ai/credit-controls', { shutoffCredits: 99999 })).status).toBe(200);
    const before = deployments.playground.stats().byRoute['GET /api/v1/ai/credit-controls'] ?? 0;
    const result = await deployments.diff({ json: true });
    const plan = JSON.parse(result.out) as Plan;
    expect(plan.steps.filter((step) => step.kind === 'creditControls')).toEqual([]);
    expect(plan.warnings).toContainEqual({
      code: 'promote.shared-credit-controls',
      message: 'credit controls are not promoted: playground and production share them (account `acme`), so they are one setting, planned with either environment',
    });
    expect(deployments.playground.stats().byRoute['GET /api/v1/ai/credit-controls'] ?? 0).toBe(before);
  });
});
