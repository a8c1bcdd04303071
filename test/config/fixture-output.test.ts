// What `steward validate` prints for every invalid configuration under test/fixtures/, in each
// output form (terminal, --json, GitHub annotations): exit 1, every diagnostic at its
// file:line:col, and nothing that is not a message for people or tools — no stack trace, no
// `undefined` or `[object Object]`, no warning of a library, no raw control character, no secret.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/context.js';
import { runValidate } from '../../src/cli/validate.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO, 'test/fixtures');

/** The value fixtures put in a base URL's user-info: it must never be printed. */
const PLANTED_SECRET = 'stw_live_9f8e7d6c5b4a';

interface ExpectedDiagnostic {
  severity: 'error' | 'warning';
  message: string;
  file?: string;
  line?: number;
  col?: number;
}

const folders = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^\d{3}-/.test(entry.name))
  .map((entry) => entry.name)
  .sort();

function capture(env: Record<string, string>) {
  const out = { stdout: '', stderr: '' };
  const io: CommandIo = {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    env,
    cwd: REPO,
    isTTY: false,
  };
  return { io, out };
}

// Process warnings (a library's `process.emitWarning`) would reach the user's terminal.
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
beforeAll(() => {
  process.on('warning', onWarning);
});
afterAll(() => {
  process.off('warning', onWarning);
});

/** What must never be in anything steward writes for a fixture. */
function expectClean(output: string, folder: string): void {
  const text = output.split(folder).join('<folder>'); // a folder may be named `…-undefined-…`
  expect(text).not.toMatch(/^\s+at .+[:(]\d+/m); // a stack frame
  expect(text.replace(/undefined variable/g, '')).not.toMatch(/(?<![.\w])undefined\b/); // `reference.undefined` is a code
  expect(text).not.toContain('[object Object]');
  expect(text).not.toMatch(/Warning: |DeprecationWarning|ExperimentalWarning|stringified due to JS Object/);
  expect(text).not.toMatch(/maximum call stack|RangeError|TypeError/i);
  expect(text).not.toContain(PLANTED_SECRET);
  // Only line breaks and tabs: no escape sequence, no C1 control, no bidirectional override.
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffd]/);
}

describe('the output of `steward validate` for every fixture', () => {
  it.each(folders)('%s', async (folder) => {
    const directory = join(FIXTURES, folder);
    const optionsFile = join(directory, 'options.json');
    const options = existsSync(optionsFile) ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as { environment?: string; processEnv?: Record<string, string> }) : {};
    const expected = JSON.parse(readFileSync(join(directory, 'expected.json'), 'utf8')) as ExpectedDiagnostic[];
    const path = `test/fixtures/${folder}`;
    const validateOptions = options.environment === undefined ? {} : { env: options.environment };
    warnings.length = 0;

    const exitCode = expected.some((diagnostic) => diagnostic.severity === 'error') ? 1 : 0;
    const human = capture(options.processEnv ?? {});
    expect(await runValidate(path, validateOptions, human.io)).toBe(exitCode);
    for (const diagnostic of expected.filter((item) => item.severity === 'error' && item.file !== undefined)) {
      expect(human.out.stderr).toContain(`${path}/${diagnostic.file}:${diagnostic.line}:${diagnostic.col}: error:`);
    }
    expectClean(human.out.stdout + human.out.stderr, folder);

    const json = capture(options.processEnv ?? {});
    expect(await runValidate(path, { ...validateOptions, json: true }, json.io)).toBe(exitCode);
    // A report of diagnostics, or (for a configuration that cannot be checked at all, such as an
    // unknown --env) the error envelope every command uses.
    const report = JSON.parse(json.out.stdout) as { valid?: boolean; diagnostics?: { message: string; line?: number; col?: number }[]; error?: { message: string } };
    const reported = report.diagnostics ?? (report.error === undefined ? [] : [{ message: report.error.message }]);
    expect(report.valid ?? false).toBe(exitCode === 0);
    expect(reported.map((diagnostic) => [diagnostic.message, diagnostic.line, diagnostic.col])).toEqual(
      expected.map((diagnostic) => [diagnostic.message, diagnostic.line, diagnostic.col]),
    );
    expectClean(json.out.stdout + json.out.stderr, folder);

    const annotations = capture({ ...options.processEnv, GITHUB_ACTIONS: 'true' });
    expect(await runValidate(path, validateOptions, annotations.io)).toBe(exitCode);
    const commands = annotations.out.stdout.split('\n').filter((line) => line.startsWith('::'));
    if (report.error === undefined) expect(commands.length).toBe(expected.length);
    expectClean(annotations.out.stdout + annotations.out.stderr, folder);

    expect(warnings).toEqual([]);
  });
});
