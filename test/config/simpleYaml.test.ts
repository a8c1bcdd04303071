// The fast path reads exactly the value the yaml library reads (and the numbers and key names
// the checks need from it) for every file it takes, and declines every file it does not
// understand; what it takes would draw no finding from the checks it skips. Checked on every
// fixture and example, on variants of each (comments, blank lines, no final newline, quoting,
// indentation), and on a list of constructs the library must handle.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPair, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { describe, expect, it } from 'vitest';
import { TextLines } from '../../src/config/positions.js';
import { checkYamlPitfalls } from '../../src/config/pitfalls.js';
import { MAX_SIMPLE_DEPTH, parseSimpleYaml, resolvePlain } from '../../src/config/simpleYaml.js';
import type { ConfigSource } from '../../src/config/sources.js';
import { checkAliasExpansion, checkKeys, checkMergeKeys, checkNesting, checkNumbers, checkTags, findStarValues, forEachInOrder, scanNesting } from '../../src/config/structure.js';

const OPTIONS = { uniqueKeys: false, prettyErrors: false, merge: true, logLevel: 'error' } as const;
const ROOTS = ['../fixtures/', '../../examples/'].map((path) => fileURLToPath(new URL(path, import.meta.url)));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) && existsSync(path) ? [path] : []; // not a dangling link
  });
}

/** Every key name of a document, as the fast path lists them. */
function keyNames(doc: Document): Set<string> {
  const names = new Set<string>();
  forEachInOrder(doc, (node) => {
    if (isPair(node) && isScalar(node.key)) names.add(String(node.key.value));
  });
  return names;
}

/** Parses with both paths; the fast one may decline, but what it reads must be the library's. */
function compare(text: string): 'taken' | 'declined' {
  const named = JSON.stringify(text.slice(0, 300));
  const simple = parseSimpleYaml(text);
  if (simple === undefined) return 'declined';
  const libraryLines = new LineCounter();
  const library = parseDocument(text, { ...OPTIONS, lineCounter: libraryLines });
  expect(library.errors, named).toEqual([]);
  expect(library.warnings, named).toEqual([]);
  expect(simple.value, named).toEqual(library.toJS({ maxAliasCount: -1 }));
  expect(simple.keys, named).toEqual(keyNames(library));
  // Positions are asked of the fast path's line index and the library's Document.
  const lines = new TextLines(text);
  for (const offset of [0, 1, Math.floor(text.length / 3), Math.floor(text.length / 2), text.length - 1, text.length]) {
    expect(lines.linePos(offset), `${named} at ${offset}`).toEqual(libraryLines.linePos(offset));
  }
  const fastSource = { file: 'f.yaml', doc: library, lineCounter: lines, text };
  const librarySource = { file: 'f.yaml', doc: library, lineCounter: libraryLines, text };
  expect(checkNumbers(fastSource, simple.numbers), named).toEqual(checkNumbers(librarySource));
  // The checks the fast path skips would find nothing in what it takes.
  expect(checkNesting(librarySource), named).toBeUndefined();
  expect(findStarValues(text), named).toEqual([]);
  expect([...checkKeys(librarySource), ...checkTags(librarySource), ...checkMergeKeys(librarySource)], named).toEqual([]);
  expect(checkAliasExpansion(librarySource), named).toBeUndefined();
  const walked: ConfigSource = { ...librarySource, path: '/f.yaml', name: 'f.yaml', value: simple.value, broken: false };
  expect(checkYamlPitfalls(walked).filter((finding) => finding.code !== 'yaml.unquotedColor'), named).toEqual([]);
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
  it('reads the library\'s value for every fixture and example it takes, and their variants', () => {
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
      'list:\n  - one\n  - "two"\n  - 3\n  -   four   # four\n  - five #\n',
      'a: 1\n\n\n# only comments below\n\n',
      'labels:\n  - name: l1\n    documents: [d0000001, d0000002,d3 ,  d4]\n    pruneDocuments: true\n',
      "a: [1, 2.50, true, null, 0x1F, 1e3, x@y.z, a/b+c-d_e]\nb: []\nc: [ ]\nd: ['q', \"r\" , s]   # note\ne: [last]",
      'list:\n  - owner: a@b.c\n    to: [a@b.c, d@e.f]\n',
    ]) {
      expect(compare(text), JSON.stringify(text)).toBe('taken');
    }
  });

  it('lists the numbers checkNumbers must look at, so that it finds what its walk finds, in the same order', () => {
    const text = 'a: 12345678901234567890\nlist:\n  - n: 0.1000000000000000055511151231257827\n  - n: 3\n  - m: 9007199254740993\nb: 1.50\nc: [0.5, 1e400]\n';
    const simple = parseSimpleYaml(text)!;
    expect(simple).toBeDefined();
    // 3 is written as JavaScript writes it: exact, and not listed.
    expect(simple.numbers.map((number) => number.written)).toEqual(['12345678901234567890', '0.1000000000000000055511151231257827', '9007199254740993', '1.50', '0.5', '1e400']);
    const library = parseDocument(text, { ...OPTIONS, lineCounter: new LineCounter() });
    const listed = checkNumbers({ file: 'f.yaml', doc: library, lineCounter: new TextLines(text) }, simple.numbers);
    expect(listed.length).toBe(4);
    expect(listed).toEqual(checkNumbers({ file: 'f.yaml', doc: library, lineCounter: new TextLines(text) }));
  });

  it('resolves plain values as the core schema does', () => {
    const written = ['', '~', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'n',
      '0', '-0', '+0', '007', '-12', '+12', '0o17', '0o8', '0x1F', '0xg', '0X1F', '1_000', '1,000', '.5', '5.', '-.5', '+5.0', '1.50', '1e3', '1E-3', '-1.5e+3', '.5e1', '1e', 'e1',
      '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', 'inf', 'nan', '.Nan', '0.1.2', '1:2', '12345678901234567890', '0x' + 'f'.repeat(20), 'a@b.c', 'd0000001', 'TRUEISH', 'nullable', 'Nope', '~x', 'f'];
    for (const text of written) {
      const library = parseDocument(`a: ${text}\n`, OPTIONS).toJS() as { a: unknown } | null;
      expect(resolvePlain(text), JSON.stringify(text)).toEqual(text === '' ? null : library!.a);
    }
  });

  it('takes nothing nested deep enough for checkNesting to report, so skipping it is safe', () => {
    const maps = (levels: number) => Array.from({ length: levels }, (_, level) => `${'  '.repeat(level)}k${level}:`).join('\n') + ' 1\n';
    const lists = (levels: number) => `root:\n${Array.from({ length: levels }, (_, level) => `${'  '.repeat(level + 1)}- k${level}:`).join('\n')} 1\n`;
    const mixed = (levels: number) => Array.from({ length: levels }, (_, level) => `${'    '.repeat(level)}k${level}:\n${'    '.repeat(level)}  - x: 1`).join('\n') + '\n';
    for (const build of [maps, lists, mixed]) {
      let deepest = 0;
      for (let levels = 1; levels <= 80; levels += 1) {
        const text = build(levels);
        if (parseSimpleYaml(text) === undefined) continue;
        deepest = levels;
        expect(scanNesting(text), `${levels} levels`).toBeUndefined();
      }
      expect(deepest, build(3)).toBeGreaterThan(10);
    }
    expect(parseSimpleYaml(maps(40))).toBeDefined();
    expect(parseSimpleYaml(maps(MAX_SIMPLE_DEPTH + 2))).toBeUndefined();
    const tooDeep = maps(70);
    expect(checkNesting({ file: 'f.yaml', doc: parseDocument(tooDeep, OPTIONS), lineCounter: new LineCounter(), text: tooDeep })).toBeDefined();
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
      'name: Weekly #1 report\n',
      'prompt: List the top #5 deals\n',
      'labels:\n  - q3 #finance\n',
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
