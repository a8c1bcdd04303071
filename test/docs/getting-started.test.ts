// docs/getting-started.md, followed literally: its shell blocks, line by line and in order, in
// an empty directory, must end with a plan that says "No changes". The lines are run by a small
// interpreter that knows only what the page uses (npx --no-install steward, export, cat with a heredoc, and
// the install and build, which this checkout has done), so a line it cannot follow fails the
// test instead of being skipped. steward runs through the real program, in this process.
// `npx --no-install steward emulator` is started here as the page starts it (the demo dataset, every other
// option at its default), on a free port rather than 4010, which the page's URLs are pointed at.
import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Result } from '../e2e/helpers.js';
import { runProgram } from '../cli/run.js';
import { codeBlocks, read, wordsOf } from './markdown.js';

const PAGE = 'docs/getting-started.md';
/** Where the page says the emulator listens. */
const PAGE_EMULATOR_URL = 'http://127.0.0.1:4010';

/** The page's shell lines before its reference sections (those after "Plan again" are not steps). */
function steps(): string[] {
  const page = read(PAGE);
  const walkthrough = page.slice(0, page.indexOf('\n## Pointing steward at a real instance'));
  return codeBlocks(walkthrough)
    .filter((block) => block.language === 'sh')
    .flatMap((block) => block.lines);
}

let directory: string;
let emulator: RunningEmulator | undefined;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'steward-getting-started-'));
});
afterAll(async () => {
  await emulator?.close();
  await rm(directory, { recursive: true, force: true });
});

/** `steward ARGS` through the real program, in the page's directory, with the page's exports. */
function steward(args: string[], env: Record<string, string>): Promise<Result> {
  return runProgram(args, { ...env, STEWARD_CACHE_DIR: process.env.STEWARD_CACHE_DIR }, directory);
}

describe('docs/getting-started.md, followed literally', () => {
  it('ends with a plan that says No changes', async () => {
    const lines = steps();
    const env: Record<string, string> = {};
    const results: { line: string; result: Result }[] = [];
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!.trim();
      if (line === '' || line.startsWith('#')) continue;
      if (line === 'npm ci' || line === 'npm run build') continue; // done: this suite runs in an installed checkout, from src/
      const heredoc = /^cat (>>?) (\S+) <<'(\w+)'$/.exec(line);
      if (heredoc !== null) {
        const end = lines.indexOf(heredoc[3]!, index + 1);
        expect(end, `the heredoc of "${line}" ends`).toBeGreaterThan(index);
        const text = `${lines.slice(index + 1, end).join('\n')}\n`;
        await (heredoc[1] === '>>' ? appendFile : writeFile)(join(directory, heredoc[2]!), text);
        index = end;
        continue;
      }
      const exported = /^export ([A-Z_][A-Z0-9_]*)=(\S+)$/.exec(line);
      if (exported !== null) {
        env[exported[1]!] = exported[2]!;
        continue;
      }
      if (line === 'npx --no-install steward emulator') {
        emulator = await startEmulator({ dataset: 'demo' });
        continue;
      }
      expect(line, 'a line this test can follow').toMatch(/^npx --no-install steward /);
      expect(emulator === undefined || !line.includes('--port'), 'the emulator is started before it is used').toBe(true);
      const words = wordsOf(emulator === undefined ? line : line.replaceAll(PAGE_EMULATOR_URL, emulator.url));
      const result = await steward(words, env);
      results.push({ line, result });
      expect(result.code, `${line}\n${result.out}\n${result.err}`).toBe(0);
    }

    expect(results.map(({ line }) => line.split(' ').slice(0, 4).join(' '))).toEqual([
      'npx --no-install steward init',
      'npx --no-install steward validate',
      'npx --no-install steward plan',
      'npx --no-install steward apply',
      'npx --no-install steward plan',
    ]);
    const [, , first, apply, last] = results;
    expect(first!.result.out).toContain('Plan: 1 to add, 1 to change, 0 to replace, 0 to destroy.');
    expect(apply!.result.out).toContain('Apply: 2 done');
    expect(last!.result.out).toContain('No changes.');
    // What the page shows as the last plan's output is what it prints.
    expect(read(PAGE)).toContain(last!.result.out.split('\n').find((text) => text.startsWith('No changes.')));
    expect(await readFile(join(directory, 'my-steward', 'steward.yaml'), 'utf8')).toContain('name: certified');
  });
});
