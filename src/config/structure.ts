// Limits and exactness of a parsed YAML file, checked before anything walks it recursively:
// nesting depth, how much aliases expand, keys that are not text, numbers that JavaScript cannot
// hold exactly (YAML would round 12345678901234567890123 silently), plain values that start
// with `*` (YAML reads them as aliases; a cron schedule is the usual victim), tags beyond the
// core schema, merge keys that merge no map, and a `%YAML 1.1` directive.
import type { Alias, Document, Node } from 'yaml';
import { positionAt, type PositionedDocument } from './positions.js';
import { stackOverflowAt } from './syntax.js';
import { yaml } from './yamlLibrary.js';
import type { ConfigPath, Diagnostic } from './types.js';
import { grouped } from '../domain/numbers.js';

/** Maps and lists nest at most this deep; a configuration needs about six levels. */
export const MAX_NESTING = 64;
/** Aliases may repeat at most this many values in one file (an alias bomb repeats billions). */
export const MAX_ALIAS_EXPANSION = 100_000;

/**
 * The first place nesting goes past MAX_NESTING, or where the parser gave up because it did.
 * (The fast path takes no file whose text scan reports anything, and skips this.)
 */
export function checkNesting(source: PositionedDocument & { text: string }): Diagnostic | undefined {
  const scanned = scanNesting(source.text);
  if (scanned !== undefined) return nestingDiagnostic(source, scanned);
  const { isMap, isPair, isSeq } = yaml();
  const overflow = stackOverflowAt(source.doc);
  if (overflow !== undefined) return nestingDiagnostic(source, overflow);
  const stack: { node: unknown; depth: number }[] = [{ node: source.doc.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth + 1 > MAX_NESTING) return nestingDiagnostic(source, node.range?.[0] ?? 0);
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        stack.push({ node: item.key, depth: depth + 1 }, { node: item.value, depth: depth + 1 });
      } else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Where the nesting of `text` passes MAX_NESTING, found without parsing (a parser recurses, and
 * where its stack runs out varies): block levels by indentation and `- ` / `? ` indicators,
 * flow levels by brackets outside quotes and comments. It counts generously (a level too many
 * rather than too few), so it is a bound, not a measure; undefined when the text stays within it.
 */
export function scanNesting(text: string): number | undefined {
  const indents: number[] = [];
  let flow = 0;
  let scalarIndent: number | undefined; // inside a block scalar (`|` or `>`) deeper than this
  let offset = 0;
  for (const line of text.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    let position = 0;
    if (flow === 0) {
      const indent = /^ */.exec(line)![0].length;
      const rest = line.slice(indent);
      if (rest.trim() === '' || rest.startsWith('#')) continue;
      if (scalarIndent !== undefined && indent > scalarIndent) continue;
      scalarIndent = undefined;
      while (indents.length > 0 && indents.at(-1)! >= indent) indents.pop();
      indents.push(indent);
      position = indent;
      let depth = indents.length;
      while (/^[-?](?:[ \t]|$)/.test(line.slice(position))) {
        depth++;
        if (depth > MAX_NESTING) return lineStart + position;
        position += 1 + /^[ \t]*/.exec(line.slice(position + 1))![0].length;
      }
      if (depth > MAX_NESTING) return lineStart + position;
      // Most lines hold neither a block scalar indicator nor a bracket: the scans below are skipped.
      if (BLOCK_SCALAR_CHARACTER.test(line) && /(?:^|[:\-]\s)[|>][-+0-9]*\s*(?:#.*)?$/.test(line.slice(position))) scalarIndent = indent;
      const found = BRACKET.test(line) ? scanFlow(line, position, depth, (level) => level > MAX_NESTING) : { flow: 0 };
      if (found.at !== undefined) return lineStart + found.at;
      flow = found.flow;
    } else {
      const found = scanFlow(line, 0, indents.length + flow, (level) => level > MAX_NESTING);
      if (found.at !== undefined) return lineStart + found.at;
      flow += found.flow;
    }
  }
  return undefined;
}

const BLOCK_SCALAR_CHARACTER = /[|>]/;
const BRACKET = /[[\]{}]/;

/** Brackets opened (minus closed) on one line from `start`, and where the level first passes the limit. */
function scanFlow(line: string, start: number, base: number, tooDeep: (level: number) => boolean): { flow: number; at?: number } {
  let flow = 0;
  let quote: string | undefined;
  for (let index = start; index < line.length; index++) {
    const character = line[index]!;
    if (quote !== undefined) {
      if (character === '\\' && quote === '"') index++;
      else if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'") {
      if (index === 0 || /[\s[{,:]/.test(line[index - 1]!)) quote = character;
    } else if (character === '#' && (index === 0 || /\s/.test(line[index - 1]!))) {
      break;
    } else if (character === '[' || character === '{') {
      flow++;
      if (tooDeep(base + flow)) return { flow, at: index };
    } else if (character === ']' || character === '}') {
      flow--;
    }
  }
  return { flow };
}

function nestingDiagnostic(source: PositionedDocument, offset: number): Diagnostic {
  return {
    severity: 'error',
    code: 'yaml.tooDeep',
    summary: `lists and maps nest deeper than ${MAX_NESTING} levels here`,
    hint: 'a steward configuration nests a few levels only: check for unclosed or repeated brackets',
    location: positionAt(source, offset),
  };
}

/** The alias at which the values aliases repeat pass MAX_ALIAS_EXPANSION, if any. */
export function checkAliasExpansion(source: PositionedDocument): Diagnostic | undefined {
  const { isAlias, isMap, isPair, isSeq } = yaml();
  const sizes = new Map<unknown, number>();
  const sizeOf = (node: unknown): number => {
    if (isAlias(node)) {
      const target = node.resolve(source.doc);
      return target === undefined ? 1 : sizeOf(target);
    }
    if (!isMap(node) && !isSeq(node)) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    sizes.set(node, 1); // a self-referring alias counts once instead of looping
    let size = 1;
    for (const item of node.items as unknown[]) {
      size += isPair(item) ? sizeOf(item.key) + sizeOf(item.value) : sizeOf(item);
      if (size > MAX_ALIAS_EXPANSION) break;
    }
    sizes.set(node, size);
    return size;
  };
  let expanded = 0;
  for (const alias of aliasesInOrder(source.doc)) {
    expanded += sizeOf(alias);
    if (expanded > MAX_ALIAS_EXPANSION) {
      return {
        severity: 'error',
        code: 'yaml.aliasExpansion',
        summary: `alias \`*${alias.source}\` makes the file repeat more than ${grouped(MAX_ALIAS_EXPANSION)} values`,
        hint: 'aliases of aliases multiply: write the values out, or repeat fewer levels',
        location: positionAt(source, alias.range?.[0] ?? 0),
      };
    }
  }
  return undefined;
}

function aliasesInOrder(doc: Document): Alias[] {
  const { isAlias, isMap, isPair, isSeq } = yaml();
  const found: Alias[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isAlias(node)) found.push(node);
    else if (isMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        if (isPair(item)) stack.push(item.key, item.value);
        else stack.push(item);
      }
    }
  }
  return found.sort((a, b) => (a.range?.[0] ?? 0) - (b.range?.[0] ?? 0));
}

/** Keys that are lists, maps or aliases: a configuration's keys are names. */
export function checkKeys(source: PositionedDocument): Diagnostic[] {
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  const diagnostics: Diagnostic[] = [];
  forEachNode(source.doc, (node) => {
    if (!isMap(node)) return;
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      if (key === null || isScalar(key)) continue;
      const what = isAlias(key) ? 'an alias' : isSeq(key) ? 'a list' : 'a map';
      diagnostics.push({
        severity: 'error',
        code: 'yaml.complexKey',
        summary: `a key must be a name, but this key is ${what}`,
        hint: 'write the key as plain text, e.g. `name:`',
        location: positionAt(source, key.range?.[0] ?? 0),
      });
    }
  });
  return diagnostics;
}

/**
 * Numbers that are not what was written once stored: past ±(2^53 − 1), more digits than a
 * double holds, or not finite (`.inf`, `.nan`). The server would receive a different value.
 * The offset of each number reported is added to `reported`, so later checks can leave it alone.
 */
export function checkNumbers(source: PositionedDocument, reported?: number[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const { isScalar } = yaml();
  forEachNode(source.doc, (node) => {
    if (!isScalar(node) || typeof node.value !== 'number') return;
    const { value } = node;
    const written = (node.source ?? String(value)).trim();
    const problem = numberProblem(value, written);
    if (problem === undefined) return;
    const offset = node.range?.[0] ?? 0;
    reported?.push(offset);
    diagnostics.push({
      severity: 'error',
      code: 'number.inexact',
      summary: `\`${written}\` ${problem}`,
      hint: Number.isFinite(value) ? 'use a smaller number, with at most 15 significant digits' : 'write a finite number, or null',
      location: positionAt(source, offset),
    });
  });
  return diagnostics;
}

/** Why a parsed number is not the number that was written, or undefined when it is exact. */
export function numberProblem(value: number, written: string): string | undefined {
  // Written as JavaScript writes a safe integer: exact (the common case, without the regexes below).
  if (Number.isSafeInteger(value) && String(value) === written) return undefined;
  if (!Number.isFinite(value)) return 'is not a finite number';
  if (Math.abs(value) > Number.MAX_SAFE_INTEGER) {
    return `is larger than ${grouped(Number.MAX_SAFE_INTEGER)}, the largest number steward can send exactly`;
  }
  const decimal = canonicalDecimal(written);
  if (decimal !== undefined && decimal !== canonicalDecimal(String(value))) {
    return `has more digits than can be stored exactly; it would be sent as ${String(value)}`;
  }
  return undefined;
}

/** A decimal literal as `digits e exponent` without leading or trailing zeros; undefined for other forms. */
function canonicalDecimal(text: string): string | undefined {
  const match = /^[-+]?(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`;
  let scale = Number(exponent) - fraction.length;
  digits = digits.replace(/^0+/, '');
  if (digits === '') return '0';
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  scale += trailing;
  return `${digits}e${scale}`;
}

/** A plain value that starts with `*` and goes on after a space: YAML reads an alias, then fails. */
export interface StarValue {
  key: string;
  value: string;
  line: number;
  col: number;
}

/** Lines like `schedule: * 9 ? * MON *`, found in the text since YAML cannot parse them. */
export function findStarValues(text: string): StarValue[] {
  const found: StarValue[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const match = /^(\s*(?:-\s+)*)([A-Za-z_][\w-]*)(:[ \t]+)(\*\S*(?:[ \t]+(?!#)\S+)+?)[ \t]*(?:[ \t]#.*)?$/.exec(line);
    if (match === null) return;
    const [, lead = '', key = '', separator = '', value = ''] = match;
    found.push({ key, value, line: index + 1, col: lead.length + key.length + separator.length + 1 });
  });
  return found;
}

/** The diagnostic for one StarValue: quote it (with the cron fields named for a schedule). */
export function starValueDiagnostic(file: string, star: StarValue): Diagnostic {
  const schedule = star.key === 'schedule';
  return {
    severity: 'error',
    code: 'yaml.unquotedStar',
    summary: `\`${star.key}\` starts with \`*\`, which YAML reads as an alias${schedule ? ', not as the start of a cron schedule' : ''}`,
    hint: `quote the value: \`${star.key}: "${star.value.replace(/"/g, '\\"')}"\``,
    location: { file, line: star.line, col: star.col },
  };
}

// The tags of YAML's core schema: they only say what plain YAML would infer anyway.
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`));

/**
 * Tags beyond the core schema (`!!binary`, `!!set`, `!!omap`, `!custom`) make values a
 * configuration has no use for, or none at all: one error at the tag instead of a confusing
 * type error (or a silently ignored tag) later. The offset of each tagged value is added to
 * `reported`.
 */
export function checkTags(source: PositionedDocument & { text: string }, reported?: number[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  forEachNode(source.doc, (node) => {
    const { tag, range } = node as { tag?: string; range?: [number, number, number] | null };
    if (tag === undefined || CORE_TAGS.has(tag)) return;
    const start = range?.[0] ?? 0;
    reported?.push(start);
    let at = source.text.lastIndexOf('!', start);
    while (at > 0 && source.text[at - 1] === '!') at--;
    const shown = tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
    diagnostics.push({
      severity: 'error',
      code: 'yaml.tag',
      summary: `the YAML tag \`${shown}\` is not supported in a configuration`,
      hint: 'remove the tag: write plain text, numbers, true/false, lists and maps',
      location: positionAt(source, at >= 0 ? at : start),
    });
  });
  return diagnostics;
}

/** `<<` merges maps: a value that is no map (nor an alias of one, nor a list of those) is refused at the key. */
export function checkMergeKeys(source: PositionedDocument): Diagnostic[] {
  const { isAlias, isMap, isSeq } = yaml();
  const diagnostics: Diagnostic[] = [];
  // An alias to no anchor is reported as such; here it passes.
  const isMapSource = (node: unknown): boolean => (isAlias(node) ? (node.resolve(source.doc) === undefined || isMap(node.resolve(source.doc))) : isMap(node));
  forEachNode(source.doc, (node) => {
    if (!isMap(node)) return;
    for (const pair of node.items) {
      if (!isMergeKey(pair.key)) continue;
      const value = pair.value as unknown;
      if (isMapSource(value) || (isSeq(value) && value.items.every(isMapSource))) continue;
      diagnostics.push({
        severity: 'error',
        code: 'yaml.merge',
        summary: '`<<` merges maps into this one, but its value is not a map, an alias of a map, or a list of those',
        hint: 'write `<<: *name` where `&name` marks a map',
        location: positionAt(source, (pair.key as Node).range?.[0] ?? 0),
      });
    }
  });
  return diagnostics;
}

/** A `<<` key; with merge keys enabled the parser gives it a symbol as its value. */
export function isMergeKey(key: unknown): boolean {
  if (!yaml().isScalar(key)) return false;
  const value = key.value;
  return value === '<<' || (typeof value === 'symbol' && value.description === '<<');
}

/** `%YAML 1.1` would read `yes`, `no`, `on` and `0777` differently from YAML 1.2, which steward speaks. */
export function checkDirectives(source: PositionedDocument & { text: string }): Diagnostic[] {
  const match = /^%YAML[ \t]+(?!1\.2\b)(\S+)/m.exec(source.text);
  if (match === null) return [];
  return [
    {
      severity: 'error',
      code: 'yaml.version',
      summary: `this file asks for YAML ${match[1]}; steward reads YAML 1.2, where \`yes\`, \`no\` and \`on\` are text, not true and false`,
      hint: 'remove the `%YAML` line and write true or false where you mean them',
      location: positionAt(source, match.index),
    },
  ];
}

/**
 * Calls `visit` for every map, list, pair, scalar and alias of the document in document order,
 * as the yaml library's `visit` does, without recursion and many times faster (that `visit`
 * builds a frozen path for every node, which at 10,000 entries costs more than the check).
 */
export function forEachInOrder(doc: Document, visit: (node: unknown) => void): void {
  const { isMap, isPair, isSeq } = yaml();
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined) continue;
    visit(node);
    if (isMap(node) || isSeq(node)) {
      const items = node.items as unknown[];
      for (let index = items.length - 1; index >= 0; index -= 1) stack.push(items[index]);
    } else if (isPair(node)) {
      stack.push(node.value, node.key);
    }
  }
}

/**
 * The paths of the values that start at `offsets` (as checkNumbers and checkTags report them),
 * where the parsed value holds them: directly, or through an alias of them. A key that starts
 * there stands for the value under it.
 */
export function pathsAt(doc: Document, offsets: ReadonlySet<number>): ConfigPath[] {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yaml();
  const startsAt = (node: unknown): boolean => {
    const target = isAlias(node) ? node.resolve(doc) : node;
    const start = (target as { range?: [number, number, number] | null } | undefined)?.range?.[0];
    return start !== undefined && offsets.has(start);
  };
  const found: ConfigPath[] = [];
  const stack: { node: unknown; path: ConfigPath }[] = [{ node: doc.contents, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (startsAt(node)) {
      found.push(path);
      continue;
    }
    if (isSeq(node)) node.items.forEach((item, index) => stack.push({ node: item, path: [...path, index] }));
    else if (isMap(node)) {
      for (const pair of node.items as unknown[]) {
        if (!isPair(pair) || !isScalar(pair.key) || isMergeKey(pair.key)) continue;
        const childPath = [...path, String(pair.key.value)];
        if (startsAt(pair.key)) found.push(childPath);
        else stack.push({ node: pair.value, path: childPath });
      }
    }
  }
  return found;
}

/** Calls `visit` for every node of the document, without recursion (nesting may be deep). */
function forEachNode(doc: Document, visit: (node: unknown) => void): void {
  const { isMap, isPair, isSeq } = yaml();
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined) continue;
    visit(node);
    if (isMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        if (isPair(item)) stack.push(item.key, item.value);
        else stack.push(item);
      }
    }
  }
}
