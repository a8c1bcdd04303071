// The corpus of invalid configurations: each numbered folder under test/fixtures/ holds the
// YAML files of one configuration and expected.json, the exact diagnostics validation reports
// (code, message, hint, file relative to the folder, line and column), in order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

interface ExpectedDiagnostic {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  hint?: string;
  file?: string;
  line?: number;
  col?: number;
}

const folders = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^\d{3}-/.test(entry.name))
  .map((entry) => entry.name)
  .sort();

describe('invalid configurations (test/fixtures)', () => {
  it('holds at least 150 numbered cases', () => {
    expect(folders.length).toBeGreaterThanOrEqual(150);
  });

  it.each(folders)('%s', async (folder) => {
    const directory = join(FIXTURES, folder);
    const optionsFile = join(directory, 'options.json');
    const options = existsSync(optionsFile) ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as { environment?: string; processEnv?: Record<string, string> }) : {};
    const expected = JSON.parse(readFileSync(join(directory, 'expected.json'), 'utf8')) as ExpectedDiagnostic[];

    const diagnostics = await validateConfig(directory, { processEnv: {}, ...options });

    const actual: ExpectedDiagnostic[] = diagnostics.map((diagnostic) => ({
      severity: diagnostic.severity,
      code: diagnostic.code,
      message: diagnostic.summary,
      ...(diagnostic.hint === undefined ? {} : { hint: diagnostic.hint }),
      ...(diagnostic.location === undefined
        ? {}
        : { file: relative(directory, resolve(diagnostic.location.file)), line: diagnostic.location.line, col: diagnostic.location.col }),
    }));
    expect(actual).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });
});
