// A small POSIX-shell lexer for the `run:` scripts of the CI recipes: words (with quoting and
// `$VAR` expansions kept apart until a command is expanded), control operators and redirections,
// and the simple commands between them. Enough to find and expand every `steward ...` line the
// way bash would, without a regex that breaks on the first quoted space.

/** A piece of a word: literal text, or an expansion resolved only when the command is used. */
export type WordPart =
  | { type: 'text'; text: string }
  | { type: 'variable'; name: string; fallback?: string }
  | { type: 'unsupported'; source: string };

export type Token =
  | { type: 'word'; parts: WordPart[]; source: string }
  | { type: 'operator'; op: string }
  | { type: 'redirect'; op: string };

/** One simple command: leading `NAME=value` assignments, then the words (redirections removed). */
export interface SimpleCommand {
  assignments: { name: string; value: WordPart[] }[];
  words: { parts: WordPart[]; source: string }[];
}

const OPERATORS = ['&&', '||', ';;', ';', '|', '&', '(', ')', '\n'];
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'esac']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Splits a script into tokens; throws on an unterminated quote or substitution. */
export function tokenize(script: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let parts: WordPart[] = [];
  let source = '';
  let inWord = false;
  const text = (value: string) => {
    const last = parts[parts.length - 1];
    if (last?.type === 'text') last.text += value;
    else parts.push({ type: 'text', text: value });
  };
  const endWord = () => {
    if (inWord) tokens.push({ type: 'word', parts, source });
    parts = [];
    source = '';
    inWord = false;
  };
  const start = (from: number) => {
    inWord = true;
    return from;
  };

  while (index < script.length) {
    const char = script[index]!;
    if (char === '\\' && script[index + 1] === '\n') {
      index += 2; // line continuation
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r') {
      endWord();
      index++;
      continue;
    }
    if (char === '#' && !inWord) {
      while (index < script.length && script[index] !== '\n') index++;
      continue;
    }
    const operator = OPERATORS.find((op) => script.startsWith(op, index));
    if (operator !== undefined) {
      endWord();
      tokens.push({ type: 'operator', op: operator === '\n' ? ';' : operator });
      index += operator.length;
      continue;
    }
    if (char === '>' || char === '<') {
      // `2>&1`, `>> file`: digits just before belong to the redirection, not to a word.
      const fd = inWord && parts.length === 1 && parts[0]!.type === 'text' && /^\d+$/.test(source) ? source : '';
      if (fd !== '') {
        parts = [];
        source = '';
        inWord = false;
      }
      endWord();
      const op = /^(>>|>&|<&|>|<)/.exec(script.slice(index))![0];
      tokens.push({ type: 'redirect', op: fd + op });
      index += op.length;
      continue;
    }
    const from = start(index);
    if (char === "'") {
      const end = script.indexOf("'", index + 1);
      if (end === -1) throw new Error(`unterminated single quote in: ${script.slice(from)}`);
      text(script.slice(index + 1, end));
      index = end + 1;
    } else if (char === '"') {
      index = doubleQuoted(script, index + 1, parts, text);
    } else if (char === '\\') {
      text(script[index + 1] ?? '');
      index += 2;
    } else if (char === '$' || char === '`') {
      index = expansion(script, index, parts);
    } else {
      text(char);
      index++;
    }
    source += script.slice(from, index);
  }
  endWord();
  return tokens;
}

function doubleQuoted(script: string, from: number, parts: WordPart[], text: (value: string) => void): number {
  let index = from;
  // An empty "" is still a word.
  text('');
  while (index < script.length) {
    const char = script[index]!;
    if (char === '"') return index + 1;
    if (char === '\\' && '$`"\\\n'.includes(script[index + 1] ?? '')) {
      if (script[index + 1] !== '\n') text(script[index + 1]!);
      index += 2;
    } else if (char === '$' || char === '`') {
      index = expansion(script, index, parts);
    } else {
      text(char);
      index++;
    }
  }
  throw new Error(`unterminated double quote in: ${script.slice(from - 1)}`);
}

/** `$NAME`, `${NAME}`, `${NAME:-fallback}`; `$(...)`, backquotes and `$?` are kept as unsupported. */
function expansion(script: string, index: number, parts: WordPart[]): number {
  const rest = script.slice(index);
  if (rest.startsWith('${{')) {
    throw new Error(`a GitHub expression inside run text (pass it through env: instead): ${rest.slice(0, 40)}`);
  }
  if (rest.startsWith('$(') || rest.startsWith('`')) {
    const end = matchingEnd(script, index);
    parts.push({ type: 'unsupported', source: script.slice(index, end) });
    return end;
  }
  const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/.exec(rest);
  if (braced !== null) {
    parts.push({ type: 'variable', name: braced[1]!, ...(braced[2] === undefined ? {} : { fallback: braced[2] }) });
    return index + braced[0].length;
  }
  const name = NAME.exec(rest.slice(1));
  if (name !== null) {
    parts.push({ type: 'variable', name: name[0] });
    return index + 1 + name[0].length;
  }
  if (/^\$[?#@*!$0-9-]/.test(rest)) {
    parts.push({ type: 'unsupported', source: rest.slice(0, 2) });
    return index + 2;
  }
  parts.push({ type: 'text', text: '$' });
  return index + 1;
}

/** The index just after a `$(...)` (nested, quotes respected) or a backquoted substitution. */
function matchingEnd(script: string, index: number): number {
  if (script[index] === '`') {
    const end = script.indexOf('`', index + 1);
    if (end === -1) throw new Error(`unterminated backquote in: ${script.slice(index)}`);
    return end + 1;
  }
  let depth = 0;
  let quote: string | undefined;
  for (let position = index + 1; position < script.length; position++) {
    const char = script[position]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') position++;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return position + 1;
  }
  throw new Error(`unterminated command substitution in: ${script.slice(index)}`);
}

/** The simple commands of a script, in order, with reserved words and redirections left out. */
export function simpleCommands(script: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { assignments: [], words: [] };
  const tokens = tokenize(script);
  const flush = () => {
    if (current.words.length > 0 || current.assignments.length > 0) commands.push(current);
    current = { assignments: [], words: [] };
  };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.type === 'operator') {
      flush();
      continue;
    }
    if (token.type === 'redirect') {
      if (!token.op.endsWith('&') || tokens[index + 1]?.type === 'word') index++; // its target
      continue;
    }
    if (current.words.length === 0) {
      if (RESERVED.has(token.source)) continue;
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(token.source);
      if (assignment !== null) {
        current.assignments.push({ name: assignment[1]!, value: dropPrefix(token.parts, assignment[0].length) });
        continue;
      }
    }
    current.words.push({ parts: token.parts, source: token.source });
  }
  flush();
  return commands;
}

function dropPrefix(parts: WordPart[], length: number): WordPart[] {
  const [first, ...rest] = parts;
  if (first?.type !== 'text' || first.text.length < length) throw new Error('an assignment must start with literal NAME=');
  return first.text.length === length ? rest : [{ type: 'text', text: first.text.slice(length) }, ...rest];
}

/** Expands a word with `env`; throws for an unset variable or an expansion it cannot do. */
export function expandWord(parts: WordPart[], env: Record<string, string | undefined>): string {
  return parts
    .map((part) => {
      switch (part.type) {
        case 'text':
          return part.text;
        case 'variable': {
          const value = env[part.name];
          if (value !== undefined && value !== '') return value;
          if (part.fallback !== undefined) return part.fallback;
          if (value === '') return value;
          throw new Error(`the script uses $${part.name}, which is not set`);
        }
        case 'unsupported':
          throw new Error(`cannot expand ${part.source} outside a shell`);
        default: {
          const unknown: never = part;
          throw new Error(`unknown word part ${JSON.stringify(unknown)}`);
        }
      }
    })
    .join('');
}
