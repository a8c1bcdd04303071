// Source positions: maps a path into a parsed YAML file (`['routines', 2, 'schedule']`) to the
// file:line:col of that value, or of its nearest existing ancestor when the key is missing.
import type { Document } from 'yaml';
import type { ConfigPath, SourceLocation } from './types.js';
import { yaml } from './yamlLibrary.js';

/** Turns a character offset into a 1-based line and column (the yaml library's LineCounter is one). */
export interface LineIndex {
  linePos(offset: number): { line: number; col: number };
}

/** One parsed file, as positions need it. */
export interface PositionedDocument {
  /** The file name diagnostics show. */
  file: string;
  doc: Document;
  lineCounter: LineIndex;
}

/**
 * The lines of a text, found when a position is first asked for (a file without findings never
 * asks), with the yaml LineCounter's answers: a line starts after every `\n`.
 */
export class TextLines implements LineIndex {
  private starts: number[] | undefined;

  constructor(private readonly text: string) {}

  linePos(offset: number): { line: number; col: number } {
    const starts = (this.starts ??= lineStarts(this.text));
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (starts[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    if (starts[low] === offset) return { line: low + 1, col: 1 };
    return { line: low, col: offset - starts[low - 1]! + 1 };
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** Point at the value of a key (default) or at the key itself (unknown or duplicate keys). */
export type PositionTarget = 'value' | 'key';

/** The 1-based line and column of a character offset. */
export function positionAt(source: PositionedDocument, offset: number): SourceLocation {
  const { line, col } = source.lineCounter.linePos(offset);
  return { file: source.file, line, col };
}

/**
 * The position of `path` in the document. Missing keys resolve to the nearest existing ancestor:
 * the key that holds it (for a map entry) or the item itself (for a list item); an empty file to
 * line 1, column 1.
 */
export function locateInDocument(source: PositionedDocument, path: ConfigPath, target: PositionTarget = 'value'): SourceLocation {
  return positionAt(source, offsetOf(source.doc, path, target));
}

/** The character offset where `path` (or its nearest existing ancestor) starts. */
export function offsetOf(doc: Document, path: ConfigPath, target: PositionTarget = 'value'): number {
  const found = walk(doc, path, target);
  return target === 'value' && found.complete ? (rangeStart(found.node) ?? found.anchor) : found.anchor;
}

/** The source range [start, end) of the value at `path`, when it exists. */
export function rangeOf(doc: Document, path: ConfigPath): [number, number] | undefined {
  const found = walk(doc, path, 'value');
  const range = (found.node as { range?: [number, number, number] | null } | null | undefined)?.range;
  return found.complete && range !== undefined && range !== null ? [range[0], range[1]] : undefined;
}

function walk(doc: Document, path: ConfigPath, target: PositionTarget): { node: unknown; anchor: number; complete: boolean } {
  const { isAlias, isMap, isSeq, isScalar } = yaml();
  let node: unknown = doc.contents;
  let anchor = rangeStart(node) ?? 0;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    // A value reached through an alias is reported where the alias is used, not at its anchor:
    // that is the place that differs between two uses.
    if (isAlias(node)) return { node, anchor: rangeStart(node) ?? anchor, complete: false };
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair === undefined) {
        const merge = node.items.find((item) => isMergeKey(item.key) && mergedKeys(doc, item.value).has(String(segment)));
        return { node, anchor: merge === undefined ? anchor : (rangeStart(merge.key) ?? anchor), complete: false };
      }
      const keyStart = rangeStart(pair.key) ?? anchor;
      anchor = keyStart;
      if (last && target === 'key') return { node: pair.key, anchor, complete: false };
      node = pair.value;
      if (isEmptyScalar(node)) return { node: undefined, anchor, complete: false };
    } else if (isSeq(node)) {
      const position = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
      const item: unknown = node.items[position];
      if (item === undefined || item === null) return { node, anchor, complete: false };
      anchor = rangeStart(item) ?? anchor;
      node = item;
    } else {
      return { node, anchor, complete: false };
    }
  }
  return { node, anchor, complete: true };
}

/** A `<<` key; with merge keys enabled the parser gives it a symbol as its value. */
function isMergeKey(key: unknown): boolean {
  if (!yaml().isScalar(key)) return false;
  const value = key.value;
  return value === '<<' || (typeof value === 'symbol' && value.description === '<<');
}

/** The keys a merge key's value (`*alias` or `[*a, *b]`) brings into its map. */
function mergedKeys(doc: Document, value: unknown): Set<string> {
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  const keys = new Set<string>();
  const sources = isSeq(value) ? value.items : [value];
  for (const source of sources) {
    const target = isAlias(source) ? source.resolve(doc) : source;
    if (!isMap(target)) continue;
    for (const item of target.items) if (isScalar(item.key)) keys.add(String(item.key.value));
  }
  return keys;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] | null } | null | undefined)?.range;
  return range === undefined || range === null ? undefined : range[0];
}

// `key:` with nothing after it parses as a null scalar positioned after the colon; the key is
// the better place to point at.
function isEmptyScalar(node: unknown): boolean {
  return yaml().isScalar(node) && node.value === null && node.range !== undefined && node.range !== null && node.range[0] === node.range[1];
}

/** `routines[2].destination.type` — a path as users read it in messages. */
export function formatPath(path: ConfigPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** A string key for a path, to use paths in sets and maps. */
export function pathKey(path: ConfigPath): string {
  return JSON.stringify(path);
}

/** Converts a JSON pointer (`/routines/0/name`) into a path, numbering list indices. */
export function pointerToPath(pointer: string, value: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let current: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^\d+$/.test(segment)) {
      path.push(Number(segment));
      current = current[Number(segment)];
    } else {
      path.push(segment);
      current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[segment] : undefined;
    }
  }
  return path;
}
