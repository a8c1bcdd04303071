// Reading the documentation as the docs tests need it: the Markdown files, their fenced code
// blocks with the line each starts on, the command lines in them, and their headings' anchors.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CodeBlock {
  /** The info string after the opening fence: `sh`, `yaml`, `text`, … ('' when none). */
  language: string;
  /** Line number (1-based) of the block's first content line. */
  line: number;
  lines: string[];
}

/** README.md and every Markdown file under docs/, as paths relative to the repository. */
export function documentationFiles(): string[] {
  const files = ['README.md'];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(join(ROOT, directory), { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  walk('examples');
  return files.sort();
}

export function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/** The fenced code blocks of a Markdown text (fences may be indented, as inside list items). */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: CodeBlock | undefined;
  let indent = 0;
  markdown.split('\n').forEach((text, index) => {
    const fence = /^(\s*)```(.*)$/.exec(text);
    if (open === undefined) {
      if (fence !== null) {
        indent = fence[1]!.length;
        open = { language: fence[2]!.trim(), line: index + 2, lines: [] };
      }
    } else if (fence !== null && fence[2]!.trim() === '') {
      blocks.push(open);
      open = undefined;
    } else {
      open.lines.push(text.slice(Math.min(indent, text.length - text.trimStart().length)));
    }
  });
  return blocks;
}

/** Blocks that hold commands to type: shell blocks; console blocks hold them after `$ `. */
const SHELL = new Set(['sh', 'bash', 'shell', 'zsh']);

export interface CommandLine {
  file: string;
  line: number;
  /** The line as written (continuations joined). */
  text: string;
}

/**
 * Every line of a shell or console block that runs steward: `steward …`, `npx --no-install steward …`,
 * `$ npx --no-install steward …` in a console block, and `source <(npx --no-install steward …)`. Output blocks (`text`)
 * and unlabelled blocks are not read: the docs label every block. A line that runs steward through
 * npx in any other way (`npx steward …`, which may install a package of that name from the
 * registry) is found too, so that the test can refuse it.
 */
export function commandLines(file: string, markdown: string): CommandLine[] {
  const found: CommandLine[] = [];
  for (const block of codeBlocks(markdown)) {
    const console = block.language === 'console';
    if (!console && !SHELL.has(block.language)) continue;
    for (let index = 0; index < block.lines.length; index++) {
      let text = block.lines[index]!.trim();
      const start = index;
      while (text.endsWith('\\') && index + 1 < block.lines.length) text = `${text.slice(0, -1).trimEnd()} ${block.lines[++index]!.trim()}`;
      if (console) {
        if (!text.startsWith('$ ')) continue;
        text = text.slice(2);
      }
      const sourced = /^source <\((.*)\)\s*(#.*)?$/.exec(text);
      if (sourced !== null) text = sourced[1]!;
      if (/^(npx (\S+ )*)?steward( |$)/.test(text)) found.push({ file, line: block.line + start, text });
    }
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings (outside code blocks). */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!fenced && heading !== null) found.add(anchorOf(heading[1]!));
  }
  return found;
}

/** Relative links `[text](target)` outside code blocks and inline code, with their line. */
export function links(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (!/^[a-z]+:/i.test(target)) found.push({ target, line: index + 1 });
    }
  });
  return found;
}

/**
 * The words of a documented command line, as the shell would pass them to steward, with the
 * synopsis notation taken out: `[--json | --markdown [FILE]]` reads as `--json --markdown FILE`,
 * `--kind KIND]...` as `--kind KIND`. What follows a redirection, a pipe into another program,
 * `&&`, `;` or a comment is not steward's.
 */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let quoted = false;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "'" || char === '"') {
      const end = text.indexOf(char, index + 1);
      word += text.slice(index + 1, end === -1 ? undefined : end);
      index = end === -1 ? text.length : end;
      quoted = true;
      inWord = true;
    } else if (char === ' ' || char === '\t') {
      if (inWord) words.push(quoted ? `\0${word}` : word);
      word = '';
      quoted = false;
      inWord = false;
    } else if (char === '#' && !inWord) {
      break;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(quoted ? `\0${word}` : word);

  const steward: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const raw = words[index]!;
    if (raw.startsWith('\0')) {
      steward.push(raw.slice(1));
      continue;
    }
    if (['>', '>>', '2>', '2>&1', '&&', ';', '||'].includes(raw) || /^\d?>/.test(raw)) break;
    if (raw === '|') {
      // In a synopsis `--json | --markdown` offers a choice; otherwise it pipes into another program.
      const next = words[index + 1]?.replace(/^\[+/, '') ?? '';
      if (next.startsWith('-')) continue;
      break;
    }
    const bare = raw.replace(/^\[+/, '').replace(/(\.\.\.|…)$/, '').replace(/\]+$/, '');
    if (bare !== '' && bare !== '...' && bare !== '…') steward.push(bare);
  }
  return steward.slice(steward.indexOf('steward') + 1);
}
