// Two readings of one file agree: whatever the fast path (js-yaml, fastYaml.ts) takes, the yaml
// library reads to the same value, with the same key names, and finds nothing in; what the
// library would report on, the fast path declines, so the library's path reports it as before.
// Since the value is the library's value, a position asked later of the library's Document points
// into the same reading. Checked on every YAML file of the repository (fixtures and examples),
// on variants of each, and on a list of the constructs where the two libraries could part.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPair, isScalar, LineCounter, type Document } from 'yaml';
import { describe, expect, it } from 'vitest';
import { holdsNotableCharacter } from '../../src/config/bytes.js';
import { readFast } from '../../src/config/fastYaml.js';
import { checkYamlPitfalls } from '../../src/config/pitfalls.js';
import { TextLines } from '../../src/config/positions.js';
import { checkSecrets } from '../../src/config/secrets.js';
import { parseSource, parseWithLibrary } from '../../src/config/sources.js';
import { forEachInOrder, MAX_NESTING } from '../../src/config/structure.js';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', '.git']);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) && existsSync(path) ? [path] : []; // not a dangling link
  });
}

/** Every key name of a document. */
function keyNames(doc: Document): Set<string> {
  const names = new Set<string>();
  forEachInOrder(doc, (node) => {
    if (isPair(node) && isScalar(node.key)) names.add(String(node.key.value));
  });
  return names;
}

/** Equal as plain data, and in the order of keys too (-0 is not 0, NaN is NaN). */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => sameData(item, b[index]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return sameData(keys, Object.keys(b)) && keys.every((key) => sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function textValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textValues);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(textValues);
  return [];
}

/** Reads `text` both ways; the fast path may decline, but what it takes must be the library's reading. */
function compare(text: string): 'taken' | 'declined' {
  const named = JSON.stringify(text.slice(0, 300));
  const fast = readFast(text);
  if (fast === undefined) return 'declined';
  const library = parseWithLibrary(text, '/f.yaml', 'f.yaml', 'f.yaml');
  const chosen = parseSource(text, '/f.yaml', 'f.yaml', 'f.yaml');
  // The library's path would report nothing: no syntax error or warning, duplicate key, alias,
  // tag, merge key, key that is a list or a map, inexact number, `*` value, nesting too deep, directive.
  expect(library.diagnostics, named).toEqual([]);
  expect(library.source.broken, named).toBe(false);
  expect(library.source.tainted, named).toBeUndefined();
  expect(sameData(fast.value, library.source.value), `${named}: ${JSON.stringify(fast.value)?.slice(0, 300)} against ${JSON.stringify(library.source.value)?.slice(0, 300)}`).toBe(true);
  expect(fast.keys, named).toEqual(keyNames(library.source.doc));
  expect(chosen.diagnostics, named).toEqual([]);
  expect(chosen.source.fast, named).toBeDefined();
  // The checks that skip their walk of a file the fast path read find what the walk finds.
  expect(checkYamlPitfalls(chosen.source), named).toEqual(checkYamlPitfalls(library.source));
  expect(checkSecrets(chosen.source), named).toEqual(checkSecrets(library.source));
  if (fast.verbatim) {
    for (const written of textValues(fast.value)) {
      expect(written.includes('$') || holdsNotableCharacter(written), `${named}: ${JSON.stringify(written)}`).toBe(false);
    }
  }
  // Positions come from the library's Document of the same text, counted in lines as its LineCounter does.
  expect(chosen.source.lineCounter, named).toBeInstanceOf(TextLines);
  expect(library.source.lineCounter, named).toBeInstanceOf(LineCounter);
  for (const offset of [0, 1, Math.floor(text.length / 3), Math.floor(text.length / 2), text.length - 1, text.length]) {
    expect(chosen.source.lineCounter.linePos(offset), `${named} at ${offset}`).toEqual(library.source.lineCounter.linePos(offset));
  }
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
    text.replace(/\n/g, '\r\n'),
    `\ufeff${text}`,
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: \S/.test(line) && !line.includes('#') ? `${line}   # note` : line)).join('\n'),
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: \S/.test(line) && !line.includes('#') ? `${line} #note` : line)).join('\n'),
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: [A-Za-z][\w .@-]*$/.test(line) ? line.replace(/: (.*)$/, ': "$1"') : line)).join('\n'),
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: [A-Za-z][\w .@-]*$/.test(line) ? line.replace(/: (.*)$/, ": '$1'") : line)).join('\n'),
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: [A-Za-z][\w .@-]*$/.test(line) ? line.replace(/: (.*)$/, ': >-\n      $1') : line)).join('\n'),
    lines.map((line) => (/^\s*[A-Za-z_][\w-]*: \S/.test(line) ? line.replace(/: /, ':\t') : line)).join('\n'),
    lines.map((line, index) => (index % 3 === 1 ? `${line}\n` : line)).join('\n'),
    lines.map((line, index) => (index % 4 === 2 ? `  # between\n${line}` : line)).join('\n'),
    lines.map((line) => line.replace(/^(\s*)- /, '$1-   ')).join('\n'),
    lines.map((line) => `${line}  `).join('\n'),
  ];
}

/** Where js-yaml and the library could read a file differently; each must be taken alike or declined. */
const CONSTRUCTS = [
  // values as the core schema reads them, and YAML 1.1's that it does not
  ...['', '~', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'n', 'Yes', 'NO',
    '0', '-0', '+0', '007', '-12', '+12', '0o17', '0o8', '-0o17', '0x1F', '0xg', '0X1F', '-0x1F', '0b101', '1_000', '1,000', '.5', '5.', '-.5', '+5.0', '1.50', '1e3', '1E-3', '-1.5e+3', '.5e1', '1e', 'e1',
    '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', 'inf', 'nan', '.Nan', '0.1.2', '1:2', '1:20:30', '12345678901234567890', '9007199254740993', '0.1000000000000000055511151231257827', '1e400', '-1e400', '0x' + 'f'.repeat(20),
    '2024-01-01', '2024-01-01T10:00:00Z', '2001-12-14 21:59:43.10 -5', '12:30', 'a@b.c', 'd0000001', 'TRUEISH', 'nullable', 'Nope', '~x', 'f', '=', '<<', '- x', '"q"', "'q'", '"a\\tb"', '"\\u00e9"', '"\\x24{var.a}"', "'it''s'",
  ].flatMap((written) => [`a: ${written}\n`, `- ${written}\n`, `a: [${written}]\n`, `a: {b: ${written}}\n`]),
  // keys
  'a: 1\na: 2\n', 'a: 1\nb:\n  c: 1\n  c: 2\n', '- {a: 1, a: 2}\n', '1: a\n"1": b\n', '1: a\n01: b\n', 'true: 1\n', 'null: 1\n', '~: 1\n', ': 1\n', '"null": 1\n', '"": 1\n',
  '__proto__: 1\n', 'a:\n  __proto__: {b: 1}\n', '[a, b]: 1\n', '{a: 1}: 2\n', '? a\n: 1\n', '? [a]\n: 1\n', '? - a\n: 1\n', '- ? a\n  : 1\n', '[a]: 1\n', '{[a]: 1}\n', '[{a: 1}]: 2\n',
  `${'k'.repeat(1024)}: 1\n`, `${'k'.repeat(1025)}: 1\n`, `a:\n  ${'k'.repeat(1030)}: 1\n`, '"a\nb": 1\n', 'a b: 1\n', 'a :1\n', 'a : 1\n', '"a" : 1\n', 'a:1\n',
  // anchors, aliases, merge keys
  'a: &x 1\nb: *x\n', 'a: *x\n', 'a: &x [1]\nb: *x\n', 'base: &b {a: 1}\nc:\n  <<: *b\n  d: 2\n', 'base: &b {a: 1}\nc:\n  a: 0\n  <<: *b\n', 'c:\n  <<: {a: 1}\n  b: 2\n', 'c:\n  <<: [{a: 1}, {a: 2}]\n',
  'c:\n  <<: 5\n', '"<<": 1\n', 'a: "<<"\n', 'a: &x\n  b: 1\nc: *x\n', '&x a: 1\n', 'a: &x\nb: *x\n',
  // tags
  'a: !!str 1\n', 'a: !!int "1"\n', 'a: !!float 1\n', 'a: !!binary aGk=\n', 'a: !custom 1\n', 'a: ! 1\n', 'a: !<tag:yaml.org,2002:str> 1\n', 'a: !!map {b: 1}\n', 'a: !!seq [1]\n', 'a: !!set {b}\n', 'a: !!timestamp 2024-01-01\n',
  'a: !!null\n', 'a: !!bool yes\n', '%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n',
  // directives and documents
  '%YAML 1.1\n---\na: yes\n', '%YAML 1.2\n---\na: 1\n', '---\na: 1\n', '---\na: 1\n...\n', 'a: 1\n---\nb: 2\n', 'a: 1\n...\nb: 2\n', '--- a\n', '---\n', '...\n', '# only a comment\n', '\n\n',
  // text: quoting, escapes, block scalars, text over several lines, comments
  'a: "x\\ny"\n', 'a: "x\\\n  y"\n', 'a: "x\\qy"\n', 'a: "\\u200b"\n', 'a: "\\x01"\n', 'a: "\\e"\n', 'a: "\\N\\_\\L\\P"\n', "a: 'x\\ny'\n", 'a: "$${x}"\n', 'a: ${x}\n', 'a: "${x}"\n',
  'a: |\n  one\n  two\n', 'a: |-\n  one\n', 'a: |+\n  one\n\n', 'a: >\n  one\n  two\n\n  three\n', 'a: >-\n  one\n   two\n', 'a: |2\n   one\n', 'a: |\n\ttab\n', 'a: |\n  # not a comment\n', 'a: |\n  schedule: * 9 ? * MON *\n',
  'a: |\n  x\n b: 1\n', 'a: two\n  lines\n', 'a:\n  b: two\n   lines\n', 'a:\n  b: two\n  lines\n', '- a: two\n  lines\n', '- a: two\n   lines\n', 'a: one\n\n  two\n', 'a: one\n  # c\n  two\n', 'a: one\n# c\n  two\n',
  'a: "one\n  two"\n', '- a: "one\n  two"\n', '- a: "one\n    two"\n', 'a:\n  b: "one\n  two"\n', 'a:\n  b: "one\n   two"\n', "a: 'one\n\n  two'\n", 'a:\n  "one\n  two"\n',
  'a: [1,\n2]\n', 'a:\n  b: [1,\n  2]\n', 'a:\n  b: [1,\n    2]\n', 'a:\n  b: {c: 1,\n d: 2}\n', 'a: [\n  1, 2\n]\n', 'a:\n  - [1,\n     2]\n',
  'a: "x"#c\n', "a: 'x'#c\n", 'a: [x]#c\n', 'a: {x: 1}#c\n', 'a: "x" #c\n', 'a: x#c\n', 'a: x #c\n', 'a: x # c\n', 'a: # c\n', 'color: #0366d6\n', 'color: "#0366d6"\n', 'color:\n  #fff\nb: 1\n', 'color:\n#fff\nb: 1\n',
  'name: Weekly #1 report\n', 'labels:\n  - q3 #finance\n', 'a: 8000 #was 7000\n', 'a: x\t#c\n', 'a:\n  # note\nb: 1\n', 'a:\n  - b\n  # note\n', 'a: 1 # c\n# d\n',
  'a: "x" y\n', 'a: [x] y\n', 'a: [x]y\n', 'a: b: c\n', 'a: - b\n', '- - a\n', 'a:\n  - - b\n', 'a: [1, [2]]\n', 'a: [1, 2,]\n', 'a: [b: 1]\n', 'a: {b}\n', 'a: {b: }\n', 'a: [, 1]\n', 'a: {"b":1}\n', 'a: {"b":1,"c":[2]}\n',
  'a: @x\n', 'a: `x\n', 'a: %x\n', 'a: -x\n', 'a: -\n', 'a: ?x\n', 'a: x, y\n', 'a: x]\n', 'a: x}\n', 'a: "unclosed\n', "a: 'unclosed\n", 'a: [unclosed\n', 'a: {unclosed\n', 'a: "x""y"\n',
  // whitespace and characters
  'a:\tb\n', 'a: b\tc\n', 'a:\n\t- 1\n', '\ta: 1\n', 'a: 1\r\nb: 2\r\n', 'a: 1\rb: 2\n', 'a: |\r\n  x\r\n  y\r\n', '\ufeffa: 1\n', 'a: 1\n\ufeffb: 2\n', 'a: b\u200bc\n', 'a: b\u0085c\n', 'a: b\u2028c\n', 'a: \u00e9\u4e2d\n',
  '  a: 1\n', 'a: 1\n b: 2\n', 'a:\n  - b\n  c: 1\n', 'a:\n  b: 1\n c: 2\n', 'a:\n    b: 1\n  c: 2\n',
  // `*` values and nesting
  'schedule: * 9 ? * MON *\n', 'schedule: "* 9 ? * MON *"\n', 'a: *\n', 'a: x * y\n', 'a: "0 9 ? * MON *"\n', 'a: 0 9 ? * MON *\n',
  ...[30, 59, 60, 62, 63, 64, 65, 70].flatMap((levels) => [
    Array.from({ length: levels }, (_, level) => `${'  '.repeat(level)}k${level}:`).join('\n') + ' 1\n',
    `a: ${'['.repeat(levels)}1${']'.repeat(levels)}\n`,
    `${Array.from({ length: levels }, () => '- ').join('')}1\n`,
  ]),
];

const files = yamlFiles(REPOSITORY);
const outcomes = { taken: 0, declined: 0 };

describe('the fast path and the yaml library', () => {
  it.each(files.map((file) => [file.slice(REPOSITORY.length), file]))('read %s and its variants alike, or the fast path declines it', (_, file) => {
    for (const text of variants(readFileSync(file, 'utf8'))) outcomes[compare(text)] += 1;
  });

  it('do so on every YAML file of the repository, most of which the fast path takes', () => {
    expect(files.length).toBeGreaterThan(200);
    // The fixtures hold every kind of mistake, which are the library's to report.
    expect(outcomes.taken).toBeGreaterThan(outcomes.declined);
    expect(outcomes.declined).toBeGreaterThan(500);
  });

  it('read each construct where they could part alike, or the fast path declines it', () => {
    const constructs = { taken: 0, declined: 0 };
    for (const text of CONSTRUCTS) constructs[compare(text)] += 1;
    // Both outcomes occur: the comparison means something in each.
    expect(constructs.taken).toBeGreaterThan(100);
    expect(constructs.declined).toBeGreaterThan(100);
  });

  it('take the forms configurations are written in, large ones above all', () => {
    const limits = Array.from({ length: 50 }, (_, index) => `  - email: p${index}@acme.example\n    creditLimit: ${index * 10}\n`).join('');
    for (const text of [
      `version: 1\nuserCreditLimits:\n${limits}`,
      `version: 1\nuserCreditLimits:\n- email: a@b.c\n  creditLimit: 1.50\n- email: "d@e.f"\n  creditLimit: null\nnext: ~\n`,
      'a:\n  b:\n    c: true\n    d: False\n  e: -3\nf: 2.0\ng: 0.25\nh: text with spaces, commas [and] {braces}\ni: https://acme.example/x?y=1#frag\nj: ${TOKEN}\nk: it\'s\n',
      'empty:\nnext: 1\nalso_empty:   \nlast: 1\n',
      'list:\n  - one\n  - "two"\n  - 3\n  -   four   # four\n  - five #\n',
      'labels:\n  - name: l1\n    documents: [d0000001, d0000002,d3 ,  d4]\n    pruneDocuments: true\n',
      'routines:\n  - name: "Weekly #1 digest"\n    schedule: "0 9 ? * MON *"\n    prompt: |\n      List the deals that moved.\n      Group them by region.\n    destination: {type: email, recipientEmails: [a@b.c]}\n',
      'a: "tab\\there, \\"quoted\\", \\u00e9"\nb: \'it\'\'s\'\nc: >-\n  folded\n  text\n',
    ]) {
      expect(compare(text), JSON.stringify(text)).toBe('taken');
    }
  });

  it('decline what the library reports or reads otherwise', () => {
    for (const text of [
      '',
      'a: 1\na: 2\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: ! 1\n',
      'c:\n  <<: {a: 1}\n',
      '? [a, b]\n: 1\n',
      '[a]: 1\n',
      'null: 1\n',
      '%YAML 1.1\n---\na: yes\n',
      'a: 1\n---\nb: 2\n',
      'a: 12345678901234567890\n',
      'a: 1e400\n',
      'a: .nan\n',
      '- a: "one\n  two"\n',
      'a: [1,\n2]\n',
      'a: "x"#c\n',
      'schedule: * 9 ? * MON *\n',
      'a: |\n  schedule: * 9 ? * MON *\n',
      'a: 1\rb: 2\n',
      `a: ${'['.repeat(MAX_NESTING + 1)}1${']'.repeat(MAX_NESTING + 1)}\n`,
    ]) {
      expect(compare(text), JSON.stringify(text)).toBe('declined');
    }
  });
});

