import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The packed-package test (npm pack, install, run) takes a minute: `npm run test:package`.
    exclude: [...configDefaults.exclude, 'test/package/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // End-to-end tests start emulators on ephemeral loopback ports; forks keep them isolated.
    pool: 'forks',
    // Every plan the end-to-end suite makes is checked against schemas/plan.schema.json.
    // ... and every request the suite sends to an emulator, and its answer, against the vendor contract.
    setupFiles: ['test/setup/planSchema.ts', 'test/setup/contract.ts'],
    // Recent request times per key (src/api/requestLedger.ts) go to a temporary folder, never the real home.
    env: { STEWARD_CACHE_DIR: join(tmpdir(), `steward-test-cache-${process.pid}`) },
  },
});
