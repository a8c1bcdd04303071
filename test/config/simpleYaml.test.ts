// The fast path builds exactly the Document the yaml library builds (the same nodes, values,
// ranges, sources, scalar types and formats, and the same line starts) for every file it takes,
// and declines every file it does not understand. Checked on every fixture and example, on
// variants of each (comments, blank lines, no final newline, quoting, indentation), and on a
// list of constructs the library must handle.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSimpleDocument } from '../../src/config/simpleYaml.js';
import { checkNesting, checkNumbers } from '../../src/config/structure.js';

const OPTIONS = { uniqueKeys: false, prettyErrors: false, merge: true, logLevel: 'error' } as const;
const ROOTS = ['../fixtures/', '../../examples/'].map((path) => fileURLToPath(new URL(path, import.meta.url)));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) && existsSync(path) ? [path] : []; // not a dangling link
  });
}

/** A node as data: what the checks, positions and toJS read of it (comments aside). */
function shape(node: unknown): unknown {
  if (isMap(node) || isSeq(node)) {
    return { kind: isMap(node) ? 'map' : 'seq', range: node.range, flow: node.flow, tag: node.tag, anchor: node.anchor, items: node.items.map(shape) };
  }
  if (isPair(node)) return { key: shape(node.key), value: shape(node.value) };
  if (isScalar(node)) {
    const { value, range, source, type, format, tag, anchor, minFractionDigits } = node;
    return { kind: 'scalar', value: typeof value === 'symbol' ? String(value) : value, range, source, type, format, tag, anchor, minFractionDigits };
  }
  return { other: String(node) };
}

/** Parses with both paths; the fast one may decline, but what it builds must be the library's. */
function compare(text: string): 'taken' | 'declined' {
  const named = JSON.stringify(text.slice(0, 300));
  const fastLines = new LineCounter();
  const simple = parseSimpleDocument(text, OPTIONS, fastLines);
  if (simple === undefined) return 'declined';
  const fast = simple.doc;
  const libraryLines = new LineCounter();
  const library = parseDocument(text, { ...OPTIONS, lineCounter: libraryLines });
  expect(library.errors, named).toEqual([]);
  expect(library.warnings, named).toEqual([]);
  expect(shape(fast.contents), named).toEqual(shape(library.contents));
  expect(fast.range, named).toEqual(library.range);
  expect(fastLines.lineStarts, named).toEqual(libraryLines.lineStarts);
  expect(simple.value, named).toEqual(library.toJS({ maxAliasCount: -1 }));
  expect(fast.toJS({ maxAliasCount: -1 }), named).toEqual(library.toJS({ maxAliasCount: -1 }));
  return 'taken';
}

/** Ways of writing the same file that the fast path should follow or decline correctly. */
function variants(text: string): string[] {
  const lines = text.split('\n');
  return [
    text,
    text.replace(/\n+$/, ''),
    `${text}\n\n`,
    `# leading comment\n\n${text}`,
    `${text}# trailing comment\n`,
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: \S/.test(line) && !line.includes('#') ? `${line}   # note` : line)).join('\n'),
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: [A-Za-z][\w .@-]*$/.test(line) ? line.replace(/: (.*)$/, ': "$1"') : line)).join('\n'),
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: [A-Za-z][\w .@-]*$/.test(line) ? line.replace(/: (.*)$/, ": '$1'") : line)).join('\n'),
    lines.map((line, index) => (index % 3 === 1 ? `${line}\n` : line)).join('\n'),
    lines.map((line, index) => (index % 4 === 2 ? `  # between\n${line}` : line)).join('\n'),
    lines.map((line) => line.replace(/^(\s*)- /, '$1-   ')).join('\n'),
    lines.map((line) => `${line}  `).join('\n'),
  ];
}

describe('simple YAML fast path', () => {
  it('builds the library\'s Document for every fixture and example it takes, and their variants', () => {
    const files = ROOTS.flatMap(yamlFiles);
    expect(files.length).toBeGreaterThan(150);
    let taken = 0;
    let declined = 0;
    for (const file of files) {
      for (const text of variants(readFileSync(file, 'utf8'))) {
        if (compare(text) === 'taken') taken += 1;
        else declined += 1;
      }
    }
    // About half: the fixtures hold every kind of mistake, and nested flow collections, block
    // text and the like are the library's; the point is that every file taken compares equal.
    expect(taken).toBeGreaterThan(1000);
    expect(declined).toBeGreaterThan(0);
  });

  it('takes the forms a large configuration is written in', () => {
    const limits = Array.from({ length: 50 }, (_, index) => `  - email: p${index}@acme.example\n    creditLimit: ${index * 10}\n`).join('');
    for (const text of [
      `version: 1\nuserCreditLimits:\n${limits}`,
      `version: 1\nuserCreditLimits:\n- email: a@b.c\n  creditLimit: 1.50\n- email: "d@e.f"\n  creditLimit: null\nnext: ~\n`,
      'a:\n  b:\n    c: true\n    d: False\n  e: -3\nf: 2.0\ng: 0.25\nh: text with spaces, commas [and] {braces}\ni: https://acme.example/x?y=1#frag\nj: ${TOKEN}\nk: it\'s\n',
      'empty:\nnext: 1\nalso_empty:   \nlast: 1\n',
      'list:\n  - one\n  - "two"\n  - 3\n  -   four   # four\n',
      'a: 1\n\n\n# only comments below\n\n',
      'labels:\n  - name: l1\n    documents: [d0000001, d0000002,d3 ,  d4]\n    pruneDocuments: true\n',
      "a: [1, 2.50, true, null, 0x1F, 1e3, x@y.z, a/b+c-d_e]\nb: []\nc: [ ]\nd: ['q', \"r\" , s]   # note\ne: [last]",
      'list:\n  - owner: a@b.c\n    to: [a@b.c, d@e.f]\n',
    ]) {
      expect(compare(text), JSON.stringify(text)).toBe('taken');
    }
  });

  it('lists its numbers so that checkNumbers finds what its walk finds, in the same order', () => {
    const text = 'a: 12345678901234567890\nlist:\n  - n: 0.1000000000000000055511151231257827\n  - n: 3\n  - m: 9007199254740993\nb: 1.50\n';
    const lines = new LineCounter();
    const simple = parseSimpleDocument(text, OPTIONS, lines)!;
    expect(simple).toBeDefined();
    const source = { file: 'f.yaml', doc: simple.doc, lineCounter: lines };
    const listed = checkNumbers(source, simple.numbers);
    expect(listed.length).toBe(3);
    expect(listed).toEqual(checkNumbers(source));
    const library = parseDocument(text, { ...OPTIONS, lineCounter: new LineCounter() });
    expect(listed.map((finding) => finding.summary)).toEqual(checkNumbers({ file: 'f.yaml', doc: library, lineCounter: new LineCounter() }).map((finding) => finding.summary));
  });

  it('declines nesting deep enough for checkNesting to look at, so skipping its walk is safe', () => {
    const deep = (levels: number) => Array.from({ length: levels }, (_, level) => `${'  '.repeat(level)}k${level}:`).join('\n') + ' 1\n';
    expect(parseSimpleDocument(deep(40), OPTIONS)).toBeDefined();
    const tooDeep = deep(70);
    expect(parseSimpleDocument(tooDeep, OPTIONS)).toBeUndefined();
    const library = parseDocument(tooDeep, OPTIONS);
    expect(checkNesting({ file: 'f.yaml', doc: library, lineCounter: new LineCounter(), text: tooDeep })).toBeDefined();
  });

  it('leaves everything else to the library', () => {
    for (const text of [
      '',
      '# only a comment\n',
      '- a\n- b\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: [1, [2]]\n',
      'a: [1, 2,]\n',
      'a: [1,\n  2]\n',
      'a: [two words]\n',
      'a: [-1]\n',
      'a: [.inf]\n',
      'a: [~]\n',
      'a: [b: 1]\n',
      'a: [x] y\n',
      'a: [x #c]\n',
      "a: ['it''s']\n",
      'a: ["esc\\n"]\n',
      'a: [&x 1]\n',
      'a: [*x]\n',
      'a: [{b: 1}]\n',
      '- [a]\n',
      'a:\n  - [b]\n',
      'a: {b: 1}\n',
      'a: |\n  text\n',
      'a: >\n  text\n',
      'a: "esc\\n"\n',
      "a: 'it''s'\n",
      'a: two\n  lines\n',
      'a: 1\na: 2\n',
      '---\na: 1\n',
      'a: 1\n---\nb: 2\n',
      '%YAML 1.2\n---\na: 1\n',
      'a:\tb\n',
      'a: 1\r\nb: 2\r\n',
      'color: #0366d6\n',
      'a:\n  # note\nb: 1\n',
      '"quoted key": 1\n',
      '<<: {a: 1}\n',
      'null: 1\n',
      'true: 1\n',
      '__proto__: 1\n',
      'a: b: c\n',
      'a: - b\n',
      '- - a\n',
      'a:\n  - - b\n',
      'schedule: * 9 ? * MON *\n',
      '  a: 1\n',
      'a: 1\n b: 2\n',
      'a:\n  - b\n  c: 1\n',
      `${'k'.repeat(1025)}: 1\n`,
      `a:\n  ${'k'.repeat(1030)}: 1\n`,
    ]) {
      expect(compare(text), JSON.stringify(text)).toBe('declined');
    }
  });
});
