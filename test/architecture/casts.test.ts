// A double cast (`as unknown as`) tells the compiler to stop checking. In src/ it is allowed only
// where raw JSON, already checked against its schema, becomes the type the schema describes;
// anywhere else the types must say what the code does. Read with the TypeScript parser, so
// comments and strings do not count.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The files that decode raw JSON, how many double casts each holds, and what each decodes. */
const DECODERS: Readonly<Record<string, { casts: number; decodes: string }>> = {
  'config/load.ts': { casts: 1, decodes: 'the merged config, once the schema and the semantic checks found no error' },
  'engine/planFile.ts': { casts: 2, decodes: 'a saved plan file, once its structure was checked' },
  'emulator/stateFile.ts': { casts: 1, decodes: "the emulator's state file, once its version was checked" },
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The lines of a file's `x as unknown as T` expressions. */
function doubleCasts(file: string): number[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && ts.isAsExpression(node.expression) && node.expression.type.kind === ts.SyntaxKind.UnknownKeyword) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

describe('double casts in src/', () => {
  it('finds what it is about (a sanity check of the reader itself)', () => {
    expect(doubleCasts(join(SRC, 'config/load.ts'))).toHaveLength(1);
  });

  it('appear only where raw JSON is decoded', () => {
    const found: Record<string, number> = {};
    const elsewhere: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const path = relative(SRC, file).split('\\').join('/');
      const lines = doubleCasts(file);
      if (lines.length === 0) continue;
      if (path in DECODERS) found[path] = lines.length;
      else elsewhere.push(...lines.map((line) => `src/${path}:${line}`));
    }
    expect(elsewhere).toEqual([]);
    // A decoder that no longer needs its cast leaves this list too.
    expect(found).toEqual(Object.fromEntries(Object.entries(DECODERS).map(([path, { casts }]) => [path, casts])));
  });
});
