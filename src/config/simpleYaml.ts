// A fast path for the YAML most configurations are written in: block maps and lists, one value
// per line (plain text, numbers, true/false/null, or quoted text without escapes, or a one-line
// list of such words as a map's value: `documents: [d1, d2]`), and comment lines. Such a file is
// read here straight into plain data, the value the yaml library's `parseDocument(…).toJS()`
// gives (YAML 1.2's core schema resolves plain values; tested against the library on every
// fixture and example), without the library's lexer, parser and Document: a file of 10,000 user
// limits took most of a plan's CPU there. The Document is built by the library only when a
// finding needs a position in it (sources.ts). Anything else (anchors, aliases, tags, other flow
// collections, block scalars, escapes, values over several lines, a comment after an empty value
// or one that starts right after its `#` as in `Weekly #1 report`, tabs, carriage returns,
// duplicate keys, several documents, directives) is declined, and the library parses the file as
// before; so are files where the library would report an error or a warning, which this path
// never produces, and files that would draw a finding from checkYamlPitfalls' walk.
import { MAX_NESTING, type WrittenNumber } from './structure.js';

/** Thrown inside the reader for anything outside the fast path's subset; caught below. */
class Declined extends Error {}

/**
 * Collections nest at most this deep on this path. The margin keeps what it takes below what
 * checkNesting's text scan reports (it counts generously), so the scan is not needed here.
 */
export const MAX_SIMPLE_DEPTH = MAX_NESTING - 4;

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

// YAML 1.2's core schema, as the library resolves plain values with it (yaml/dist/schema/core),
// in the order it tries them: the first match wins, and text matching none is a string.
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_INT_OCT = /^0o[0-7]+$/;
const CORE_INT = /^[-+]?[0-9]+$/;
const CORE_INT_HEX = /^0x[0-9a-fA-F]+$/;
const CORE_FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const CORE_FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

interface Line {
  /** Offset of the line's first character. */
  start: number;
  /** Offset of its line break (or the end of the text). */
  end: number;
  /** Spaces before its content. */
  indent: number;
  /** A comment line comes between the previous content line and this one. */
  afterComment: boolean;
}


/** A file the fast path took. */
export interface SimpleYaml {
  /** Its content as plain data (what the library's `doc.toJS()` gives). */
  value: unknown;
  /**
   * Its numbers not written the way JavaScript writes a safe integer, in document order: only
   * those can differ from what was written (checkNumbers), and a large file holds few of them.
   */
  numbers: WrittenNumber[];
  /** Every key name it uses: checks that look for a few names need not walk the file. */
  keys: ReadonlySet<string>;
}

/** The content of `text` when it is simple block YAML (see above); undefined when the library must parse it. */
export function parseSimpleYaml(text: string): SimpleYaml | undefined {
  if (text.length === 0 || UNUSUAL.test(text)) return undefined;
  try {
    const lines = contentLines(text);
    if (lines === undefined || lines.length === 0 || lines[0]!.indent !== 0) return undefined;
    const reader = new Reader(text, lines);
    const value = reader.map(0, 0, lines[0]!.start);
    if (reader.at < lines.length) return undefined;
    return { value, numbers: reader.numbers, keys: reader.keys };
  } catch (error) {
    if (error instanceof Declined) return undefined;
    throw error;
  }
}

/**
 * Every line that holds content (not blank, not only a comment), in order; undefined when a
 * comment line is indented deeper than the content line after it (or than column 0 at the end):
 * the library makes it the trailing comment of the collections that line closes, a case this
 * path leaves to it.
 */
function contentLines(text: string): Line[] | undefined {
  const lines: Line[] = [];
  let comment = false;
  let deepestComment = -1;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let indent = 0;
    while (text.charCodeAt(start + indent) === 32) indent += 1;
    const first = start + indent;
    if (first < end && text.charCodeAt(first) === 35 /* # */) {
      comment = true;
      deepestComment = Math.max(deepestComment, indent);
    } else if (first < end) {
      if (deepestComment > indent) return undefined;
      lines.push({ start, end, indent, afterComment: comment });
      comment = false;
      deepestComment = -1;
    }
    start = end + 1;
  }
  return deepestComment > 0 ? undefined : lines;
}

class Reader {
  /** Index of the next content line not yet read. */
  at = 0;
  readonly numbers: WrittenNumber[] = [];
  readonly keys = new Set<string>();

  constructor(
    private readonly text: string,
    private readonly lines: readonly Line[],
  ) {}

  /** A block map whose keys start at column `column`; its first key is at `first` on line `this.at`. */
  map(column: number, depth: number, first: number): Record<string, unknown> {
    if (depth > MAX_SIMPLE_DEPTH) throw new Declined();
    const map: Record<string, unknown> = {};
    let offset = first;
    for (;;) {
      const line = this.lines[this.at]!;
      KEY.lastIndex = offset;
      const match = KEY.exec(this.text);
      if (match === null || match.index !== offset || offset + match[0].length > line.end) throw new Declined();
      const name = match[1]!;
      if (Object.hasOwn(map, name)) throw new Declined(); // the library's duplicate-key path reports it
      if (name.length > MAX_KEY_LENGTH) throw new Declined(); // the library reports an implicit key that long
      // A key read as null or true (`null:`, `true:`) is reported by checkKeys; `__proto__` is
      // set apart by toJS: both left to the library.
      if (CORE_NULL.test(name) || CORE_BOOL.test(name) || name === '__proto__') throw new Declined();
      this.keys.add(name);
      const rest = offset + match[0].length;
      let value: unknown;
      if (rest < line.end) {
        value = this.text.charCodeAt(rest) === 91 /* [ */ ? this.flowList(rest, line) : this.inlineValue(rest, line);
        this.at += 1;
      } else {
        this.at += 1;
        const next = this.lines[this.at];
        if (next !== undefined && (next.indent > column || (next.indent === column && this.isItem(next)))) {
          value = this.isItem(next) ? this.seq(next.indent, depth + 1) : this.map(next.indent, depth + 1, next.start + next.indent);
        } else {
          // `key:` and nothing: null. A comment after it would become the null's comment: left
          // to the library (the `color: #fff` pitfall is such a comment). Nor does the path take
          // a file that ends with one (the library ends the document before it).
          if (next === undefined || next.afterComment) throw new Declined();
          value = null;
        }
      }
      map[name] = value;
      const next = this.lines[this.at];
      if (next === undefined || next.indent < column) break;
      if (next.indent > column || this.isItem(next)) throw new Declined();
      offset = next.start + next.indent;
    }
    return map;
  }

  /** A block list whose `-` are at column `column`, starting on line `this.at`. */
  seq(column: number, depth: number): unknown[] {
    if (depth > MAX_SIMPLE_DEPTH) throw new Declined();
    const seq: unknown[] = [];
    for (;;) {
      const line = this.lines[this.at]!;
      let content = line.start + column + 1;
      while (this.text.charCodeAt(content) === 32) content += 1;
      if (content >= line.end || this.text[content] === '-' || this.text[content] === '#') throw new Declined();
      KEY.lastIndex = content;
      const keyed = KEY.exec(this.text);
      if (keyed !== null && keyed.index === content) {
        seq.push(this.map(content - line.start, depth + 1, content));
      } else {
        seq.push(this.inlineValue(content, line));
        this.at += 1;
      }
      const next = this.lines[this.at];
      if (next === undefined || next.indent < column) break;
      if (next.indent > column || !this.isItem(next)) {
        if (next.indent === column) break; // the map holding this list goes on
        throw new Declined();
      }
    }
    return seq;
  }

  /** Whether a line is a list item: `-` then a space or the end of the line. */
  private isItem(line: Line): boolean {
    const at = line.start + line.indent;
    return this.text[at] === '-' && (at + 1 === line.end || this.text[at + 1] === ' ');
  }

  /** The value written on the rest of a line from `start`: plain or quoted, maybe followed by a comment. */
  private inlineValue(start: number, line: Line): unknown {
    const text = this.text;
    const first = text[start]!;
    if (first === '"' || first === "'") {
      const close = text.indexOf(first, start + 1);
      if (close === -1 || close >= line.end) throw new Declined();
      const body = text.slice(start + 1, close);
      if (first === '"' && body.includes('\\')) throw new Declined();
      this.commentOnly(close + 1, line.end);
      return body;
    }
    if (INDICATOR.test(first) && !(first === '-' && /[0-9.]/.test(text[start + 1] ?? ''))) throw new Declined();
    let last = start;
    while (last < line.end && !(text.charCodeAt(last) === 35 /* # */ && text.charCodeAt(last - 1) === 32)) last += 1;
    // `Weekly #1 report`: a comment that starts with a word is most likely part of the value,
    // which the library's walk in pitfalls.ts reports.
    if (last + 1 < line.end && text.charCodeAt(last + 1) !== 32) throw new Declined();
    while (text.charCodeAt(last - 1) === 32) last -= 1;
    const written = text.slice(start, last);
    if (written.includes(': ') || written.endsWith(':')) throw new Declined();
    return this.plain(written, start);
  }

  /**
   * A list written on the rest of one line, `[a, b, 'c']` (document identifiers, e-mails): plain
   * words, or quoted text without escapes, between commas. Anything else (nesting, text with
   * spaces, a trailing comma, a list over several lines) is declined.
   */
  private flowList(start: number, line: Line): unknown[] {
    const text = this.text;
    const list: unknown[] = [];
    let at = start + 1;
    const skipSpaces = () => {
      while (at < line.end && text.charCodeAt(at) === 32) at += 1;
    };
    skipSpaces();
    while (text[at] !== ']') {
      const quote = text[at];
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, at + 1);
        if (close === -1 || close >= line.end) throw new Declined();
        const body = text.slice(at + 1, close);
        // `\` escapes in double quotes, `''` in single ones: the library's to unfold.
        if ((quote === '"' && body.includes('\\')) || text[close + 1] === "'") throw new Declined();
        list.push(body);
        at = close + 1;
      } else {
        FLOW_WORD.lastIndex = at;
        const word = FLOW_WORD.exec(text);
        if (word === null || word.index !== at) throw new Declined();
        list.push(this.plain(word[0], at));
        at += word[0].length;
      }
      skipSpaces();
      const delimiter = text[at];
      if (at >= line.end || (delimiter !== ',' && delimiter !== ']')) throw new Declined();
      if (delimiter === ']') break;
      at += 1;
      skipSpaces();
      if (at >= line.end || text[at] === ']') throw new Declined(); // a trailing comma
    }
    this.commentOnly(at + 1, line.end);
    return list;
  }

  /** Only spaces, then nothing or a comment (` #...`), from `from` to the end of the line. */
  private commentOnly(from: number, end: number): void {
    let at = from;
    while (at < end && this.text.charCodeAt(at) === 32) at += 1;
    if (at < end && !(this.text[at] === '#' && at > from)) throw new Declined();
  }

  /** A plain value as the core schema resolves it; `offset` is where it was written. */
  private plain(written: string, offset: number): unknown {
    const value = resolvePlain(written);
    if (typeof value === 'number' && !(Number.isSafeInteger(value) && String(value) === written)) this.numbers.push({ value, written, offset });
    return value;
  }
}

/** What YAML 1.2's core schema makes of a plain value (the library's resolution, yaml/dist/schema/core). */
export function resolvePlain(text: string): unknown {
  const first = text.charCodeAt(0);
  // Most values are text starting with a letter other than those of null, true, false: strings.
  if (first > 57 /* 9 */ && first !== 70 && first !== 78 && first !== 84 && first !== 102 && first !== 110 && first !== 116 && first !== 126) return text;
  if (CORE_NULL.test(text)) return null;
  if (CORE_BOOL.test(text)) return first === 116 /* t */ || first === 84 /* T */;
  if (CORE_INT_OCT.test(text)) return parseInt(text.slice(2), 8);
  if (CORE_INT.test(text)) return parseInt(text, 10);
  if (CORE_INT_HEX.test(text)) return parseInt(text.slice(2), 16);
  if (CORE_FLOAT_NAN.test(text)) return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? -Infinity : Infinity;
  if (CORE_FLOAT_EXP.test(text) || CORE_FLOAT.test(text)) return parseFloat(text);
  return text;
}
