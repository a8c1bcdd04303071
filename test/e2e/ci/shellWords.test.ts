// The shell lexer the CI-recipe tests read `run:` scripts with: it must split and expand a
// command line as bash does, or the tests would run something other than the workflow.
import { describe, expect, it } from 'vitest';
import { expandWord, simpleCommands, tokenize } from './shellWords.js';

const env = { SUMMARY: '/tmp/summary file.md', EMPTY: '', PR: '12' };

/** Each simple command of a script, expanded with `env`. */
function expanded(script: string): string[][] {
  return simpleCommands(script).map((command) => command.words.map((word) => expandWord(word.parts, env)));
}

describe('shell words', () => {
  it('splits on blanks and keeps quoted blanks inside one word', () => {
    expect(expanded(`steward plan --markdown "$SUMMARY" --title 'a b'  c\\ d`)).toEqual([
      ['steward', 'plan', '--markdown', '/tmp/summary file.md', '--title', 'a b', 'c d'],
    ]);
  });

  it('expands $VAR and ${VAR} outside and inside double quotes, never inside single quotes', () => {
    expect(expanded(`echo $PR "\${PR}x" '$PR' "\\$PR" pre$PR`)).toEqual([['echo', '12', '12x', '$PR', '$PR', 'pre12']]);
    expect(expanded(`echo "\${MISSING:-fallback}" "$EMPTY" ""`)).toEqual([['echo', 'fallback', '', '']]);
  });

  it('refuses to expand what only a shell can: unset variables, $?, $(...)', () => {
    const [unset] = simpleCommands('steward plan --out "$NOPE"');
    expect(() => expandWord(unset!.words[3]!.parts, env)).toThrow('the script uses $NOPE, which is not set');
    const [status] = simpleCommands('echo $?');
    expect(() => expandWord(status!.words[1]!.parts, env)).toThrow('cannot expand $? outside a shell');
    const [substitution] = simpleCommands(`x "$(gh api "a b" --jq '.[0] // empty')"`);
    expect(() => expandWord(substitution!.words[1]!.parts, env)).toThrow('cannot expand $(gh api "a b" --jq \'.[0] // empty\')');
  });

  it('refuses a GitHub expression in a script', () => {
    expect(() => tokenize('steward plan --token "${{ secrets.TOKEN }}"')).toThrow('a GitHub expression inside run text');
  });

  it('separates commands at operators and line ends, and skips reserved words, assignments and comments', () => {
    const script = [
      'code=0 # start',
      'steward plan --config steward || code=$?',
      'if steward apply plan.json --dry-run; then',
      '  echo "mode=reviewed" >> "$GITHUB_OUTPUT"',
      'elif [ "$EMPTY" = "true" ]; then exit 1; fi',
      'case "$code" in',
      '  0) echo none ;;',
      '  *) exit "$code" ;;',
      'esac',
    ].join('\n');
    const first = simpleCommands(script).map((command) => command.words[0]?.source ?? `${command.assignments[0]!.name}=`);
    expect(first).toEqual(['code=', 'steward', 'code=', 'steward', 'echo', '[', 'exit', 'case', '0', 'echo', '*', 'exit']);
    const steward = simpleCommands(script).filter((command) => command.words[0]?.source === 'steward');
    expect(steward.map((command) => command.words.map((word) => word.source))).toEqual([
      ['steward', 'plan', '--config', 'steward'],
      ['steward', 'apply', 'plan.json', '--dry-run'],
    ]);
  });

  it('drops redirections and their targets, including 2>&1', () => {
    expect(expanded('steward drift --json > drift.json 2>&1; cat < in.txt >> "$SUMMARY"')).toEqual([
      ['steward', 'drift', '--json'],
      ['cat'],
    ]);
  });

  it('joins lines ending in a backslash', () => {
    expect(expanded('steward plan \\\n  --config steward \\\n  --env production')).toEqual([['steward', 'plan', '--config', 'steward', '--env', 'production']]);
  });

  it('keeps assignments before a command apart from its words', () => {
    const [command] = simpleCommands('NO_COLOR=1 GH_TOKEN="$PR" steward plan');
    expect(command!.assignments.map((assignment) => [assignment.name, expandWord(assignment.value, env)])).toEqual([
      ['NO_COLOR', '1'],
      ['GH_TOKEN', '12'],
    ]);
    expect(command!.words.map((word) => word.source)).toEqual(['steward', 'plan']);
  });

  it('reports unterminated quotes', () => {
    expect(() => tokenize(`echo "open`)).toThrow('unterminated double quote');
    expect(() => tokenize(`echo 'open`)).toThrow('unterminated single quote');
  });
});
