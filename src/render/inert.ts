// Text from outside steward (names and messages from the server, values from a configuration)
// made inert for each place it is printed: on a terminal nothing can move the cursor, recolour
// or erase a line; in Markdown nothing can close a code block, open HTML or mention someone; in
// GitHub workflow commands nothing can end the command or start another. Renderers pass every
// foreign string through the helper of their output form and never print one raw.

/**
 * For a terminal: control characters (C0, DEL, C1, hence every ANSI escape sequence), line
 * breaks and invisible layout characters (bidirectional overrides, zero-width characters, line
 * separators) are written as visible escapes such as `\x1b`, `\n` or `\u202e`. The result is
 * one line whatever the input.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escapeCharacter);
}

/**
 * For Markdown prose (a list item, a heading, a paragraph): the terminal escapes, then HTML's
 * `<`, `>` and `&` as entities and the Markdown punctuation that opens something (code spans,
 * emphasis, links and images, table cells, strike-through) backslash-escaped, so a name renders
 * as the text it is.
 * An `@` that could start a mention is written as an entity, so a name cannot notify anyone.
 */
export function markdownText(text: string): string {
  return terminalText(text)
    .replace(/[&<>]/g, (character) => HTML_ENTITY[character]!)
    // `@team` mentions; `grace@acme.example` does not (an @ after a letter or digit never does).
    .replace(/(^|[^A-Za-z0-9])@/g, '$1&#64;')
    .replace(/[\\`*_[\]|~]/g, (character) => `\\${character}`);
}

/**
 * An inline code span holding `text` literally: the fence is longer than any run of backticks
 * inside, and the content is one line (terminal escapes); HTML is not interpreted in a span.
 */
export function markdownCode(text: string): string {
  const content = terminalText(text);
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = content.startsWith('`') || content.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}

/**
 * For one line inside a fenced code block: the terminal escapes keep it one line, so it cannot
 * start a line with a fence and close the block; inside a block HTML and Markdown are not
 * interpreted.
 */
export function markdownCodeLine(text: string): string {
  return terminalText(text);
}

/**
 * For GitHub workflow-command data (`::error …::DATA`): `%`, `\r` and `\n` percent-encoded as
 * GitHub's toolkit does (the annotation keeps its lines, the command stays one line), and every
 * other control character escaped as on a terminal, since the job log renders ANSI.
 */
export function annotationData(text: string): string {
  return terminalText(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** For a workflow-command property value (`file=…`, `title=…`): also `:` and `,`. */
export function annotationProperty(text: string): string {
  return annotationData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * For serialised JSON that may be printed to a terminal: JSON.stringify escapes C0 control
 * characters but leaves DEL, C1 controls and invisible layout characters raw; they are written
 * as `\uXXXX` escapes, which parse back to the same string.
 */
export function inertJson(json: string): string {
  return json.replace(INVISIBLE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Whether text holds DEL, a C1 control or an invisible layout character. YAML that may be printed
 * to a terminal (an export) writes such a scalar double-quoted, and `inertYaml` then writes those
 * characters as `\uXXXX` escapes, which read back as the same string (the YAML library escapes
 * C0 controls itself, but writes these raw).
 */
export function holdsInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

/** YAML whose scalars holding invisible characters are double-quoted, with those characters escaped. */
export function inertYaml(yaml: string): string {
  return inertJson(yaml);
}

// DEL, C1 controls, and characters that change layout or reading order invisibly.
const INVISIBLE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

// C0 controls, DEL, C1 controls, and characters that change layout or reading order invisibly.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\x1b' };

function escapeCharacter(character: string): string {
  const named = NAMED[character];
  if (named !== undefined) return named;
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

const HTML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
