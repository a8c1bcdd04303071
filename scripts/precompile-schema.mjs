// Build step: writes the validators steward runs as ajv standalone code, so commands neither
// import ajv's compiler nor compile a schema at every start. Generated, not committed:
// - dist/config/schemaValidators.cjs, the config schema's (from schemas/steward.schema.json);
// - dist/api/shapeValidators.cjs, the response shapes' (from src/api/shapes.ts);
// - dist/engine/planValidator.cjs, the plan file's (from schemas/plan.schema.json, which
//   `npm run generate` writes from src/model/planFormat.ts).
// Each carries the sha256 of the schemas it was made from, so dist uses it only for those very
// schemas (otherwise it compiles at run time, as the tests running the sources do).
import { writeFileSync } from 'node:fs';

const { standaloneValidators } = await import('../dist/config/schema.js');
writeFileSync(new URL('../dist/config/schemaValidators.cjs', import.meta.url), standaloneValidators());
const { standaloneShapeValidators } = await import('../dist/api/shapes.js');
writeFileSync(new URL('../dist/api/shapeValidators.cjs', import.meta.url), standaloneShapeValidators());
const { standalonePlanValidator } = await import('../dist/engine/planSchema.js');
writeFileSync(new URL('../dist/engine/planValidator.cjs', import.meta.url), standalonePlanValidator());
