// A configuration whose files the fast path read and that holds no `$` skips interpolation and
// the character check (analyze.ts): neither could change or find anything. Checked by analysing
// every fixture and example twice, as written and with a comment holding `$` added to each file
// (which makes both passes run): the findings and the loaded configuration must be the same.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeConfig } from '../../src/app/config.js';
import type { AnalyzeOptions } from '../../src/config/analyze.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'steward-verbatim-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const configurations = [
  ...readdirSync(FIXTURES).filter((name) => /^\d{3}-/.test(name)).map((name) => join(FIXTURES, name)),
  ...readdirSync(EXAMPLES).map((name) => join(EXAMPLES, name)).filter((path) => statSync(path).isDirectory() || /\.ya?ml$/.test(path)),
];

/** What analysis gives, with file names relative to the configuration. */
async function analysed(path: string, root: string, options: Partial<AnalyzeOptions>) {
  const analysis = await analyzeConfig(path, { processEnv: {}, selectionRequired: false, cwd: root, ...options });
  return {
    diagnostics: analysis.diagnostics.map((diagnostic) => ({ ...diagnostic, location: diagnostic.location && { ...diagnostic.location, file: relative(root, join(root, diagnostic.location.file)) } })),
    selected: analysis.selected,
  };
}

describe('the verbatim shortcut', () => {
  it('is taken by most of these configurations, so the comparison below means something', async () => {
    let taken = 0;
    for (const path of configurations) {
      const analysis = await analyzeConfig(path, { processEnv: {}, selectionRequired: false });
      if (analysis.files.length > 0 && analysis.files.every((file) => file.fast?.verbatim === true)) taken += 1;
    }
    expect(taken).toBeGreaterThan(configurations.length / 3);
  });

  it.each(configurations)('%s: the same findings and configuration with every pass run', async (path) => {
    const optionsFile = join(path, 'options.json');
    let options: Partial<AnalyzeOptions> = {};
    try {
      options = JSON.parse(readFileSync(optionsFile, 'utf8')) as Partial<AnalyzeOptions>;
    } catch {
      // no options for this one
    }
    const copy = join(mkdtempSync(join(scratch, 'c-')), 'config');
    cpSync(path, copy, { recursive: true, verbatimSymlinks: true });
    const files = statSync(copy).isDirectory() ? readdirSync(copy).filter((name) => /\.ya?ml$/.test(name)).map((name) => join(copy, name)) : [copy];
    for (const file of files) {
      try {
        writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('\n# $ runs every pass\n')]));
      } catch {
        // a dangling link or a directory named *.yaml: left as it is
      }
    }
    const root = statSync(path).isDirectory() ? path : join(path, '..');
    const copyRoot = statSync(copy).isDirectory() ? copy : join(copy, '..');
    const original = await analysed(path, root, options);
    const forced = await analysed(copy, copyRoot, options);
    expect(forced.diagnostics).toEqual(original.diagnostics);
    expect(forced.selected).toEqual(original.selected);
  });
});
