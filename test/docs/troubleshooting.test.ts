// docs/troubleshooting.md lists every code steward reports: each error code and each finding's
// code found in src/ (where an error or finding is made, or a code is chosen) must appear on
// the page, in backticks, so a new code cannot ship without saying what to do about it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { read, ROOT } from './markdown.js';

/** The source files of src/, relative to the repository. */
function sources(directory = 'src'): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(directory, entry.name)) : entry.name.endsWith('.ts') ? [join(directory, entry.name)] : [],
  );
}

/** Lines that make an error or a finding, or choose a code: what a literal code sits on. */
const MAKES_A_CODE = /StewardError\(|\bcode\b|\.add\(|\breturn '|\breturn [^;]*\? '|CODE/;
const CODE = /'([a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z0-9]+(?:[-.][a-z0-9]+)*)'/g;
/** File names and addresses look like codes; they are not. */
const NOT_A_CODE = /\.(ts|js|json|ya?ml|md|com|example|org)$/;

function codesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources()) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    let inCodeTable = false; // a table of codes, e.g. `const DUPLICATE_CODE = { environments: 'environment.duplicate', … }`
    lines.forEach((line, index) => {
      if (/CODE\w*\b.*=\s*\{\s*$/.test(line)) inCodeTable = true;
      else if (/^\s*\};?\s*$/.test(line)) inCodeTable = false;
      const previous = lines[index - 1] ?? '';
      if (!inCodeTable && !MAKES_A_CODE.test(line) && !/StewardError\(\s*$/.test(previous)) return;
      for (const match of line.matchAll(CODE)) {
        if (!NOT_A_CODE.test(match[1]!) && !found.has(match[1]!)) found.set(match[1]!, `${file}:${index + 1}`);
      }
    });
  }
  return found;
}

describe('docs/troubleshooting.md', () => {
  const page = read('docs/troubleshooting.md');
  const codes = codesInSource();

  it('finds the codes steward reports', () => {
    expect(codes.size).toBeGreaterThan(150);
    expect([...codes.keys()]).toEqual(expect.arrayContaining(['plan.unknown-user', 'api.unauthorized', 'yaml.syntax', 'routine.schedule', 'auth.missing-token']));
  });

  it.each([...codes].map(([code, where]) => [code, where] as const))('says what to do about %s (%s)', (code) => {
    expect(page).toContain(`\`${code}\``);
  });
});
