#!/usr/bin/env node
// Entry point of the installed CLI. The TypeScript sources are compiled to dist/ by `npm run
// build` (and by `npm pack`, so a packed or published steward always carries them); in a
// checkout where that did not happen, say so instead of printing a stack trace.
try {
  await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/main.js')) {
    console.error('steward is not built: run `npm run build` in the steward directory.');
    process.exit(1);
  }
  throw error;
}
