// The `steward` command line: one file per command in this folder, registered in program.ts.
// Only the command being run is imported (launch.ts).
import { programFor } from './launch.js';

await (await programFor(process.argv)).parseAsync(process.argv);
