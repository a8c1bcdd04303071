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

function syntaxFindings(text: string): { summary: string; hint?: string; at: string }[] {
  return parseSource(text, '/config/steward.yaml', 'steward.yaml', 'steward.yaml')
    .diagnostics.filter((diagnostic) => diagnostic.code === 'yaml.syntax')
    .map((diagnostic) => ({ summary: diagnostic.summary, ...(diagnostic.hint === undefined ? {} : { hint: diagnostic.hint }), at: `${diagnostic.location?.line}:${diagnostic.location?.col}` }));
}

const unclosedDoubleQuote = {
  summary: 'this `"` starts a double-quoted string that is not closed',
  hint: 'add the closing `"` where the text ends; a `"` inside the text is written `\\"`',
};

describe('an unclosed quote', () => {
  it('is reported at the quote, without the brackets the string swallowed', () => {
    expect(syntaxFindings('version: 1\nlabels: [{name: ab}, {name: cd, description: "x}]\n')).toEqual([{ ...unclosedDoubleQuote, at: '2:46' }]);
  });

  it('is reported at the quote in block style, not at the end of the file', () => {
    expect(syntaxFindings('labels:\n  - name: ab\n    description: "x\n  - name: cd\n')).toEqual([{ ...unclosedDoubleQuote, at: '3:18' }]);
  });

  it('leaves a bracket the string did not swallow reported', () => {
    expect(syntaxErrors('a: [1, "b\nc: 3\n').map((error) => error.at)).toEqual(['1:8', '1:4']);
    expect(syntaxErrors("labels: [{name: 'it''s}, {name: cd}]\n")).toEqual([{ summary: "this `'` starts a single-quoted string that is not closed", at: '1:17' }]);
  });
});

describe('a value the parser splits', () => {
  it('with a `: ` inside is shown quoted in the hint', () => {
    expect(syntaxFindings('routines:\n  - name: Daily\n    prompt: Summarise: revenue by region # why\n')).toEqual([
      {
        summary: 'nested mappings are not allowed in compact mappings',
        hint: 'a `: ` inside a value starts a nested map: quote the value, `prompt: "Summarise: revenue by region"`',
        at: '3:13',
      },
    ]);
  });

  it('with text after its closing quote says so, with the value quoted whole', () => {
    expect(syntaxFindings('labels:\n  - name: "ab" extra\n')).toEqual([
      { summary: 'text follows the closing quote of a quoted value', hint: 'put all of the value inside the quotes, `name: "ab extra"`, or remove what follows them', at: '2:16' },
    ]);
    expect(syntaxFindings("labels: [{name: 'ab' x}]\n")).toEqual([
      { summary: 'text follows the closing quote of a quoted value', hint: 'put all of the value inside the quotes, or remove what follows them', at: '1:22' },
    ]);
  });
});
