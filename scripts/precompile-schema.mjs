// Build step: writes dist/config/schemaValidators.cjs, the config schema's validators as ajv
// standalone code, so commands do not import and run ajv's compiler at every start. Generated,
// not committed: `npm run build` makes it from schemas/steward.schema.json, and it carries the
// schema's sha256, so dist/config/schema.js uses it only for the very schema it was built from
// (otherwise it compiles at run time, as the tests running the sources do).
import { writeFileSync } from 'node:fs';

const { standaloneValidators } = await import('../dist/config/schema.js');
const target = new URL('../dist/config/schemaValidators.cjs', import.meta.url);
writeFileSync(target, standaloneValidators());
