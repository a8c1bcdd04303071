// YAML syntax errors: an unclosed `[` or `{` is reported at the bracket that opens it, wherever
// the parser happened to notice; other syntax errors keep the parser's position.
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../src/config/sources.js';

function syntaxErrors(text: string): { summary: string; at: string }[] {
  return parseSource(text, '/config/steward.yaml', 'steward.yaml', 'steward.yaml')
    .diagnostics.filter((diagnostic) => diagnostic.code === 'yaml.syntax')
    .map((diagnostic) => ({ summary: diagnostic.summary, at: `${diagnostic.location?.line}:${diagnostic.location?.col}` }));
}

const unclosedList = 'this `[` starts a list that is not closed with `]`';
const unclosedMap = 'this `{` starts a map that is not closed with `}`';

describe('an unclosed flow collection', () => {
  it('is reported at its `[`, not at the empty line after it', () => {
    expect(syntaxErrors('version: 1\nlabels: [finance, marketing\n\n\n')).toEqual([{ summary: unclosedList, at: '2:9' }]);
  });

  it('is reported at its `[` when the file ends on that line', () => {
    expect(syntaxErrors('version: 1\nlabels: [finance, marketing')).toEqual([{ summary: unclosedList, at: '2:9' }]);
  });

  it('is reported at its `[`, not at the next key', () => {
    expect(syntaxErrors('labels: [finance,\n  marketing\nprune:\n  labels: true\n')).toEqual([{ summary: unclosedList, at: '1:9' }]);
  });

  it('pairs each error with its own bracket when one is nested in another', () => {
    expect(syntaxErrors('a: [1, {b: 2\nc: 3\n')).toEqual([
      { summary: unclosedMap, at: '1:8' },
      { summary: unclosedList, at: '1:4' },
    ]);
  });

  it('leaves a closed inner list alone', () => {
    expect(syntaxErrors('a:\n  - [1, [2, 3]\nb: 1\n')).toEqual([{ summary: unclosedList, at: '2:5' }]);
  });

  it('points at a wrong closing bracket rather than at the opening one', () => {
    expect(syntaxErrors('a: [1, 2}\n')).toEqual([
      { summary: 'flow sequence in block collection must be sufficiently indented and end with a ]', at: '1:9' },
    ]);
  });

  it('explains the fix in the hint', () => {
    const [diagnostic] = parseSource('labels: [a, b\n', '/c/s.yaml', 's.yaml', 's.yaml').diagnostics;
    expect(diagnostic?.hint).toBe('add the missing `]`; if the list continues on the next lines, indent them more than the line it starts on');
  });
});
