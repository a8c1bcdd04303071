// Performance record, part 2: what one steward process costs, as one table with the targets of
// issue 12 beside the measures.
// - Start-up: wall time of `steward validate` of a one-file config against `node -e 0`, each the
//   median of RUNS runs taken in turn (so a change of load hits both), timed here with
//   performance.now() around the child (no hyperfine here; /usr/bin/time's %e has 10 ms steps).
// - Planner: user + system CPU (every thread: GC and compiler threads count) and peak RSS of a
//   whole `steward plan` process, measured by /usr/bin/time, at 1k, 5k, 10k and 20k declared
//   user limits (half of them live), the request limit lifted; median of PLAN_RUNS runs each
//   (the machine is shared: one run in three can be 0.2 s off). The emulator runs in this
//   process, so its work is not counted.
// - Growth: the cost of each further 1,000 users between two sizes; growth is linear when the
//   last interval's cost per 1,000 users is at most 1.5 times the first's (the first 1k carry
//   start-up, which is why the fixed part is not in the slope).
//
//   node bench/startup.mjs [RUNS] [--rows]   (after `npm run build`; RUNS default 11; --rows: as JSON)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { datasetSeed, startEmulator } from '../dist/emulator/index.js';

const RUNS = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 11);
// `--rows`: the rows as JSON for bench/record.mjs's one table, instead of this table.
const ROWS = process.argv.includes('--rows');
const SIZES = [1000, 5000, 10000, 20000];
const PLAN_RUNS = 5;
const STEWARD = fileURLToPath(new URL('../bin/steward.js', import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value, digits = 2) => Number(value.toFixed(digits));

/** Runs a command under /usr/bin/time: wall seconds (ours), CPU seconds (user + system), peak RSS (MB). */
function timed(args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%U %S %M', ...args], { env: { ...process.env, STEWARD_CACHE_DIR: 'off', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = (performance.now() - started) / 1000;
      const [user, system, rss] = err.trim().split('\n').at(-1).split(' ').map(Number);
      if (code !== 0 || ![user, system, rss].every(Number.isFinite)) reject(new Error(`${args.join(' ')} failed (${code}): ${err.trim().slice(-500)}`));
      else resolve({ wall, cpu: user + system, rssMB: rss / 1024 });
    });
  });
}

const directory = await mkdtemp(join(tmpdir(), 'steward-startup-'));
const tiny = join(directory, 'steward.yaml');
await writeFile(tiny, 'version: 1\nenvironments:\n  prod:\n    baseUrl: https://acme.example\n    tokenEnv: TOKEN\ncreditControls:\n  shutoffCredits: 100\n');
execFileSync(process.execPath, [STEWARD, 'validate', tiny]); // warm the file cache
const node0 = [];
const validate = [];
for (let run = 0; run < RUNS; run += 1) {
  node0.push((await timed([process.execPath, '-e', '0'])).wall);
  validate.push((await timed([process.execPath, STEWARD, 'validate', tiny])).wall);
}
const ratio = median(validate) / median(node0);
const rows = [
  { measure: `node -e 0, wall s (median of ${RUNS})`, value: round(median(node0), 3), target: '', met: '' },
  { measure: `steward validate, one file, wall s (median of ${RUNS})`, value: round(median(validate), 3), target: '', met: '' },
  { measure: 'start-up: validate / node -e 0', value: round(ratio), target: '≤ 2.5', met: ratio <= 2.5 ? 'yes' : 'NO' },
];

const plans = new Map();
for (const users of SIZES) {
  const seed = datasetSeed('demo');
  const extra = Array.from({ length: users }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, email: `p${i}@acme.example`, displayName: `P ${i}`, role: 'MEMBER' }));
  seed.users.push(...extra);
  seed.userCreditLimits = extra.slice(0, users / 2).map((user) => ({ user: user.email, creditLimit: 50 }));
  const emulator = await startEmulator({ data: seed, port: 0 });
  const config = join(directory, `plan-${users}`);
  execFileSync('mkdir', ['-p', config]);
  await writeFile(join(config, 'environments.yaml'), 'version: 1\nenvironments:\n  bench:\n    baseUrl: https://bench.example.com\n    tokenEnv: BENCH_TOKEN\n    requestsPerMinute: 1000000\n');
  await writeFile(join(config, 'limits.yaml'), `version: 1\nuserCreditLimits:\n${extra.map((user) => `  - email: ${user.email}\n    creditLimit: 75\n`).join('')}`);
  const samples = [];
  try {
    for (let run = 0; run < PLAN_RUNS; run += 1) samples.push(await timed([process.execPath, STEWARD, 'plan', '--config', config, '--env', 'bench', '--base-url', emulator.url], { BENCH_TOKEN: 'demo-org-admin-token' }));
  } finally {
    await emulator.close();
  }
  const cpu = median(samples.map((s) => s.cpu));
  const rssMB = median(samples.map((s) => s.rssMB));
  plans.set(users, { cpu, rssMB });
  const at10k = users === 10000;
  rows.push({ measure: `plan of ${users / 1000}k users: CPU s (median of ${PLAN_RUNS})`, value: round(cpu), target: at10k ? '< 1' : '', met: at10k ? (cpu < 1 ? 'yes' : 'NO') : '' });
  rows.push({ measure: `plan of ${users / 1000}k users: peak RSS MB (median of ${PLAN_RUNS})`, value: Math.round(rssMB), target: at10k ? '< 200' : '', met: at10k ? (rssMB < 200 ? 'yes' : 'NO') : '' });
}

// The cost of each further 1,000 users, interval by interval.
for (const [measure, unit, key, digits] of [['CPU', 'ms', 'cpu', 1000], ['peak RSS', 'MB', 'rssMB', 1]]) {
  const slopes = SIZES.slice(1).map((users, index) => {
    const previous = SIZES[index];
    return ((plans.get(users)[key] - plans.get(previous)[key]) * digits) / ((users - previous) / 1000);
  });
  const linear = slopes.at(-1) <= 1.5 * Math.max(slopes[0], 1e-9);
  rows.push({
    measure: `${measure} per further 1k users, ${unit} (1k→5k / 5k→10k / 10k→20k)`,
    value: slopes.map((slope) => Math.round(slope)).join(' / '),
    target: 'linear',
    met: linear ? 'yes' : 'NO',
  });
}

if (ROWS) {
  console.log(`ROWS ${JSON.stringify(rows)}`);
  process.exit(0);
}
console.log(`steward process costs, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
console.table(rows);
