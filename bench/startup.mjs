// Performance record, part 2: what one steward process costs. Start-up: `steward validate` of a
// one-file config against `node -e 0` (median of repeated runs; no hyperfine here). Planner:
// user CPU + system CPU and peak RSS of a whole `steward plan` process (a child, measured by
// /usr/bin/time) at 1k, 5k, 10k and 20k declared user limits, half live, limit lifted; the
// emulator runs in this process, so its work is not counted.
//
//   node bench/startup.mjs [RUNS]      (after `npm run build`; RUNS default 11)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { datasetSeed, startEmulator } from '../dist/emulator/index.js';

const RUNS = Number(process.argv[2] ?? 11);
const STEWARD = fileURLToPath(new URL('../bin/steward.js', import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs a command under /usr/bin/time: wall seconds, CPU seconds (user + system), peak RSS (MB). */
function timed(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', ...args], { env: { ...process.env, STEWARD_CACHE_DIR: 'off', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('error', reject);
    child.on('close', () => {
      const [wall, user, system, rss] = err.trim().split('\n').at(-1).split(' ').map(Number);
      resolve({ wall, cpu: user + system, rssMB: rss / 1024 });
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
const rows = [
  { measure: 'node -e 0 (median s)', value: median(node0) },
  { measure: 'steward validate, one file (median s)', value: median(validate) },
  { measure: 'ratio', value: Number((median(validate) / median(node0)).toFixed(2)) },
];

for (const users of [1000, 5000, 10000, 20000]) {
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
  for (let run = 0; run < 3; run += 1) samples.push(await timed([process.execPath, STEWARD, 'plan', '--config', config, '--env', 'bench', '--base-url', emulator.url], { BENCH_TOKEN: 'demo-org-admin-token' }));
  await emulator.close();
  rows.push({ measure: `plan of ${users} users: CPU s (median of 3)`, value: Number(median(samples.map((s) => s.cpu)).toFixed(2)) });
  rows.push({ measure: `plan of ${users} users: peak RSS MB (median of 3)`, value: Math.round(median(samples.map((s) => s.rssMB))) });
}
console.log(`steward process costs, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
console.table(rows);
