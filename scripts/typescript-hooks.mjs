// Lets Node 20 run the TypeScript sources a build script needs before `tsc` has compiled them
// (`node --import ./scripts/typescript-hooks.mjs scripts/generate-config.ts`): each .ts file is
// transpiled as it is imported, by the TypeScript compiler steward already builds with, and an
// import of `./x.js` finds `./x.ts` as tsc's NodeNext resolution does. Types are not checked here:
// `tsc` does that right after. (Node's module customization hooks, the documented way to load
// another language: https://nodejs.org/api/module.html#customization-hooks.)
import { register } from 'node:module';

register('./typescript-loader.mjs', import.meta.url);
