// Validation findings for people (`file:line:col: error: message`, the source line, a caret and
// a hint), for tools (JSON) and for GitHub Actions (workflow annotations). Pure functions: the
// command decides where the text goes.
import { palette, type Palette } from './palette.js';
import { isSecretDiagnostic } from '../config/secrets.js';
import type { Diagnostic } from '../config/types.js';
import { annotationData, annotationProperty, terminalText } from './inert.js';

export interface RenderOptions {
  color: boolean;
  /** The text of a file by the name diagnostics use, for the source excerpt. */
  sources: Map<string, string> | ((file: string) => string | undefined);
}

/** Human-readable diagnostics, one block each, separated by blank lines; '' for none. */
export function renderDiagnostics(diagnostics: Diagnostic[], options: RenderOptions): string {
  const paint = palette(options.color);
  const cache = new Map<string, string[] | undefined>();
  const linesOf = (file: string): string[] | undefined => {
    if (!cache.has(file)) {
      const text = typeof options.sources === 'function' ? options.sources(file) : options.sources.get(file);
      cache.set(file, text?.split(/\r?\n/));
    }
    return cache.get(file);
  };
  // A secret is masked on its lines in every excerpt, not only in its own finding's.
  const secrets = new Map<string, SecretValue[]>();
  for (const { location, secretValue } of diagnostics) {
    if (location !== undefined && secretValue !== undefined) secrets.set(location.file, [...(secrets.get(location.file) ?? []), secretValue]);
  }
  const secretsOf = (file: string) => secrets.get(file) ?? [];
  return diagnostics.map((diagnostic) => renderOne(diagnostic, paint, linesOf, secretsOf)).join('\n');
}

type SecretValue = NonNullable<Diagnostic['secretValue']>;

function renderOne(diagnostic: Diagnostic, paint: Palette, linesOf: (file: string) => string[] | undefined, secretsOf: (file: string) => SecretValue[]): string {
  const severityColor = diagnostic.severity === 'error' ? paint.red : paint.yellow;
  const { location } = diagnostic;
  const where = location === undefined ? '' : `${paint.bold(`${terminalText(location.file)}:${location.line}:${location.col}`)}: `;
  let text = `${where}${severityColor.bold(`${diagnostic.severity}:`)} ${paint.bold(terminalText(diagnostic.summary))}\n`;
  if (diagnostic.detail !== undefined) text += `${indent(diagnostic.detail.split('\n').map(terminalText).join('\n'), '  ')}\n`;
  // A file that is not UTF-8 text has no line worth showing: its bytes would print as garbage.
  const line = location === undefined || hasNoSourceLine(diagnostic.code) ? undefined : linesOf(location.file)?.[location.line - 1];
  if (location !== undefined && line !== undefined) {
    const masked = maskSecrets(line, location.line, location.col, secretsOf(location.file));
    const redacted = isSecretDiagnostic(diagnostic.code) && diagnostic.secretValue === undefined ? redact(masked.line, masked.col) : masked.line;
    const excerpt = excerptOf(redacted, masked.col);
    const gutter = String(location.line);
    const pad = ' '.repeat(gutter.length);
    const lead = excerpt.shown.slice(0, excerpt.col - 1).replace(/[^\t]/g, ' ');
    text += `${paint.blue(` ${gutter} |`)} ${excerpt.shown}${excerpt.more}\n`;
    text += `${paint.blue(` ${pad} |`)} ${lead}${severityColor('^'.repeat(underlineWidth(excerpt.shown, excerpt.col)))}\n`;
  }
  if (diagnostic.hint !== undefined) text += `${paint.cyan('  hint:')} ${terminalText(diagnostic.hint)}\n`;
  return text;
}

function hasNoSourceLine(code: string): boolean {
  return code.startsWith('encoding.') || code === 'config.tooLarge';
}

/** Characters of a source line an excerpt shows at most: a longer line is cut around the column. */
export const EXCERPT_WIDTH = 200;
/** Characters an excerpt of a long line keeps before the column, for context. */
const EXCERPT_CONTEXT = 40;

/**
 * A source line as the code frame shows it, with the column in it: URL credentials masked
 * whatever the diagnostic is about, a line longer than EXCERPT_WIDTH cut to that many characters
 * around the column (`…` where it was cut; `more` is what follows the underlined text), and
 * control characters escaped. Tabs stay, for the caret.
 */
function excerptOf(line: string, col: number): { shown: string; col: number; more: string } {
  const masked = maskUrlCredentials(line);
  if (masked.length <= EXCERPT_WIDTH) return { shown: printable(masked), col, more: '' };
  let start = Math.max(0, Math.min(col - 1 - EXCERPT_CONTEXT, masked.length - EXCERPT_WIDTH));
  let end = start + EXCERPT_WIDTH;
  // Never cut a character in two (a surrogate pair).
  if (start > 0 && isLowSurrogate(masked.charCodeAt(start))) start++;
  if (end < masked.length && isLowSurrogate(masked.charCodeAt(end))) end--;
  const before = start > 0 ? '…' : '';
  return { shown: before + printable(masked.slice(start, end)), col: col - start + before.length, more: end < masked.length ? '…' : '' };
}

function printable(text: string): string {
  return text.split('\t').map(terminalText).join('\t');
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

const SCHEME_CHARACTER = /[A-Za-z0-9+.-]/;
const LETTER = /[A-Za-z]/;

/**
 * `scheme://user:secret@host` written `scheme://<redacted>@host`, up to the last `@` of the
 * address (a password may hold `/`, `?` or `#` that end no user-info; an address ends at white
 * space or a quote). The same as replacing /([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s'"]*@/g, in one
 * pass: that expression rescans the rest of the line from every letter, which takes minutes
 * on a line of millions of characters.
 */
export function maskUrlCredentials(line: string): string {
  return line.replace(/[^\s'"]+/g, (address) => {
    let from = 0;
    for (let separator = address.indexOf('://'); separator >= 0; separator = address.indexOf('://', from)) {
      // The scheme is the run of scheme characters before `://`, from its first letter.
      let schemeStart = separator;
      while (schemeStart > from && SCHEME_CHARACTER.test(address[schemeStart - 1]!)) schemeStart--;
      while (schemeStart < separator && !LETTER.test(address[schemeStart]!)) schemeStart++;
      if (schemeStart < separator) {
        const at = address.lastIndexOf('@');
        // No `@` after the first address means none after any later one.
        if (at < separator + 3) return address;
        return `${address.slice(0, separator + 3)}<redacted>${address.slice(at)}`;
      }
      from = separator + 1;
    }
    return address;
  });
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/**
 * How many characters to underline at `col`: a quoted scalar to its closing quote, otherwise the
 * key or plain value up to `: `, ` #` or the end of the line (and `,` `]` `}` in flow context).
 */
export function underlineWidth(line: string, col: number): number {
  const rest = line.slice(col - 1);
  if (rest === '') return 1;
  const quote = rest[0];
  if (quote === '"' || quote === "'") {
    for (let index = 1; index < rest.length; index++) {
      if (rest[index] === '\\' && quote === '"') index++;
      else if (rest[index] === quote) return index + 1;
    }
    return rest.length;
  }
  if (quote === '[' || quote === '{') return 1;
  const flow = /[[{]/.test(line.slice(0, col - 1));
  const end = rest.search(flow ? /:(\s|$)|\s#|[,\]}]/ : /:(\s|$)|\s#/);
  const token = (end < 0 ? rest : rest.slice(0, end)).trimEnd();
  return Math.max(1, token.length);
}

const MASK = '<redacted>';

/**
 * Line `lineNumber` with the part of every secret value written on it replaced by `<redacted>`
 * (a value's later lines from their indentation), and where column `col` is then.
 */
function maskSecrets(line: string, lineNumber: number, col: number, secrets: SecretValue[]): { line: string; col: number } {
  const spans = secrets
    .filter(({ start, end }) => start.line <= lineNumber && lineNumber <= end.line)
    .map(({ start, end }) => ({
      from: start.line === lineNumber ? start.col - 1 : line.length - line.trimStart().length,
      to: end.line === lineNumber ? end.col - 1 : line.length,
    }))
    .filter(({ from, to }) => from < to)
    .sort((a, b) => b.from - a.from);
  let masked = line;
  let column = col;
  let limit = Infinity;
  // Right to left, so the offsets of the spans still to mask stay valid; overlaps merge.
  for (const span of spans) {
    const to = Math.min(span.to, limit);
    if (span.from >= to) continue;
    masked = `${masked.slice(0, span.from)}${MASK}${masked.slice(to)}`;
    if (column - 1 >= to) column += MASK.length - (to - span.from);
    else if (column - 1 > span.from) column = span.from + 1;
    limit = span.from;
  }
  return { line: masked, col: column };
}

// A line that holds a secret is shown with its value masked: the key stays, the value does not.
function redact(line: string, col: number): string {
  const before = line.slice(0, col - 1);
  const rest = line.slice(col - 1);
  const key = /^(["']?[\w -]+["']?\s*:)(\s*)(.*)$/.exec(rest);
  if (key !== null) return key[3] === '' ? line : `${before}${key[1]}${key[2]}${MASK}`;
  return `${before}${MASK}`;
}

/** A diagnostic as `--json` prints it: flat, with the position spelled out. */
export interface DiagnosticJson {
  severity: Diagnostic['severity'];
  code: string;
  message: string;
  detail?: string;
  hint?: string;
  file?: string;
  line?: number;
  col?: number;
}

/** The `--json` form of one diagnostic. */
export function diagnosticToJson(diagnostic: Diagnostic): DiagnosticJson {
  return {
    severity: diagnostic.severity,
    code: diagnostic.code,
    message: diagnostic.summary,
    ...(diagnostic.detail === undefined ? {} : { detail: diagnostic.detail }),
    ...(diagnostic.hint === undefined ? {} : { hint: diagnostic.hint }),
    ...(diagnostic.location === undefined ? {} : { file: diagnostic.location.file, line: diagnostic.location.line, col: diagnostic.location.col }),
  };
}

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`), one line per
 * diagnostic, so findings appear on the pull request's changed lines.
 */
export function githubAnnotations(diagnostics: Diagnostic[]): string {
  return diagnostics
    .map((diagnostic) => {
      const properties: string[] = [];
      if (diagnostic.location !== undefined) {
        const { file, line, col } = diagnostic.location;
        properties.push(`file=${annotationProperty(file)}`, `line=${line}`, `col=${col}`);
      }
      properties.push(`title=${annotationProperty(`steward ${diagnostic.code}`)}`);
      // Summary and hint each stay one line; the line break between them is the command's own.
      const message = [diagnostic.summary, ...(diagnostic.hint === undefined ? [] : [diagnostic.hint])].map(annotationData).join('%0A');
      return `::${diagnostic.severity} ${properties.join(',')}::${message}\n`;
    })
    .join('');
}
