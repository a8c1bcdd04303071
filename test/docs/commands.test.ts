// The documentation stays true to the CLI: every `steward …` line in a shell block of README.md
// or docs/ parses against the real program (its command and every flag exist, values where a
// flag takes one), each command page shows the command's own --help, and every relative link
// leads to a file and heading that exist. Nothing is run: the commands' actions are replaced.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { CommanderError, type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { anchors, codeBlocks, commandLines, documentationFiles, links, read, ROOT, wordsOf, type CommandLine } from './markdown.js';

/** Width the command pages' help text is wrapped at (commander's default follows the terminal). */
const HELP_WIDTH = 100;

/** A value the docs write as a placeholder: FILE, NAME=URL, K[/N, <file>, …. */
function placeholder(value: string): boolean {
  return /^<[^>]+>$/.test(value) || /^[A-Z][A-Z0-9_]*([=/[][A-Z0-9_/[\]]*)*$/.test(value) || value === '…' || value === 'N';
}

/** The program with every action replaced by nothing, and usage errors thrown instead of exiting. */
function inertProgram(): { program: Command; output: () => string } {
  let output = '';
  const program = buildProgram();
  for (const command of [program, ...program.commands]) {
    command
      .exitOverride()
      .configureOutput({ writeOut: (text) => (output += text), writeErr: (text) => (output += text), outputError: (text) => (output += text) });
    if (command !== program) command.action(() => {});
  }
  return { program, output: () => output };
}

/** Why a documented line does not parse, or undefined when it does. */
async function parseProblem(words: string[]): Promise<string | undefined> {
  const { program, output } = inertProgram();
  if (words.length === 0) return 'no command';
  if (!program.commands.some((command) => command.name() === words[0]) && !words[0]!.startsWith('-')) {
    return `unknown command ${words[0]}`;
  }
  try {
    await program.parseAsync(['node', 'steward', ...words]);
    return undefined;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return undefined;
    // A flag's own check of its value (a number, a rule name) refuses a placeholder such as N: that is the docs' notation.
    const value = /argument '([^']*)' is invalid/.exec(error.message)?.[1];
    if (error.code === 'commander.invalidArgument' && value !== undefined && placeholder(value)) return undefined;
    return (output() || error.message).trim().split('\n')[0];
  }
}

const documented: CommandLine[] = documentationFiles().flatMap((file) => commandLines(file, read(file)));

describe('the command lines of README.md and docs/', () => {
  it('are found in every page that shows commands', () => {
    expect(documented.length).toBeGreaterThan(60);
    expect(new Set(documented.map((line) => line.file))).toContain('README.md');
    expect(new Set(documented.map((line) => line.file))).toContain('docs/getting-started.md');
  });

  it.each(documented.map((line) => [`${line.file}:${line.line}: ${line.text}`, line] as const))('%s', async (_, line) => {
    expect(await parseProblem(wordsOf(line.text))).toBeUndefined();
  });

  it('run steward through npx only as `npx --no-install steward`, which never installs a package from the registry', () => {
    // A bare `npx steward` outside an installed project offers to install whatever the registry
    // holds under that name, and that package would run with the API token in its environment.
    const unsafe = documented.filter((line) => line.text.startsWith('npx ') && !line.text.startsWith('npx --no-install steward'));
    expect(unsafe.map((line) => `${line.file}:${line.line}: ${line.text}`)).toEqual([]);
  });
});

describe('reading a documented line', () => {
  it('takes the synopsis notation out and stops where steward stops', () => {
    expect(wordsOf('npx --no-install steward plan [--config PATH] [--json | --markdown [FILE]] [--target K[/N]]')).toEqual(['plan', '--config', 'PATH', '--json', '--markdown', 'FILE', '--target', 'K[/N']);
    expect(wordsOf('npx --no-install steward export --env NAME [--kind KIND]... --out FILE')).toEqual(['export', '--env', 'NAME', '--kind', 'KIND', '--out', 'FILE']);
    expect(wordsOf('npx --no-install steward schema > steward.schema.json')).toEqual(['schema']);
    expect(wordsOf('npx --no-install steward plan --json | jq')).toEqual(['plan', '--json']);
    expect(wordsOf('steward plan --env production    # No changes.')).toEqual(['plan', '--env', 'production']);
    expect(wordsOf('npx steward plan --env production')).toEqual(['plan', '--env', 'production']);
    expect(wordsOf(`npx --no-install steward emulator --fault 'write:3=drop-after-commit' --fault "POST /api/v1/ai/routines=500x2"`)).toEqual(['emulator', '--fault', 'write:3=drop-after-commit', '--fault', 'POST /api/v1/ai/routines=500x2']);
  });

  it('fails on a renamed flag, an unknown command and a missing value, and takes placeholders', async () => {
    expect(await parseProblem(wordsOf('npx --no-install steward plan --detailed-exit-code'))).toMatch(/unknown option '--detailed-exit-code'/);
    expect(await parseProblem(wordsOf('npx --no-install steward planify --env production'))).toMatch(/unknown command planify/);
    expect(await parseProblem(wordsOf('npx --no-install steward plan --env'))).toMatch(/argument missing/);
    expect(await parseProblem(wordsOf('npx --no-install steward plan --requests-per-minute N --out FILE'))).toBeUndefined();
    expect(await parseProblem(wordsOf('npx --no-install steward plan --requests-per-minute many'))).toMatch(/invalid/);
  });
});

describe('each command page', () => {
  const { program } = inertProgram();
  it.each(program.commands.map((command) => [command.name(), command.name()] as const))('docs/commands/%s.md shows `steward %s --help`', (name) => {
    const command = program.commands.find((registered) => registered.name() === name)!;
    const page = `docs/commands/${name}.md`;
    expect(existsSync(join(ROOT, page)), `${page} exists`).toBe(true);
    command.configureHelp({ helpWidth: HELP_WIDTH });
    const help = command.helpInformation().trimEnd();
    const shown = codeBlocks(read(page)).find((block) => block.lines[0]?.startsWith(`Usage: steward ${name} `));
    expect(shown, `${page} holds a text block starting "Usage: steward ${name}"`).toBeDefined();
    // When this fails, paste the help text below (wrapped at 100 columns) into the page.
    expect(shown!.lines.join('\n').trimEnd()).toBe(help);
  });
});

describe('the links of README.md and docs/', () => {
  const all = documentationFiles().flatMap((file) => links(read(file)).map((link) => ({ file, ...link })));
  it.each(all.map((link) => [`${link.file}:${link.line}: ${link.target}`, link] as const))('%s leads somewhere', (_, link) => {
    const [path, anchor] = link.target.split('#') as [string, string | undefined];
    const target = path === '' ? link.file : normalize(join(dirname(link.file), path));
    expect(existsSync(join(ROOT, target)), `${target} exists`).toBe(true);
    if (anchor !== undefined && target.endsWith('.md') && statSync(join(ROOT, target)).isFile()) {
      expect([...anchors(read(target))], `${target} has a heading #${anchor}`).toContain(anchor);
    }
  });
});
