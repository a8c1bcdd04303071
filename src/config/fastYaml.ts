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
 * such a file is only read more slowly.
 */
const LEFT_TO_LIBRARY = /^%|<<|^[ \t]*(?:-[ \t]+)*\?(?:[ \t]|$)|[[{,][ \t]*\?(?:[ \t]|$)|[\]}][ \t]*:|["'\]}]#/m;

// YAML 1.2's core schema as the yaml library resolves plain values with it
// (yaml/dist/schema/core), tried in the library's order: text matching none is a string.
// js-yaml's own core schema differs (it reads `1_000`, `0b11` and `-0x1F` as numbers, and
// `-.5` as text).
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_INT = /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/;
const CORE_FLOAT = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;

/** Thrown by a plain number that is not the number written (checkNumbers reports it): the library reads the file. */
class InexactNumber extends Error {}

/** The number a plain value reads as, refused when it is not exactly what was written. */
function exactNumber(value: number, written: string): number {
  if (numberProblem(value, written) !== undefined) throw new InexactNumber();
  return value;
}

// The tags hold spaces, which no tag written in a file can: `!!int 1` is then an unknown tag to
// js-yaml, so every explicit tag is refused and left to the library.
const SCHEMA = new Schema({
  implicit: [
    new Type('steward core null', { kind: 'scalar', resolve: (text: string) => mayBe(NULL_START, text) && CORE_NULL.test(text), construct: () => null }),
    new Type('steward core bool', { kind: 'scalar', resolve: (text: string) => mayBe(BOOL_START, text) && CORE_BOOL.test(text), construct: (text: string) => text[0] === 't' || text[0] === 'T' }),
    new Type('steward core int', {
      kind: 'scalar',
      resolve: (text: string) => mayBe(NUMBER_START, text) && CORE_INT.test(text),
      construct: (text: string) => exactNumber(text[1] === 'o' ? parseInt(text.slice(2), 8) : text[1] === 'x' ? parseInt(text.slice(2), 16) : parseInt(text, 10), text),
    }),
    new Type('steward core float', {
      kind: 'scalar',
      resolve: (text: string) => mayBe(NUMBER_START, text) && CORE_FLOAT.test(text),
      construct: (text: string) => {
        const special = text.slice(-3).toLowerCase();
        return exactNumber(special === 'nan' ? NaN : special === 'inf' ? (text[0] === '-' ? -Infinity : Infinity) : parseFloat(text), text);
      },
    }),
  ],
});

// Most plain values are text that starts with a letter no null, boolean or number starts with:
// their first character spares the regular expressions above.
const NULL_START = /[~nN]/;
const BOOL_START = /[tTfF]/;
const NUMBER_START = /[-+.0-9]/;

function mayBe(start: RegExp, text: string): boolean {
  return text.length === 0 || start.test(text[0]!);
}

/**
 * The library reports an implicit key longer than this (js-yaml takes it); a key is written on
 * one line, so a file whose lines are all shorter holds none.
 */
const MAX_KEY_LENGTH = 1024;

/** The longest line of a text, and the most characters any line starts with among spaces, tabs, `-` and `?`. */
function lineShape(text: string): { longest: number; deepestStart: number } {
  let longest = 0;
  let deepestStart = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    longest = Math.max(longest, end - start);
    let at = start;
    for (let code = text.charCodeAt(at); code === 32 || code === 9 || code === 45 || code === 63; code = text.charCodeAt(++at));
    deepestStart = Math.max(deepestStart, at - start);
    start = end + 1;
  }
  return { longest, deepestStart };
}

/**
 * Whether checkNesting's text scan (scanNesting) could report this text, which it does past
 * MAX_NESTING levels, counted generously: the indentation levels open on a line (at most one
 * per column before it), its `-` and `?` indicators, and brackets. A text without brackets
 * whose lines all start with fewer such characters than that cannot reach it, and is not scanned.
 */
function mayNestTooDeep(text: string, deepestStart: number, brackets: boolean): boolean {
  if (!brackets && deepestStart + 1 < MAX_NESTING) return false;
  return scanNesting(text) !== undefined;
}

/** The characters that start an anchor, a tag, a quoted value or a flow collection. */
const MARKS = /[&!"'[{]/;

/** What the listener below sees of js-yaml's state (its types leave these out). */
interface NodeState extends State {
  tag: string | null;
  anchor: string | null;
}

/** The last character of a quoted value or a flow collection. */
const CLOSER = /["'\]}]/;

/** Thrown from js-yaml's callbacks for what the library must read. */
class LeftToLibrary extends Error {}

function leaveToLibrary(): never {
  throw new LeftToLibrary();
}

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
  if (text.length === 0 || holdsForbiddenCharacter(text) || LEFT_TO_LIBRARY.test(text)) return undefined;
  const { longest, deepestStart } = lineShape(text);
  if (longest > MAX_KEY_LENGTH) return undefined;
  // Large files are mostly plain words and numbers: without a character that starts an anchor,
  // a tag, a quoted value or a bracket, there is nothing for the listener below to find.
  const marked = MARKS.test(text);
  // `schedule: * 9 ? * MON *` is reported as one mistake, even inside block text; nesting past the limit too.
  if ((text.includes('*') && findStarValues(text).length > 0) || mayNestTooDeep(text, deepestStart, marked)) return undefined;
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
