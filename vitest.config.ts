import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // End-to-end tests start emulators on ephemeral loopback ports; forks keep them isolated.
    pool: 'forks',
  },
});
