// `steward demo` (npm run demo): the whole GitOps loop on this machine, against the embedded
// emulator: validate the examples, plan, apply, plan again (no changes), stop. Every step is a
// real command run in-process, printed as the user would type it.
import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../emulator/index.js';
import { runApply } from './apply.js';
import { processIo, useColor, type CommandIo } from './context.js';
import { runPlan } from './plan.js';
import { runValidate } from './validate.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The emulator has no rate limit; the demo lifts the 60/min pacing a real instance needs. */
const DEMO_REQUESTS_PER_MINUTE = 600;

/** The token the demo dataset's organization admin key accepts: a local demo value, not a secret. */
export const DEMO_TOKEN = 'demo-org-admin-token';

/** Runs the demo; returns the exit code (0 when every step behaved as expected). */
export async function runDemo(io: CommandIo): Promise<number> {
  const emulator = await startEmulator({ dataset: 'demo', port: 0 });
  const started = Date.now();
  const env = { ...io.env, STEWARD_PRODUCTION_TOKEN: DEMO_TOKEN };
  const demoIo: CommandIo = { ...io, env, cwd: PACKAGE_ROOT };
  const heading = (text: string) => io.stdout(`\n${useColor(io, undefined) ? `\u001b[1m${text}\u001b[22m` : text}\n\n`);
  const connection = { config: 'examples/gitops', env: 'production', baseUrl: emulator.url, requestsPerMinute: DEMO_REQUESTS_PER_MINUTE };
  const shown = `--config examples/gitops --env production --base-url ${emulator.url} --requests-per-minute ${DEMO_REQUESTS_PER_MINUTE}`;
  try {
    io.stdout(`Started the platform emulator at ${emulator.url} with the built-in demo dataset.\n`);
    heading('$ steward validate examples/single && steward validate examples/gitops');
    for (const example of ['examples/single', 'examples/gitops']) {
      if ((await runValidate(example, {}, demoIo)) !== 0) return 1;
    }
    heading(`$ steward plan ${shown}`);
    if ((await runPlan({ ...connection, detailedExitcode: true }, demoIo)) === 0) {
      io.stderr('The demo expected the example to differ from the demo dataset, but the plan is empty.\n');
      return 1;
    }
    heading(`$ steward apply ${shown} --auto-approve`);
    if ((await runApply(undefined, { ...connection, autoApprove: true }, demoIo)) !== 0) return 1;
    heading(`$ steward plan ${shown} --detailed-exitcode`);
    const again = await runPlan({ ...connection, detailedExitcode: true }, demoIo);
    if (again !== 0) {
      io.stderr('The second plan should have been empty: apply did not converge.\n');
      return 1;
    }
    const stats = emulator.stats();
    io.stdout(
      `\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s: the emulator served ${stats.reads} reads and ${stats.writes} writes.\n` +
        'Point steward at a real instance by setting the environment\'s baseUrl and token variable (see docs/getting-started.md).\n',
    );
    return 0;
  } finally {
    await emulator.close();
  }
}

export function registerDemo(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('demo')
    .description('validate, plan and apply the bundled examples against the embedded emulator')
    .action(async () => {
      process.exitCode = await runDemo(io());
    });
}
