// YAML syntax errors and warnings as diagnostics, in words a configuration author knows. An
// unclosed `[` or `{` is reported where it opens: the parser only notices at the next line that
// is not indented enough (the next key, or an empty line at the end), away from the mistake.
// An unclosed quote is reported at the quote, and the brackets it swallowed are not reported.
import type { Document, YAMLError } from 'yaml';
import { positionAt, type PositionedDocument } from './positions.js';
import type { Diagnostic } from './types.js';
import { yaml } from './yamlLibrary.js';

/** A flow collection (`[...]` or `{...}`) whose closing bracket the parser never found. */
interface UnclosedFlow {
  offset: number;
  opener: '[' | '{';
}

/** A quoted string whose closing quote the parser never found: it runs on to `end`. */
interface UnclosedQuote {
  offset: number;
  end: number;
  quote: '"' | "'";
}

/** One diagnostic per YAML error and warning of `source`, in the parser's order. */
export function syntaxDiagnostics(source: PositionedDocument & { text: string }): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  let unclosed: UnclosedFlow[] | undefined;
  const quotes = source.doc.errors.some(isUnclosedQuote) ? unclosedQuotes(source.text) : [];
  for (const error of source.doc.errors) {
    if (isUnclosedQuote(error)) {
      const quote = quotes.find((candidate) => candidate.offset < error.pos[0] && error.pos[0] <= candidate.end);
      if (quote !== undefined) {
        diagnostics.push(unclosedQuoteDiagnostic(source, quote));
        continue;
      }
    }
    const opener = unclosedOpener(error);
    if (opener !== undefined) {
      unclosed ??= unclosedFlows(source.text);
      const flow = innermostBefore(unclosed, opener, error.pos[0]);
      if (flow !== undefined) {
        unclosed = unclosed.filter((candidate) => candidate !== flow);
        // `[a, "b]` is one mistake: the string took the `]` that closed the list.
        const closer = opener === '[' ? ']' : '}';
        if (quotes.some((quote) => flow.offset < quote.offset && source.text.slice(quote.offset + 1, quote.end).includes(closer))) continue;
        diagnostics.push(unclosedDiagnostic(source, flow));
        continue;
      }
    }
    diagnostics.push({
      severity: 'error',
      code: 'yaml.syntax',
      summary: syntaxMessage(error.code, error.message),
      ...syntaxHint(source, error),
      location: positionAt(source, error.pos[0]),
    });
  }
  for (const warning of source.doc.warnings) {
    diagnostics.push({ severity: 'warning', code: 'yaml.warning', summary: syntaxMessage(warning.code, warning.message), location: positionAt(source, warning.pos[0]) });
  }
  return diagnostics;
}

/** The opening bracket an error says is not closed (or not indented enough to continue). */
function unclosedOpener(error: YAMLError): '[' | '{' | undefined {
  if (error.code !== 'BAD_INDENT' && error.code !== 'MISSING_CHAR') return undefined;
  if (/^Flow sequence\b.*end with a \]/.test(error.message)) return '[';
  if (/^Flow map\b.*end with a \}/.test(error.message)) return '{';
  return undefined;
}

/** Every flow collection of the text without any closing bracket, in source order. */
function unclosedFlows(text: string): UnclosedFlow[] {
  const { CST, Parser } = yaml();
  const found: UnclosedFlow[] = [];
  for (const token of new Parser().parse(text)) {
    if (token.type !== 'document') continue;
    CST.visit(token, (item) => {
      for (const node of [item.key, item.value]) {
        if (node?.type !== 'flow-collection') continue;
        const closed = node.end.some((end) => end.type === 'flow-seq-end' || end.type === 'flow-map-end');
        if (!closed) found.push({ offset: node.start.offset, opener: node.start.source === '{' ? '{' : '[' });
      }
    });
  }
  return found.sort((a, b) => a.offset - b.offset);
}

function isUnclosedQuote(error: YAMLError): boolean {
  return error.code === 'MISSING_CHAR' && /^Missing closing ["']quote/.test(error.message);
}

/** Every quoted string of the text without its closing quote, in source order. */
function unclosedQuotes(text: string): UnclosedQuote[] {
  const { Parser } = yaml();
  const found: UnclosedQuote[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const token = node as { type?: unknown; offset?: unknown; source?: unknown };
    if ((token.type === 'double-quoted-scalar' || token.type === 'single-quoted-scalar') && typeof token.offset === 'number' && typeof token.source === 'string') {
      const quote = token.source[0] as '"' | "'";
      if (!closesQuote(token.source, quote)) found.push({ offset: token.offset, end: token.offset + token.source.length, quote });
      return;
    }
    for (const value of Object.values(node)) if (typeof value === 'object') visit(value);
  };
  for (const token of new Parser().parse(text)) visit(token);
  return found.sort((a, b) => a.offset - b.offset);
}

/** Whether a quoted scalar's source (from its opening quote) ends with its closing quote. */
function closesQuote(written: string, quote: '"' | "'"): boolean {
  for (let index = 1; index < written.length; index++) {
    const character = written[index];
    if (quote === '"' && character === '\\') index++;
    else if (character === quote) {
      if (quote === "'" && written[index + 1] === "'") index++;
      else return true;
    }
  }
  return false;
}

function unclosedQuoteDiagnostic(source: PositionedDocument, quote: UnclosedQuote): Diagnostic {
  const [what, escaped] = quote.quote === '"' ? ['double-quoted', '\\"'] : ['single-quoted', "''"];
  return {
    severity: 'error',
    code: 'yaml.syntax',
    summary: `this \`${quote.quote}\` starts a ${what} string that is not closed`,
    hint: `add the closing \`${quote.quote}\` where the text ends; a \`${quote.quote}\` inside the text is written \`${escaped}\``,
    location: positionAt(source, quote.offset),
  };
}

/** Hints for errors whose usual cause shows in the line: the hint shows the line corrected. */
function syntaxHint(source: PositionedDocument & { text: string }, error: YAMLError): { hint?: string } {
  const { text } = source;
  const lineStart = text.lastIndexOf('\n', error.pos[0] - 1) + 1;
  const lineEnd = text.indexOf('\n', error.pos[0]);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
  const column = error.pos[0] - lineStart;
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY') {
    // `prompt: Summarise: revenue by region`: the second `: ` starts a map inside the value.
    const value = withoutComment(line.slice(column)).trimEnd();
    const key = /^\s*(?:-\s+)*(.*?):\s*$/.exec(line.slice(0, column))?.[1];
    if (key === undefined || !/:(\s|$)/.test(value) || /^["'[{]/.test(value)) return {};
    return { hint: `a \`: \` inside a value starts a nested map: quote the value, \`${key}: "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"\`` };
  }
  if (error.code === 'UNEXPECTED_TOKEN' && /^Unexpected scalar at node end/.test(error.message)) {
    const close = line.slice(0, column).trimEnd();
    const quote = close.at(-1);
    if (quote !== '"' && quote !== "'") return {};
    const open = close.lastIndexOf(quote, close.length - 2);
    const key = open < 0 ? undefined : /^\s*(?:-\s+)*([^\s"'{}[\],#][^"'{}[\],#]*?):\s*$/.exec(close.slice(0, open))?.[1];
    const extra = text.slice(error.pos[0], error.pos[1]).trim();
    if (key === undefined || extra.includes(quote) || /[\n{}[\],]/.test(extra)) return { hint: 'put all of the value inside the quotes, or remove what follows them' };
    return { hint: `put all of the value inside the quotes, \`${key}: ${quote}${close.slice(open + 1, -1)} ${extra}${quote}\`, or remove what follows them` };
  }
  return {};
}

/** A line without its trailing comment (` #` outside quotes starts one). */
function withoutComment(line: string): string {
  const at = line.search(/\s#/);
  return at < 0 ? line : line.slice(0, at);
}

function innermostBefore(flows: readonly UnclosedFlow[], opener: '[' | '{', offset: number): UnclosedFlow | undefined {
  return flows.filter((flow) => flow.opener === opener && flow.offset < offset).at(-1);
}

function unclosedDiagnostic(source: PositionedDocument, flow: UnclosedFlow): Diagnostic {
  const [what, closer] = flow.opener === '[' ? ['list', ']'] : ['map', '}'];
  return {
    severity: 'error',
    code: 'yaml.syntax',
    summary: `this \`${flow.opener}\` starts a ${what} that is not closed with \`${closer}\``,
    hint: `add the missing \`${closer}\`; if the ${what} continues on the next lines, indent them more than the line it starts on`,
    location: positionAt(source, flow.offset),
  };
}

function syntaxMessage(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS') return 'a configuration file holds one YAML document, but this one has several (separated by `---`)';
  if (code === 'BAD_ALIAS' && /empty string/.test(message)) return 'a lone `*` starts an alias in YAML: quote the value if it is text, such as a cron schedule';
  const firstLine = (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim();
  if (firstLine.startsWith('Missing closing "quote')) return 'a double-quoted string is not closed';
  if (firstLine.startsWith("Missing closing 'quote")) return 'a single-quoted string is not closed';
  if (code === 'UNEXPECTED_TOKEN' && /^Unexpected scalar at node end/.test(firstLine)) return 'text follows the closing quote of a quoted value';
  return /^[A-Z][a-z]/.test(firstLine) ? firstLine[0]!.toLowerCase() + firstLine.slice(1) : firstLine;
}

/**
 * Where the YAML library gave up because nesting ran it out of stack, if it did. Its error has
 * no code of its own, so its words are read: here, in the one module that reads the library's errors.
 */
export function stackOverflowAt(doc: Pick<Document, 'errors'>): number | undefined {
  return doc.errors.find((error) => /call stack/i.test(error.message))?.pos[0];
}
