// An emulator in a process of its own, for benchmarks that time steward: in the bench's own
// process the emulator's work would take turns with steward's on one event loop and count as
// steward's time. Reads the seed (JSON) and the options (JSON) from files, prints the URL on its
// first line, and stops on SIGTERM or when its parent's pipe closes.
//
//   node bench/emulatorProcess.mjs SEED.json OPTIONS.json
import { readFileSync } from 'node:fs';
import { startEmulator } from '../dist/emulator/index.js';

const [seedFile, optionsFile] = process.argv.slice(2);
const emulator = await startEmulator({ ...JSON.parse(readFileSync(optionsFile, 'utf8')), data: JSON.parse(readFileSync(seedFile, 'utf8')), port: 0 });
process.stdout.write(`${emulator.url}\n`);
const stop = () => void emulator.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
