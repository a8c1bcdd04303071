// The `steward` command line: one file per command in this folder, registered in program.ts.
import { buildProgram } from './program.js';

await buildProgram().parseAsync(process.argv);
