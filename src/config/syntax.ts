// YAML syntax errors and warnings as diagnostics, in words a configuration author knows. An
// unclosed `[` or `{` is reported where it opens: the parser only notices at the next line that
// is not indented enough (the next key, or an empty line at the end), away from the mistake.
import type { YAMLError } from 'yaml';
import { positionAt, type PositionedDocument } from './positions.js';
import type { Diagnostic } from './types.js';
import { yaml } from './yamlLibrary.js';

/** A flow collection (`[...]` or `{...}`) whose closing bracket the parser never found. */
interface UnclosedFlow {
  offset: number;
  opener: '[' | '{';
}

/** One diagnostic per YAML error and warning of `source`, in the parser's order. */
export function syntaxDiagnostics(source: PositionedDocument & { text: string }): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  let unclosed: UnclosedFlow[] | undefined;
  for (const error of source.doc.errors) {
    const opener = unclosedOpener(error);
    if (opener !== undefined) {
      unclosed ??= unclosedFlows(source.text);
      const flow = innermostBefore(unclosed, opener, error.pos[0]);
      if (flow !== undefined) {
        unclosed = unclosed.filter((candidate) => candidate !== flow);
        diagnostics.push(unclosedDiagnostic(source, flow));
        continue;
      }
    }
    diagnostics.push({ severity: 'error', code: 'yaml.syntax', summary: syntaxMessage(error.code, error.message), location: positionAt(source, error.pos[0]) });
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
  return /^[A-Z][a-z]/.test(firstLine) ? firstLine[0]!.toLowerCase() + firstLine.slice(1) : firstLine;
}
