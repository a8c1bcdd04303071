// The kind is the unit of the house: a kind's name is written as a literal only in its own folder
// (src/kinds/), in the config (src/config/, whose schema and KINDS declare the sections), in the
// emulator (src/emulator/, a server of its own) and in the API's wire names (src/api/). Everywhere
// else the code asks the registry. Read from the source with the TypeScript parser, so comments
// and identifiers (`config.routines`) do not count, and string literals, literal types and
// template heads (`routines/${id}`, a step id) do.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../src/kinds/registry.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The folders of src/ where a kind's name may be written. */
const OWNERS = ['kinds', 'config', 'emulator', 'api'];

/**
 * Literals elsewhere that spell a kind's name without meaning the kind, each with why. API wire
 * names outside src/api/ would go here too; there are none.
 */
const NOT_KINDS: readonly { file: string; literal: string; why: string }[] = [
  { file: 'policy/settings.ts', literal: 'routines', why: 'the policy group `policies.routines` (a key of PoliciesConfig), not the kind' },
  { file: 'domain/runWeek.ts', literal: 'routines', why: "a week of runs' count of routines (a field its schema requires), not the kind" },
];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every string literal, literal type and template part of a file whose text is a kind's name, or begins `name/`. */
function kindLiterals(file: string, names: readonly string[]): { line: number; literal: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { line: number; literal: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const name = names.find((kind) => node.text === kind || node.text.startsWith(`${kind}/`));
      if (name !== undefined) found.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, literal: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('kind names in src/', () => {
  const names = [...REGISTRY.keys()];

  it('finds the literals it is about (a sanity check of the reader itself)', () => {
    const inKinds = sourceFiles(join(SRC, 'kinds')).flatMap((file) => kindLiterals(file, names).map((found) => found.literal));
    expect(inKinds).toEqual(expect.arrayContaining([...names, 'routines/']));
  });

  it('are written only in the folders of the kinds, the config, the emulator and the API', () => {
    const outside: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const path = relative(SRC, file);
      if (OWNERS.includes(path.split('/')[0]!)) continue;
      for (const { line, literal } of kindLiterals(file, names)) {
        if (NOT_KINDS.some((allowed) => allowed.file === path && allowed.literal === literal)) continue;
        outside.push(`src/${path}:${line}: '${literal}'`);
      }
    }
    expect(outside, 'ask the registry (a facet of ResourceKind) instead of naming the kind').toEqual([]);
  });
});
