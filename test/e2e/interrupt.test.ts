// Long applies you can watch and interrupt: each step's line appears as the step finishes, a
// heartbeat tells a rate-limit wait, and an interrupt stops between writes (exit 130), naming what
// was done and what was not started; running apply again finishes exactly the rest.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClientEvent } from '../../src/api/client.js';
import { ApplyStop } from '../../src/engine/stop.js';
import { runApply, type ApplyOptions } from '../../src/cli/apply.js';
import { EXIT } from '../../src/cli/plan.js';
import { captureIo, gitopsAgainstDemo, PRODUCTION_TOKEN, type Result, type Steward } from './helpers.js';
import { interceptingProxy } from './proxy.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let steward: Steward | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  steward = undefined;
});

/** apply in-process with hooks: `stopAfterWrite` stops the run as a SIGINT would once that many writes were answered. */
async function applyWith(steward: Steward, options: Partial<ApplyOptions>, stopAfterWrite?: number, planFile?: string): Promise<Result> {
  const io = captureIo(steward.env, steward.directory);
  const stop = new ApplyStop();
  let writes = 0;
  const observe = (event: ClientEvent) => {
    if (event.type !== 'response' || event.method === 'GET') return;
    writes += 1;
    if (writes === stopAfterWrite) stop.stop({ kind: 'interrupt', signal: 'SIGINT' });
  };
  const code = await runApply(planFile, { config: steward.directory, env: 'production', baseUrl: steward.emulator.url, autoApprove: true, ...options }, io, { stop, observe });
  return io.result(code);
}

/** How many steps the example's plan has against this emulator (the example grows; tests follow it). */
async function plannedSteps(steward: Steward): Promise<number> {
  return (JSON.parse((await steward.plan({ json: true })).out) as { steps: unknown[] }).steps.length;
}

/** The report's lines of steps done. */
function doneLines(out: string): string[] {
  return out.split('\n').filter((line) => line.startsWith('  done '));
}

interface JsonReport {
  results: { id: string; status: string; notStarted?: boolean }[];
  stopped?: { signal: string };
}

describe('interrupting an apply', () => {
  it.each([1, 4, 8, 12, 15])('after write %i: stops before the next write, names what was not started, and a re-run does only the rest', async (position) => {
    steward = await gitopsAgainstDemo();
    const first = await applyWith(steward, { json: true }, position);
    expect(first.code).toBe(130);
    const report = JSON.parse(first.out) as JsonReport;
    expect(report.stopped).toEqual({ signal: 'SIGINT' });
    const notStarted = report.results.filter((result) => result.notStarted).map((result) => result.id);
    const done = report.results.filter((result) => result.status === 'done').map((result) => result.id);
    expect(notStarted.length).toBeGreaterThan(0);
    expect(done.length + notStarted.length).toBe(report.results.length);
    // The write in flight finishes (a replacement's two requests are one step); nothing after it.
    const writesAfterStop = steward.emulator.stats().writes - position;
    expect(writesAfterStop).toBeLessThanOrEqual(1);

    const second = await applyWith(steward, { json: true });
    expect(second.code).toBe(0);
    const rest = (JSON.parse(second.out) as JsonReport).results;
    expect(rest.map((result) => result.id).sort()).toEqual([...notStarted].sort());
    expect(rest.every((result) => result.status === 'done')).toBe(true);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });

  it('Ctrl-C at the approval prompt cancels: nothing written, exit 130', async () => {
    steward = await gitopsAgainstDemo();
    const aborted = Object.assign(new Error('Aborted with Ctrl+C'), { name: 'AbortError' });
    const io = { ...captureIo(steward.env, steward.directory), confirm: () => Promise.reject(aborted) };
    const code = await runApply(undefined, { config: steward.directory, env: 'production', baseUrl: steward.emulator.url }, io);
    expect(code).toBe(130);
    expect(io.result(code).out).toContain('Apply cancelled (interrupted at the prompt). Nothing was changed.');
    expect(steward.emulator.stats().writes).toBe(0);
  });

  it('exits 143 when stopped by SIGTERM', async () => {
    steward = await gitopsAgainstDemo();
    const io = captureIo(steward.env, steward.directory);
    const stop = new ApplyStop();
    const observe = (event: ClientEvent) => {
      if (event.type === 'response' && event.method !== 'GET') stop.stop({ kind: 'interrupt', signal: 'SIGTERM' });
    };
    const total = await plannedSteps(steward);
    const code = await runApply(undefined, { config: steward.directory, env: 'production', baseUrl: steward.emulator.url, autoApprove: true }, io, { stop, observe });
    expect(code).toBe(143);
    const { out } = io.result(code);
    const done = doneLines(out).length;
    expect(out).toContain(`Interrupted (SIGTERM): the write in flight ran to its end (its outcome is above) and no new one started; ${total - done} steps were not started.`);
    expect(steward.emulator.stats().writes).toBe(1);
  });

  it('tells a person what was done, what was not started, and how to finish', async () => {
    steward = await gitopsAgainstDemo();
    const total = await plannedSteps(steward);
    const result = await applyWith(steward, {}, 3);
    expect(result.code).toBe(130);
    const done = doneLines(result.out).length;
    const rest = total - done;
    expect(done).toBeGreaterThanOrEqual(3);
    expect(result.out).toMatch(new RegExp(`\\nNot started: apply was interrupted \\(SIGINT\\) \\(${rest} steps\\):\\n {2}[-+~/]+ +\\S`));
    expect(result.out).toContain(`Apply: ${done} done, 0 already applied, 0 failed, 0 skipped, ${rest} not started.`);
    expect(result.out).toContain(`Interrupted (SIGINT): the write in flight ran to its end (its outcome is above) and no new one started; ${rest} steps were not started. Running \`steward apply --env production --config ${steward.directory} --base-url ${steward.emulator.url}\` again finishes the rest.`);
  });

  it.each([1, 3, 8])('a saved plan interrupted after write %i: the command to finish names the file, and applying the file again finishes it', async (position) => {
    steward = await gitopsAgainstDemo();
    const planFile = join(steward.directory, 'plan.json');
    await steward.plan({ out: planFile });
    const first = await applyWith(steward, {}, position, planFile);
    expect(first.code).toBe(130);
    const done = doneLines(first.out).length;
    expect(first.out).toContain(`Running \`steward apply --env production --config ${steward.directory} --base-url ${steward.emulator.url} ${planFile}\` again finishes the rest.`);
    const second = await applyWith(steward, {}, undefined, planFile);
    expect(second.err).toBe('');
    expect(second.code).toBe(0);
    expect(second.out).toMatch(new RegExp(`Apply: \\d+ done, ${done} already applied, 0 failed, 0 skipped\\.`));
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });
});

describe('watching an apply', () => {
  it('prints a heartbeat at once when the rate limit makes it wait, between the step lines', async () => {
    steward = await gitopsAgainstDemo();
    // The server answers the third write 429 with Retry-After: 2, once (it did nothing; steward waits, then sends it).
    let limited = false;
    const proxy = await interceptingProxy(steward.emulator.url, (request, writesBefore) => {
      if (request.method === 'GET' || writesBefore !== 2 || limited) return undefined;
      limited = true;
      return { status: 429, headers: { 'retry-after': '2' }, body: { detail: 'Too Many Requests', status: 429 } };
    });
    try {
      const result = await applyWith(steward, { baseUrl: proxy.url });
      expect(result.code).toBe(0);
      const lines = result.out.split('\n');
      const pattern = /^… (\d+) of \d+ steps done, 0:0\d elapsed, .* left; waiting 2s: the server's rate limit answered 429 \(.+\)$/;
      const heartbeat = lines.findIndex((line) => pattern.test(line));
      expect(heartbeat, result.out).toBeGreaterThan(0);
      // Told right away: after the lines of the steps done so far, before the next step's line.
      const doneSoFar = Number(pattern.exec(lines[heartbeat]!)![1]);
      expect(lines.slice(0, heartbeat).filter((line) => line.startsWith('  done '))).toHaveLength(doneSoFar);
      expect(lines[heartbeat + 1]).toMatch(/^ {2}done /);
      expect((await steward.plan()).code).toBe(EXIT.ok);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('interrupting a write that waits to be sent', () => {
  it('drops it at once: a write the server answered 429 (Retry-After: 60) is not sent after the wait, and its step is not started', async () => {
    steward = await gitopsAgainstDemo();
    let limitedAt: number | undefined;
    const proxy = await interceptingProxy(steward.emulator.url, (request, writesBefore) => {
      if (request.method === 'GET' || writesBefore !== 2) return undefined;
      limitedAt ??= Date.now();
      return { status: 429, headers: { 'retry-after': '60' }, body: { detail: 'Too Many Requests', status: 429 } };
    });
    try {
      const io = captureIo(steward.env, steward.directory);
      const stop = new ApplyStop();
      const observe = (event: ClientEvent) => {
        if (event.type === 'response' && event.status === 429) setTimeout(() => stop.stop({ kind: 'interrupt', signal: 'SIGINT' }), 100);
      };
      const started = Date.now();
      const code = await runApply(undefined, { config: steward.directory, env: 'production', baseUrl: proxy.url, autoApprove: true }, io, { stop, observe });
      const result = io.result(code);
      expect(code).toBe(130);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(steward.emulator.stats().writes).toBe(2);
      const done = doneLines(result.out).length;
      expect(done).toBe(2);
      expect(result.out).toMatch(/Apply: 2 done, 0 already applied, 0 failed, 0 skipped, \d+ not started\./);
      // Applying again finishes the rest.
      await proxy.close();
      expect((await applyWith(steward, {})).code).toBe(0);
      expect((await steward.plan()).code).toBe(EXIT.ok);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('watching the reading', () => {
  it('tells reads that run past 2 s on stderr, keeping stdout one JSON document; quick ones stay quiet', async () => {
    steward = await gitopsAgainstDemo();
    expect((await steward.plan()).err).toBe('');
    await steward.emulator.close();
    steward = await gitopsAgainstDemo({ latencyMs: 50 });
    const io = captureIo(steward.env, steward.directory);
    // A clock running 20 times fast: 2 s of it pass after 100 ms of reading.
    const started = Date.now();
    const fast = () => started + (Date.now() - started) * 20;
    const code = await runApply(undefined, { config: steward.directory, env: 'production', baseUrl: steward.emulator.url, dryRun: true, json: true }, io, { progress: { now: fast } });
    const { out, err } = io.result(code);
    expect(code).toBe(0);
    expect(err).toMatch(/^… reading .+: page \d+( of \d+)?\n/m);
    expect(() => JSON.parse(out)).not.toThrow();
  });
});

describe('watching on a terminal', () => {
  it('redraws a status line in place and clears it before every step line and the report', async () => {
    steward = await gitopsAgainstDemo();
    const io = { ...captureIo({ ...steward.env, NO_COLOR: '1' }, steward.directory), isTTY: true };
    const code = await runApply(undefined, { config: steward.directory, env: 'production', baseUrl: steward.emulator.url, autoApprove: true }, io);
    const { out } = io.result(code);
    expect(code).toBe(0);
    const total = doneLines(out.replace(/\r\x1b\[2K/g, '\n')).length;
    expect(out).toMatch(new RegExp(`\\r\\x1b\\[2K\\[0/${total}\\] [^\\r\\n]+ · 0:0\\d elapsed, [^\\r\\n]+ left`));
    expect(out).toMatch(/\r\x1b\[2K {2}done {4}\S[^\r\n]*\n\r\x1b\[2K\[1\//);
    // Once the status line's redraws are taken out, what remains is the plain report.
    const plain = out.replace(/\r\x1b\[2K[^\n\r]*(?=\r)/g, '').replace(/\r\x1b\[2K/g, '');
    expect(plain).toMatch(/^ {2}done {4}\S.*\n {2}done {4}\S/m);
    expect(plain).toContain(`\nApply: ${total} done, 0 already applied, 0 failed, 0 skipped.\n`);
  });
});

describe('a real steward process', () => {
  let built: string;
  beforeAll(async () => {
    // Compile the sources into a scratch package (the checkout's dist/ is left alone).
    built = await mkdtemp(join(tmpdir(), 'steward-built-'));
    await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(built, 'dist')]).catch(() => undefined);
    await cp(join(ROOT, 'package.json'), join(built, 'package.json'));
    await symlink(join(ROOT, 'node_modules'), join(built, 'node_modules'));
    await symlink(join(ROOT, 'schemas'), join(built, 'schemas'));
    await writeFile(join(built, 'README.md'), 'scratch build for a test\n');
  }, 120_000);

  /** The built CLI on the example's config against its emulator, the token in its environment. */
  const stewardProcess = (on: Steward, args: string[]) =>
    spawn(process.execPath, [join(built, 'dist/cli/main.js'), ...args, '--config', on.directory, '--env', 'production', '--base-url', on.emulator.url], {
      env: { PATH: process.env.PATH, STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('over a pipe: prints the first step before the last write is sent, and stops on SIGINT with exit 130', async () => {
    steward = await gitopsAgainstDemo({ latencyMs: 150 });
    const emulator = steward.emulator;
    const child = stewardProcess(steward, ['apply', '--auto-approve']);
    let out = '';
    let err = '';
    let writesWhenFirstLineCame: number | undefined;
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (writesWhenFirstLineCame === undefined && /^ {2}done /m.test(out)) {
        writesWhenFirstLineCame = emulator.stats().writes;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    expect(err).toContain('Interrupted (SIGINT): no new write starts, nor one still waiting to be sent; finishing the write in flight.');
    expect(code).toBe(130);
    // The first line came while most writes were still to be sent.
    expect(writesWhenFirstLineCame).toBeDefined();
    expect(writesWhenFirstLineCame!).toBeLessThan(16);
    expect(out).toMatch(/\nNot started: apply was interrupted \(SIGINT\) \(\d+ steps\):\n/);
    expect(out).toContain('Interrupted (SIGINT): the write in flight ran to its end (its outcome is above) and no new one started;');
    expect(emulator.stats().writes).toBeLessThan(16);

    // Running apply again finishes the rest.
    const again = await applyWith(steward, {});
    expect(again.code).toBe(0);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  }, 60_000);

  it('a second SIGINT exits at once, saying the write in flight is unknown and a re-run is safe', async () => {
    steward = await gitopsAgainstDemo({ latencyMs: 200 });
    const emulator = steward.emulator;
    const child = stewardProcess(steward, ['apply', '--auto-approve']);
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      const first = out === '' || !/^ {2}done /m.test(out);
      out += chunk.toString();
      if (first && /^ {2}done /m.test(out)) {
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 50);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(130);
    expect(err).toContain('Interrupted again (SIGINT): exiting now. The outcome of the write in flight is unknown; running apply again is safe: it reads the live state first and finishes the rest.');
    // It did not wait for the report.
    expect(out).not.toContain('Apply:');
    const again = await applyWith(steward, {});
    expect(again.code).toBe(0);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  }, 60_000);

  it('with --json, an exit at once still leaves one JSON document on stdout: what settled, and what was in flight', async () => {
    steward = await gitopsAgainstDemo({ latencyMs: 200 });
    const emulator = steward.emulator;
    const child = stewardProcess(steward, ['apply', '--json', '--auto-approve']);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const first = !/^ {2}done /m.test(err);
      err += chunk.toString();
      if (first && /^ {2}done /m.test(err)) {
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGTERM'), 50);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(143);
    const document = JSON.parse(out) as { error: { code: string; message: string; signal: string; results: { status: string }[]; inDoubt: string[] } };
    expect(document.error.code).toBe('apply.interrupted');
    expect(document.error.message).toContain('Interrupted again (SIGTERM): exiting now.');
    expect(document.error.signal).toBe('SIGTERM');
    expect(document.error.results.filter((result) => result.status === 'done').length).toBeGreaterThan(0);
    expect(Array.isArray(document.error.inDoubt)).toBe(true);
  }, 60_000);

  it('with --json, a signal while reading leaves a JSON error document on stdout', async () => {
    steward = await gitopsAgainstDemo({ latencyMs: 200 });
    const emulator = steward.emulator;
    const child = stewardProcess(steward, ['apply', '--json', '--auto-approve']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (emulator.stats().requests > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(143);
    const document = JSON.parse(out) as { error: { code: string; message: string; results: unknown[] } };
    expect(document.error).toMatchObject({ code: 'apply.interrupted', message: 'Interrupted (SIGTERM) before any write; nothing was changed.' });
    expect(document.error.results).toEqual([]);
    expect(emulator.stats().writes).toBe(0);
  }, 60_000);

  it('interrupted during plan --out, leaves the plan file as it was, never half of a new one', async () => {
    steward = await gitopsAgainstDemo({ latencyMs: 200 });
    const planFile = join(steward.directory, 'plan.json');
    expect((await steward.plan({ out: planFile })).code).toBe(EXIT.destructive);
    const before = await readFile(planFile, 'utf8');
    const child = stewardProcess(steward, ['plan', '--out', planFile]);
    const emulator = steward.emulator;
    // Interrupt once it is reading the live state.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (emulator.stats().requests > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    child.kill('SIGINT');
    const signal = await new Promise<string | null>((resolve) => child.on('exit', (_code, received) => resolve(received)));
    expect(signal).toBe('SIGINT');
    expect(await readFile(planFile, 'utf8')).toBe(before);
    expect((await readdir(steward.directory)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 30_000);
});
