// The performance record (`npm run bench`): every measure of issue 12 beside its target, in one
// table. Runs each part in a process of its own (so one part's memory and JIT do not colour the
// next) and collects its rows:
//   bench/scenarioL.mjs --rows   requests of plan, apply and apply of a saved plan against the
//                                fewest the API allows, both emulator profiles; plan with 25 ms
//                                latency against the longest sequential chain
//   bench/startup.mjs --rows     start-up against `node -e 0`; plan CPU and peak RSS at 1k-20k users
// Each part also runs alone and then prints its own, more detailed tables.
//
//   node bench/record.mjs        (after `npm run build`)
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const PARTS = ['scenarioL.mjs', 'startup.mjs'];

function rowsOf(script) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), '--rows'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('ROWS '));
      if (code !== 0 || line === undefined) reject(new Error(`bench/${script} exited ${code} without its rows:\n${out}`));
      else resolve(JSON.parse(line.slice('ROWS '.length)));
    });
  });
}

const started = new Date();
const load = loadavg();
const rows = [];
for (const part of PARTS) rows.push(...(await rowsOf(part)));
console.log(`steward performance record, ${started.toISOString()}; node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load at start ${load.map((value) => value.toFixed(1)).join(' ')}, at end ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
console.table(rows);
