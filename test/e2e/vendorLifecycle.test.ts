// A user's life against the platform as the vendor documents it (the emulator's default profile),
// with an organization key: plan, apply, an empty re-plan; then a prompt change, a pause, a
// timezone change and a destination change, each applied and each followed by an empty plan;
// export round-trips; drift is clean; and a promotion between two such deployments, both applied,
// proposes nothing. Every request and answer fits the vendor contract (test/setup/contract.ts).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDrift } from '../../src/cli/drift.js';
import { EXIT } from '../../src/cli/plan.js';
import { validateConfig } from '../../src/app/config.js';
import { emulatorsNotingContract } from '../setup/contract.js';
import { Deployments, planDirectory, type EnvironmentName } from './deployments.js';
import { captureIo } from './helpers.js';

let deployments: Deployments | undefined;
afterEach(async () => {
  await deployments?.close();
  deployments = undefined;
});

describe('the gitops example against two deployments that follow the vendor contract', () => {
  it('applies, changes a routine four ways, exports, checks drift and promotes, each converging', async () => {
    deployments = await Deployments.start({ profile: 'vendor' });
    const d = deployments;
    expect(emulatorsNotingContract()).toBeGreaterThan(0);
    const routinesFile = join(d.gitops, 'routines.yaml');
    const edit = async (from: string, to: string) => {
      const text = await readFile(routinesFile, 'utf8');
      expect(text).toContain(from);
      await writeFile(routinesFile, text.replace(from, to));
    };
    const converges = async (environment: EnvironmentName, what: string) => {
      const applied = await d.apply(environment);
      expect(applied.code, `${what}: ${applied.out}${applied.err}`).toBe(0);
      const again = await d.plan(environment);
      expect(again.out, what).toContain('No changes. The live state matches the configuration.');
      expect(again.code, what).toBe(EXIT.ok);
    };
    const digest = () => d.production.state.routines('ada@acme.example').find((routine) => routine.name === 'Weekly revenue digest')!;

    await converges('production', 'the first apply');
    await edit("prompt: Summarise last week's revenue by region and call out anomalies.", 'prompt: Summarise last week\'s revenue by region, with the three largest anomalies.');
    await converges('production', 'a prompt change');
    expect(digest().prompt).toBe("Summarise last week's revenue by region, with the three largest anomalies.");
    await edit('    timezone: Europe/Berlin\n    model: Sales\n', '    timezone: Europe/Berlin\n    paused: true\n    model: Sales\n');
    await converges('production', 'a pause');
    expect(digest().disabled).toBe(true);
    await edit('    timezone: Europe/Berlin\n    paused: true\n', '    timezone: Europe/Lisbon\n    paused: true\n');
    await converges('production', 'a timezone change');
    expect(digest()).toMatchObject({ timezone: 'Europe/Lisbon', disabled: true });
    await edit('        - ada@acme.example\n        - grace@acme.example\n', '        - ada@acme.example\n        - grace@acme.example\n        - margaret@acme.example\n');
    await converges('production', 'a destination change');
    expect(digest().destination).toMatchObject({ recipientEmails: ['ada@acme.example', 'grace@acme.example', 'margaret@acme.example'] });

    // Export round-trips: the exported file, planned beside the environments, changes nothing.
    const exported = await d.export('production', { owner: ['grace@acme.example'] });
    expect(exported.code, exported.err).toBe(0);
    const directory = await d.besideEnvironments(exported.out);
    expect(await validateConfig(directory, { processEnv: {} })).toEqual([]);
    const roundTrip = await planDirectory(d, directory, 'production');
    expect(roundTrip.out).toContain('No changes.');

    // Drift is clean.
    const io = captureIo(d.env, d.gitops);
    expect(await runDrift({ config: d.gitops, env: 'production', baseUrl: d.production.url }, io)).toBe(EXIT.ok);

    // The playground applied from the same config (pruning there too: the example protects the
    // playground's routines, which would keep "Old experiment" for a promotion to carry over), a
    // promotion between the two proposes nothing.
    await d.editEnvironments((text) => text.replace(/\n    protect:\n(?:\s+#.*\n)*\s+routines: true\n/, '\n'));
    await converges('playground', 'the playground');
    const promotion = await d.diff();
    expect(promotion.out).toContain('No changes.');
    expect(promotion.code).toBe(EXIT.ok);
  });
});
