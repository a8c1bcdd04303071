// Benchmark: what plan and apply cost at scale, against the embedded emulator. Requests are the
// real budget (60 per minute per API key by default), so the figures are request counts first,
// then wall time and memory on this machine. Run with `npm run bench` (builds first).
//
//   node bench/scale.mjs [USERS] [--rpm N]
//     USERS  default 2000, half of them with a limit already
//     --rpm  the client's request budget; default 100000 (steward's own time). Pass 60 to
//            measure what the run takes under the platform's default limit.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApply } from '../dist/cli/apply.js';
import { runPlan } from '../dist/cli/plan.js';
import { datasetSeed, startEmulator } from '../dist/emulator/index.js';

const args = process.argv.slice(2);
const rpmAt = args.indexOf('--rpm');
const rpm = rpmAt === -1 ? 100000 : Number(args[rpmAt + 1]);
const users = Number(args.find((arg, index) => /^\d+$/.test(arg) && args[index - 1] !== '--rpm') ?? 2000);
const TOKEN = 'demo-org-admin-token';

const seed = datasetSeed('demo');
const extra = Array.from({ length: users }, (_, index) => {
  const n = String(index + 1).padStart(5, '0');
  return { id: `00000000-0000-4000-8000-${n.padStart(12, '0')}`, email: `bench${n}@acme.example`, displayName: `Bench ${n}`, role: 'MEMBER' };
});
seed.users.push(...extra);
seed.userCreditLimits = [...(seed.userCreditLimits ?? []), ...extra.slice(0, users / 2).map((user) => ({ user: user.email, creditLimit: 50 }))];

const emulator = await startEmulator({ data: seed, port: 0 });
const directory = await mkdtemp(join(tmpdir(), 'steward-bench-'));
await writeFile(
  join(directory, 'environments.yaml'),
  `version: 1\nenvironments:\n  bench:\n    baseUrl: https://bench.example.com\n    tokenEnv: BENCH_TOKEN\n    requestsPerMinute: ${rpm}\n`,
);
await writeFile(
  join(directory, 'limits.yaml'),
  `version: 1\nuserCreditLimits:\n${extra.map((user) => `  - email: ${user.email}\n    creditLimit: 75\n`).join('')}`,
);

const io = () => {
  let out = '';
  return { stdout: (text) => { out += text; }, stderr: (text) => { out += text; }, env: { BENCH_TOKEN: TOKEN }, cwd: directory, isTTY: false, text: () => out };
};
const options = { config: directory, env: 'bench', baseUrl: emulator.url };

async function measure(name, run) {
  const before = emulator.stats();
  const started = performance.now();
  const sink = io();
  const code = await run(sink);
  const ms = performance.now() - started;
  const after = emulator.stats();
  const requests = after.requests - before.requests;
  const row = {
    step: name,
    exit: code,
    requests,
    writes: after.writes - before.writes,
    'wall ms': Math.round(ms),
    'heap MB': Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  };
  if (code !== 0 && code !== 2) console.error(sink.text());
  return row;
}

const rows = [];
rows.push(await measure(`plan (${users} users, ${users / 2} to add, ${users / 2} to change)`, (sink) => runPlan({ ...options, detailedExitcode: true }, sink)));
rows.push(await measure('apply', (sink) => runApply(undefined, { ...options, autoApprove: true }, sink)));
rows.push(await measure('plan again (no changes)', (sink) => runPlan({ ...options, detailedExitcode: true }, sink)));
await emulator.close();

console.log(`steward on node ${process.version}: ${users} users, client budget ${rpm} requests/min, emulator on loopback`);
console.table(rows);
