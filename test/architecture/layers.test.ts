// The layers of src/ point one way (ARCHITECTURE.md): each top-level folder imports only the
// folders below it, and no file imports itself back through others, type-only imports and
// dynamic imports included. Read from the source, so a new arrow that climbs back up fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * From the top: a folder may import the folders after it, never one before it. The emulator sits
 * under the CLI (which starts it) and above nothing else of steward's: what it may import is BESIDE.
 */
const LAYERS = ['cli', 'app', 'emulator', 'promote', 'export', 'render', 'engine', 'policy', 'kinds', 'model', 'resolve', 'config', 'api', 'domain', '(root)'];
/** Folders outside the stack's order, with what they may import: the emulator is a server of its own. */
const BESIDE: Readonly<Record<string, readonly string[]>> = { emulator: ['api', 'domain', '(root)'] };

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Each file's relative imports, as absolute paths of the .ts files they name. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(SPECIFIER)].map((match) => resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

function folderOf(file: string): string {
  const [first, second] = relative(SRC, file).split('/');
  return second === undefined ? '(root)' : first!;
}

/** The strongly connected groups of more than one file (Tarjan): each is an import cycle. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(relative(SRC, member));
    } while (member !== file);
    if (group.length > 1) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the layers of src/', () => {
  const graph = importGraph();

  it('reads every import it is about (a sanity check of the reader itself)', () => {
    expect(graph.size).toBeGreaterThan(150);
    const planner = graph.get(join(SRC, 'engine/planner.ts'))!.map((target) => relative(SRC, target));
    expect(planner).toEqual(expect.arrayContaining(['model/plan.ts', 'kinds/registry.ts', 'policy/evaluate.ts']));
    // A dynamic import counts as an arrow too.
    expect(graph.get(join(SRC, 'cli/launch.ts'))!.map((target) => relative(SRC, target))).toContain('cli/program.ts');
  });

  it('has no import cycle between files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has every folder in a layer, importing only the layers below it', () => {
    const climbing: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      const allowed = BESIDE[from] ?? (LAYERS.includes(from) ? LAYERS.slice(LAYERS.indexOf(from) + 1) : undefined);
      expect(allowed, `src/${from} is in no layer: add it to LAYERS (or BESIDE) and ARCHITECTURE.md`).toBeDefined();
      for (const target of targets) {
        const to = folderOf(target);
        if (to !== from && !allowed!.includes(to)) climbing.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(climbing).toEqual([]);
  });
});
