// The `steward` command line: one file per command in this folder, registered in program.ts.
// Only the command being run is imported (launch.ts).
import { setFlagsFromString } from 'node:v8';
import { programFor } from './launch.js';

// undici parses HTTP with a WebAssembly module that it compiles in every process. V8 compiles it
// twice by default: quickly (Liftoff), then optimized in the background, which cost a 10k-user
// plan 0.10-0.15 s of CPU for a parser that handles a few hundred responses. The quick code is
// enough here. This only changes how WebAssembly compiled later is compiled, and the CLI owns
// its process; the library code never sets it. V8 lists the flag among its testing flags, so it
// is set only on V8 11 to 13 (Node 20 to 24; measured on Node 20): a later V8 that dropped it
// would print an error about an unknown flag on every command.
const v8Major = Number(process.versions.v8.split('.')[0]);
if (v8Major >= 11 && v8Major <= 13) setFlagsFromString('--liftoff-only');

await (await programFor(process.argv)).parseAsync(process.argv);
