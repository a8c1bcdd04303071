// A fast path for the YAML most configurations are written in: block maps and lists, one value
// per line (plain text, numbers, true/false/null, or quoted text without escapes, or a one-line
// list of such words as a map's value: `documents: [d1, d2]`), and comment lines. For such a file the parsed Document is built here, node by node, exactly as the yaml
// library's parser and composer build it (the same values, ranges, sources and types; tested
// against it on every fixture), at a small part of the cost: a file of 10,000 user limits took
// most of a plan's CPU in the library's lexer and parser. Anything else (anchors, aliases,
// tags, other flow collections, block scalars, escapes, values over several lines, a comment after
// an empty value, tabs, carriage returns, duplicate keys, several documents, directives) is
// declined, and the library parses the file as before; so are files where the library would
// report an error or a warning, which this path never produces.
import { MAX_NESTING } from './structure.js';
import { Document, isScalar, LineCounter, Pair, Scalar, YAMLMap, YAMLSeq, type DocumentOptions, type ParseOptions, type ScalarTag, type SchemaOptions } from 'yaml';

type Options = ParseOptions & DocumentOptions & SchemaOptions;

/** Thrown inside the parser for anything outside the fast path's subset; caught below. */
class Declined extends Error {}

/** Collections nest at most this deep on this path, so checkNesting's walk cannot fire on what it builds. */
const MAX_DEPTH = MAX_NESTING - 4;

/** Characters that never appear in a file this path takes (controls, line separators, BOM, tab, CR). */
const UNUSUAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
/** A key: a plain name, then `:` and a space or the end of the line. */
const KEY = /([A-Za-z_][A-Za-z0-9_-]*):(?: +|(?=\n)|$)/y;
/** The longest implicit key YAML allows is 1024 characters; longer ones are the library's to report. */
const MAX_KEY_LENGTH = 1000;
/** A plain item of a one-line flow list: a word of letters, digits and `_ . @ / + -`, starting with a letter, digit or `_`. */
const FLOW_WORD = /[A-Za-z0-9_][A-Za-z0-9_.@/+-]*/y;
/** Characters that give a plain value another meaning when they start it. */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;

interface Line {
  /** Offset of the line's first character. */
  start: number;
  /** Offset just past its newline (or the end of the text). */
  next: number;
  /** Offset of its line break (or the end of the text). */
  end: number;
  /** Spaces before its content. */
  indent: number;
  /** A comment line comes between the previous content line and this one. */
  afterComment: boolean;
}

/** A file the fast path took: its Document, and its content as plain data (what `doc.toJS()` gives). */
export interface SimpleDocument {
  doc: Document;
  value: unknown;
  /** Every scalar that holds a number, in document order (for checkNumbers, without a walk). */
  numbers: Scalar[];
}

/**
 * The Document of `text` when it is simple block YAML (see above), with `lineCounter` filled in
 * as the library's parser fills it; undefined when it is not, and the library must parse it.
 */
export function parseSimpleDocument(text: string, options: Options, lineCounter?: LineCounter): SimpleDocument | undefined {
  if (text.length === 0 || UNUSUAL.test(text)) return undefined;
  const doc = new Document(undefined, options);
  if (doc.schema.compat) return undefined;
  let reader: Reader;
  try {
    const { lines, commentsClose } = contentLines(text);
    if (commentsClose || lines.length === 0 || lines[0]!.indent !== 0) return undefined;
    reader = new Reader(text, lines, doc);
    const contents = reader.map(0, 0, lines[0]!.start);
    if (reader.at < lines.length) return undefined;
    doc.contents = contents;
    doc.range = [lines[0]!.start, contents.range![2], text.length];
  } catch (error) {
    if (error instanceof Declined) return undefined;
    throw error;
  }
  if (lineCounter !== undefined) {
    lineCounter.addNewLine(0);
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineCounter.addNewLine(at + 1);
  }
  return { doc, value: plainData(doc.contents), numbers: reader.numbers };
}

/**
 * A node as plain data, as `toJS` makes it for what this path builds (every key a string other
 * than `__proto__`, no aliases or merge keys), without toJS's bookkeeping.
 */
function plainData(node: unknown): unknown {
  if (node instanceof YAMLMap) {
    const data: Record<string, unknown> = {};
    for (const pair of node.items) data[(pair.key as Scalar<string>).value] = plainData(pair.value);
    return data;
  }
  if (node instanceof YAMLSeq) return node.items.map(plainData);
  return (node as Scalar).value;
}

/**
 * Every line that holds content (not blank, not only a comment), in order, and whether a comment
 * line is indented deeper than the content line after it (or than column 0 at the end): the
 * library then makes it the trailing comment of the collections that line closes, which extends
 * their ranges.
 */
function contentLines(text: string): { lines: Line[]; commentsClose: boolean } {
  const lines: Line[] = [];
  let comment = false;
  let deepestComment = -1;
  let commentsClose = false;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let indent = 0;
    while (text.charCodeAt(start + indent) === 32) indent += 1;
    const first = start + indent;
    if (first < end && text[first] === '#') {
      comment = true;
      deepestComment = Math.max(deepestComment, indent);
    } else if (first < end) {
      if (deepestComment > indent) commentsClose = true;
      lines.push({ start, next: Math.min(end + 1, text.length), end, indent, afterComment: comment });
      comment = false;
      deepestComment = -1;
    }
    start = end + 1;
  }
  return { lines, commentsClose: commentsClose || deepestComment > 0 };
}

class Reader {
  /** Index of the next content line not yet read. */
  at = 0;
  /** The scalars read as numbers, in document order. */
  readonly numbers: Scalar[] = [];
  /** The schema's tags that resolve plain values (and keys), in the schema's order, as the composer tries them. */
  private readonly valueTags: readonly ScalarTag[];
  private readonly keyTags: readonly ScalarTag[];
  /** The tag each key name resolved to (a file repeats a few names thousands of times). */
  private readonly keyTagOf = new Map<string, ScalarTag | undefined>();

  constructor(
    private readonly text: string,
    private readonly lines: readonly Line[],
    private readonly doc: Document,
  ) {
    const tags = doc.schema.tags as ScalarTag[];
    this.valueTags = tags.filter((tag) => tag.default === true && tag.test !== undefined);
    this.keyTags = tags.filter((tag) => (tag.default === true || tag.default === 'key') && tag.test !== undefined);
  }

  /** A block map whose keys start at column `column`; its first key is at `first` on line `this.at`. */
  map(column: number, depth: number, first: number): YAMLMap {
    if (depth > MAX_DEPTH) throw new Declined();
    const map = new YAMLMap(this.doc.schema);
    const keys = new Set<string>();
    let offset = first;
    let end = first;
    for (;;) {
      const line = this.lines[this.at]!;
      KEY.lastIndex = offset;
      const match = KEY.exec(this.text);
      if (match === null || match.index !== offset || offset + match[0].length > line.end) throw new Declined();
      const name = match[1]!;
      if (keys.has(name)) throw new Declined(); // the library's duplicate-key path reports it
      if (name.length > MAX_KEY_LENGTH) throw new Declined(); // the library reports an implicit key that long
      keys.add(name);
      const key = this.scalar(name, 'PLAIN', [offset, offset + name.length, offset + name.length], true);
      // A key read as null or true (`null:`, `true:`) is reported by checkKeys; `__proto__` is
      // set apart by toJS: both left to the library.
      if (typeof key.value !== 'string' || name === '__proto__') throw new Declined();
      const rest = offset + match[0].length;
      let value: Scalar | YAMLMap | YAMLSeq;
      if (rest < line.end) {
        value = this.text[rest] === '[' ? this.flowList(rest, line) : this.inlineValue(rest, line);
        end = line.next;
        this.at += 1;
      } else {
        this.at += 1;
        const next = this.lines[this.at];
        if (next !== undefined && (next.indent > column || (next.indent === column && this.isItem(next)))) {
          value = this.isItem(next) ? this.seq(next.indent, depth + 1) : this.map(next.indent, depth + 1, next.start + next.indent);
          end = value.range![2];
        } else {
          // `key:` and nothing: null, placed after the colon and its spaces. A comment after it
          // would become the null's comment (and move its end): left to the library.
          // Nor does the path take a file that ends with one (the library ends the document before it).
          if (next === undefined || next.afterComment) throw new Declined();
          value = this.scalar('', 'PLAIN', [rest, rest, rest], false);
          end = rest;
        }
      }
      map.items.push(new Pair(key, value));
      const next = this.lines[this.at];
      if (next === undefined || next.indent < column) break;
      if (next.indent > column || this.isItem(next)) throw new Declined();
      offset = next.start + next.indent;
    }
    map.range = [first, end, end];
    return map;
  }

  /** A block list whose `-` are at column `column`, starting on line `this.at`. */
  seq(column: number, depth: number): YAMLSeq {
    if (depth > MAX_DEPTH) throw new Declined();
    const seq = new YAMLSeq(this.doc.schema);
    const first = this.lines[this.at]!.start + column;
    let end = first;
    for (;;) {
      const line = this.lines[this.at]!;
      let content = line.start + column + 1;
      while (this.text.charCodeAt(content) === 32) content += 1;
      if (content >= line.end || this.text[content] === '-' || this.text[content] === '#') throw new Declined();
      KEY.lastIndex = content;
      const keyed = KEY.exec(this.text);
      if (keyed !== null && keyed.index === content) {
        const item = this.map(content - line.start, depth + 1, content);
        seq.items.push(item);
        end = item.range![2];
      } else {
        seq.items.push(this.inlineValue(content, line));
        end = line.next;
        this.at += 1;
      }
      const next = this.lines[this.at];
      if (next === undefined || next.indent < column) break;
      if (next.indent > column || !this.isItem(next)) {
        if (next.indent === column) break; // the map holding this list goes on
        throw new Declined();
      }
    }
    seq.range = [first, end, end];
    return seq;
  }

  /** Whether a line is a list item: `-` then a space or the end of the line. */
  private isItem(line: Line): boolean {
    const at = line.start + line.indent;
    return this.text[at] === '-' && (at + 1 === line.end || this.text[at + 1] === ' ');
  }

  /** The value written on the rest of a line from `start`: plain or quoted, maybe followed by a comment. */
  private inlineValue(start: number, line: Line): Scalar {
    const text = this.text;
    const rest = text.slice(start, line.end); // searches stay within the line
    const first = rest[0]!;
    if (first === '"' || first === "'") {
      const closeAt = rest.indexOf(first, 1);
      if (closeAt === -1) throw new Declined();
      const close = start + closeAt;
      const body = text.slice(start + 1, close);
      if (first === '"' && body.includes('\\')) throw new Declined();
      this.commentOnly(close + 1, line.end);
      return this.scalar(body, first === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', [start, close + 1, line.next], false);
    }
    if (INDICATOR.test(first) && !(first === '-' && /[0-9.]/.test(text[start + 1] ?? ''))) throw new Declined();
    const hash = rest.indexOf(' #');
    const stop = hash === -1 ? line.end : start + hash;
    let last = stop;
    while (text.charCodeAt(last - 1) === 32) last -= 1;
    const written = text.slice(start, last);
    if (written.includes(': ') || written.endsWith(':')) throw new Declined();
    return this.scalar(written, 'PLAIN', [start, last, line.next], false);
  }

  /**
   * A list written on the rest of one line, `[a, b, 'c']` (document identifiers, e-mails): plain
   * words, or quoted text without escapes, between commas. Anything else (nesting, text with
   * spaces, a trailing comma, a list over several lines) is declined.
   */
  private flowList(start: number, line: Line): YAMLSeq {
    const text = this.text;
    const list = new YAMLSeq(this.doc.schema);
    list.flow = true;
    let at = start + 1;
    const skipSpaces = () => {
      while (at < line.end && text.charCodeAt(at) === 32) at += 1;
    };
    skipSpaces();
    while (text[at] !== ']') {
      const itemStart = at;
      const quote = text[at];
      let type: 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' = 'PLAIN';
      let source: string;
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, at + 1);
        if (close === -1 || close >= line.end) throw new Declined();
        source = text.slice(at + 1, close);
        // `\` escapes in double quotes, `''` in single ones: the library's to unfold.
        if ((quote === '"' && source.includes('\\')) || text[close + 1] === "'") throw new Declined();
        type = quote === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE';
        at = close + 1;
      } else {
        FLOW_WORD.lastIndex = at;
        const word = FLOW_WORD.exec(text);
        if (word === null || word.index !== at) throw new Declined();
        source = word[0];
        at += source.length;
      }
      const valueEnd = at;
      skipSpaces();
      const delimiter = text[at];
      if (at >= line.end || (delimiter !== ',' && delimiter !== ']')) throw new Declined();
      list.items.push(this.scalar(source, type, [itemStart, valueEnd, at], false));
      if (delimiter === ']') break;
      at += 1;
      skipSpaces();
      if (at >= line.end || text[at] === ']') throw new Declined(); // a trailing comma
    }
    const close = at + 1;
    this.commentOnly(close, line.end);
    list.range = [start, close, line.next];
    return list;
  }

  /** Only spaces, then nothing or a comment (` #...`), from `from` to the end of the line. */
  private commentOnly(from: number, end: number): void {
    let at = from;
    while (at < end && this.text.charCodeAt(at) === 32) at += 1;
    if (at < end && !(this.text[at] === '#' && at > from)) throw new Declined();
  }

  /** A scalar as the composer makes it: resolved by the schema's tags for plain text, a string when quoted. */
  private scalar(source: string, type: 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE', range: [number, number, number], atKey: boolean): Scalar {
    let scalar: Scalar;
    if (type === 'PLAIN') {
      let tag: ScalarTag | undefined;
      if (atKey && this.keyTagOf.has(source)) tag = this.keyTagOf.get(source);
      else {
        tag = (atKey ? this.keyTags : this.valueTags).find((candidate) => candidate.test!.test(source));
        if (atKey) this.keyTagOf.set(source, tag);
      }
      if (tag === undefined || tag.resolve === undefined) {
        scalar = new Scalar(source);
      } else {
        let failed = false;
        const resolved = tag.resolve(source, () => {
          failed = true;
        }, this.doc.options);
        if (failed) throw new Declined();
        scalar = isScalar(resolved) ? resolved : new Scalar(resolved);
        if (tag.format) scalar.format = tag.format;
      }
    } else {
      scalar = new Scalar(source);
    }
    scalar.range = range;
    scalar.source = source;
    scalar.type = type;
    if (typeof scalar.value === 'number') this.numbers.push(scalar);
    return scalar;
  }
}
