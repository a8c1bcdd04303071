// The packed-package test alone (`npm run test:package`, part of `npm test`): it packs, installs
// and runs steward outside the repository, which takes about a minute, so the everyday
// `npx vitest run` leaves it out.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
