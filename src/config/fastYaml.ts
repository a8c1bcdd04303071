// The fast path: a file in which the checks of the YAML itself (sources.ts) would find nothing,
// as most files and all large ones are, is read by js-yaml straight into plain data, the value
// the yaml library's `parseDocument(…).toJS()` gives, without the library's lexer, parser and
// Document (which took most of a plan's CPU at 10,000 user limits). The library builds the
// Document of such a file only when a later finding needs a position in it (sources.ts); since
// the two values are equal, that position points into the same reading of the file.
//
// With the library's schema (below), js-yaml reads valid YAML as the library does; elsewhere the
// two part: js-yaml takes some invalid YAML (text continued on a line indented too little, a
// comment without a space before it, a key over 1024 characters), turns a key that is a list or a
// map into text, names a null key "null" where the library names it "", applies no merge keys,
// and reports none of the library's warnings nor steward's checks of the YAML. So the library
// reads the file, as before, when js-yaml refuses it or warns, meets an anchor, a tag, a quoted
// value or a bracket closed on a later line, or a number that is not what was written; and,
// before js-yaml is asked, when the text holds anything of the rest. test/config/parsers.test.ts
// holds the two readings side by side on every fixture and example, variants of each, and the
// constructs where they could part.
import { load, Schema, Type, type State } from 'js-yaml';
import { unreachable } from '../errors.js';
import { holdsForbiddenCharacter } from './bytes.js';
import { findStarValues, MAX_NESTING, numberProblem, scanNesting } from './structure.js';

/** A file the fast path read. */
export interface FastReading {
  /** Its content as plain data (what the library's `doc.toJS()` gives). */
  value: unknown;
  /** Every key name it uses: checks that look for a few names need not walk the file. */
  keys: ReadonlySet<string>;
  /**
   * Every text value is written in the file as it reads (no escapes, tabs or line breaks) and
   * none holds a `$`: interpolation can change nothing, and the character check find nothing.
   */
  verbatim: boolean;
}

/**
 * Text that sends a file to the library before js-yaml reads it: a directive (`%YAML 1.1` is
 * reported), a merge key `<<`, an explicit key `? ` (its key may be a list or a map), a list or a
 * map followed by `:` (a key that is one), and a `#` right after a quote or a bracket (the library
 * requires a space before a comment there, js-yaml does not). Each may match more than it must:
 * such a file is only read more slowly. Each is looked for only when the text holds the character
 * it needs, which large files mostly do not (a search for one character is far cheaper).
 */
function leftToLibrary(text: string): boolean {
  if (text.includes('%') && /^%/m.test(text)) return true;
  if (text.includes('<<')) return true;
  if (text.includes('?') && /^[ \t]*(?:-[ \t]+)*\?(?:[ \t]|$)|[[{,][ \t]*\?(?:[ \t]|$)/m.test(text)) return true;
  if ((text.includes(']') || text.includes('}')) && /[\]}][ \t]*:/.test(text)) return true;
  return text.includes('#') && /["'\]}]#/.test(text);
}

/** Thrown from js-yaml's callbacks for what the library must read. */
class LeftToLibrary extends Error {}

function leaveToLibrary(): never {
  throw new LeftToLibrary();
}

// YAML 1.2's core schema as the yaml library resolves plain values with it
// (yaml/dist/schema/core): text matching none of these is a string. js-yaml's own core schema
// differs (it reads `1_000`, `0b11` and `-0x1F` as numbers, and `-.5` as text).
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_INT = /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/;
const CORE_FLOAT = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;

/** What a plain value's first character says it may be: null, true or false, a number, or only text. */
function plainKind(text: string): 'null' | 'bool' | 'number' | 'text' {
  if (text.length === 0) return 'null';
  const first = text.charCodeAt(0);
  if (first === 126 /* ~ */ || first === 110 /* n */ || first === 78 /* N */) return 'null';
  if (first === 116 /* t */ || first === 84 /* T */ || first === 102 /* f */ || first === 70 /* F */) return 'bool';
  if ((first >= 48 && first <= 57) || first === 45 /* - */ || first === 43 /* + */ || first === 46 /* . */) return 'number';
  return 'text';
}

/** Whether the core schema reads a plain value as other than text (one test per value, by its first character). */
function isCoreValue(text: string): boolean {
  const plain = plainKind(text);
  switch (plain) {
    case 'null':
      return CORE_NULL.test(text);
    case 'bool':
      return CORE_BOOL.test(text);
    case 'number':
      return CORE_INT.test(text) || CORE_FLOAT.test(text);
    case 'text':
      return false;
    default:
      return unreachable(plain);
  }
}

/** The value of a plain value isCoreValue took; a number that is not the number written is refused (checkNumbers reports it). */
function coreValue(text: string): unknown {
  const plain = plainKind(text);
  switch (plain) {
    case 'null':
      return null;
    case 'bool':
      return text[0] === 't' || text[0] === 'T';
    case 'number': {
      const value = CORE_INT.test(text) ? integerValue(text) : floatValue(text);
      if (numberProblem(value, text) !== undefined) leaveToLibrary();
      return value;
    }
    case 'text':
      return text;
    default:
      return unreachable(plain);
  }
}

function integerValue(text: string): number {
  if (text[1] === 'o') return parseInt(text.slice(2), 8);
  if (text[1] === 'x') return parseInt(text.slice(2), 16);
  return parseInt(text, 10);
}

function floatValue(text: string): number {
  const special = text.slice(-3).toLowerCase();
  if (special === 'nan') return NaN;
  if (special === 'inf') return text[0] === '-' ? -Infinity : Infinity;
  return parseFloat(text);
}

// One implicit type (js-yaml calls each type's test on every plain value, keys included). Its tag
// holds spaces, which no tag written in a file can: `!!int 1` is then an unknown tag to js-yaml,
// so every explicit tag is refused and left to the library.
const SCHEMA = new Schema({ implicit: [new Type('steward core schema', { kind: 'scalar', resolve: isCoreValue, construct: coreValue })] });

/**
 * The library reports an implicit key longer than 1024 characters, which js-yaml takes. Written
 * with escapes of up to ten characters each, such a key still holds more than this many.
 */
const LONGEST_KEY = 100;

/**
 * A line that starts with enough spaces, tabs, `-` and `?` for checkNesting's text scan
 * (scanNesting) to count past MAX_NESTING levels on it. The scan counts generously, but at most
 * one indentation level per column before a line's first other character, plus one per `-` or
 * `?` among them, plus the brackets open: a text without brackets and without such a line cannot
 * reach the limit, and is not scanned.
 */
const DEEP_LINE = new RegExp(`^[ \\t?-]{${MAX_NESTING - 1}}`, 'm');

/** The characters that start an anchor, a tag, a quoted value or a flow collection. */
const MARKS = /[&!"'[{]/;

/** What the listener below sees of js-yaml's state (its types leave these out). */
interface NodeState extends State {
  tag: string | null;
  anchor: string | null;
}

/** The last character of a quoted value or a flow collection. */
const CLOSER = /["'\]}]/;

/**
 * A js-yaml listener that refuses, as each node closes, an anchor (and so any alias), the
 * non-specific tag `!`, and a quoted value or a bracket closed on a later line than it opened
 * (js-yaml takes such text indented less than the library requires).
 */
function markedNodes(): (event: 'open' | 'close', state: State) => void {
  const openedOnLine: number[] = [];
  return (event, state) => {
    if (event === 'open') {
      openedOnLine.push(state.line);
      return;
    }
    const node = state as NodeState;
    const opened = openedOnLine.pop();
    if (node.anchor !== null || node.tag === '!') leaveToLibrary();
    if (opened !== state.line && CLOSER.test(state.input[state.position - 1] ?? '')) leaveToLibrary();
  };
}

/** The content of `text` when it is a file the fast path takes (see above); undefined when the library must read it. */
export function readFast(text: string): FastReading | undefined {
  if (text.length === 0 || holdsForbiddenCharacter(text) || leftToLibrary(text)) return undefined;
  // Large files are mostly plain words and numbers: without a character that starts an anchor,
  // a tag, a quoted value or a bracket, there is nothing for the listener below to find.
  const marked = MARKS.test(text);
  if ((marked || DEEP_LINE.test(text)) && scanNesting(text) !== undefined) return undefined;
  // `schedule: * 9 ? * MON *` is reported as one mistake, even inside block text.
  if (text.includes('*') && findStarValues(text).length > 0) return undefined;
  let value: unknown;
  try {
    value = load(text, { schema: SCHEMA, onWarning: leaveToLibrary, ...(marked ? { listener: markedNodes() } : {}) });
  } catch {
    // A syntax error, a duplicate key, an unknown alias or tag, an inexact number: the library reports it.
    return undefined;
  }
  if (value === undefined) return undefined; // no document: the library's empty file
  const keys = new Set<string>();
  let oneLine = true;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (oneLine && node.includes('\n')) oneLine = false;
    } else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const key in node) {
        if (key.length > LONGEST_KEY) return undefined;
        keys.add(key);
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  // The library reads a null key (`null:`, `~:`) as "", js-yaml as "null".
  if (keys.has('null')) return undefined;
  const verbatim = oneLine && !text.includes('$') && !text.includes('\\') && !text.includes('\t');
  return { value, keys, verbatim };
}
