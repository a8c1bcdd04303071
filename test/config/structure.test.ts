// The checks that run on a parsed file before anything walks it: numbers that would not be sent
// as written, nesting bounded without recursion, and plain values YAML would read as aliases.
import { describe, expect, it } from 'vitest';
import { decodeConfigFile, forbiddenCharacterName, holdsNotableCharacter } from '../../src/config/bytes.js';
import { findStarValues, MAX_NESTING, numberProblem, scanNesting } from '../../src/config/structure.js';

describe('numberProblem', () => {
  it.each([
    ['0', 0],
    ['500', 500],
    ['0.1', 0.1],
    ['123.450', 123.45],
    ['1e3', 1000],
    ['-0', -0],
    ['0x1F', 31],
    ['9007199254740991', 9007199254740991],
    ['2.5e-3', 0.0025],
  ])('accepts %s, which is sent as written', (written, value) => {
    expect(numberProblem(value, written)).toBeUndefined();
  });

  it.each([
    ['9007199254740992', 9007199254740992, /larger than 9,007,199,254,740,991/],
    ['1e16', 1e16, /larger than/],
    ['-12345678901234567890', -12345678901234567890, /larger than/],
    ['0.30000000000000000001', 0.3, /would be sent as 0\.3$/],
    ['1.00000000000000001', 1, /would be sent as 1$/],
    ['1e-400', 0, /would be sent as 0$/],
    ['.inf', Infinity, /not a finite number/],
    ['.nan', NaN, /not a finite number/],
  ])('refuses %s', (written, value, problem) => {
    expect(numberProblem(value, written)).toMatch(problem);
  });
});

describe('scanNesting', () => {
  it('finds the bracket that passes the limit, outside quotes and comments', () => {
    const text = `a: ${'['.repeat(MAX_NESTING + 5)}${']'.repeat(MAX_NESTING + 5)}\n`;
    expect(scanNesting(text)).toBe(3 + MAX_NESTING - 1);
    expect(scanNesting(`a: "${'['.repeat(200)}"\nb: x # ${'{'.repeat(200)}\n`)).toBeUndefined();
  });

  it('counts compact `- ` levels and indentation, not the lines of a block scalar', () => {
    expect(scanNesting(`a:\n  ${'- '.repeat(MAX_NESTING + 1)}x\n`)).toBeDefined();
    const block = `prompt: |\n${Array.from({ length: 200 }, (_, index) => `${' '.repeat(2 + index)}line\n`).join('')}`;
    expect(scanNesting(block)).toBeUndefined();
  });

  it('leaves a real configuration alone', () => {
    const config = 'version: 1\nroutines:\n  - name: x\n    destination:\n      type: email\n      recipientEmails: [a@b.example, {x: [1, [2]]}]\n';
    expect(scanNesting(config)).toBeUndefined();
  });
});

describe('findStarValues', () => {
  it('finds a plain value that starts with `*` and goes on after a space', () => {
    expect(findStarValues('routines:\n  - schedule: * 9 ? * MON *   # weekly\n')).toEqual([{ key: 'schedule', value: '* 9 ? * MON *', line: 2, col: 15 }]);
  });

  it('leaves aliases and quoted values alone', () => {
    expect(findStarValues('a: *digest\nb: "* 9 ? * MON *"\nc: *x # note\n')).toEqual([]);
  });
});

describe('notable characters', () => {
  it('are exactly the ones forbiddenCharacterName names, with tab, line feed and carriage return', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      const notable = forbiddenCharacterName(code) !== undefined || code === 0x09 || code === 0x0a || code === 0x0d;
      expect(holdsNotableCharacter(`a${String.fromCharCode(code)}b`), `U+${code.toString(16)}`).toBe(notable);
    }
  });
});

describe('forbidden characters in a file', () => {
  it('are found for exactly the characters forbiddenCharacterName names, and a carriage return without a line feed', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // not encodable alone
      const decoded = decodeConfigFile(Buffer.from(`a: b${String.fromCharCode(code)}c\n`, 'utf8'), 'file.yaml');
      const forbidden = forbiddenCharacterName(code) !== undefined || code === 0x0d;
      expect(decoded.diagnostics.length > 0, `U+${code.toString(16)}`).toBe(forbidden);
    }
    expect(decodeConfigFile(Buffer.from('a: b\r\nc: d\r\n', 'utf8'), 'file.yaml').diagnostics).toEqual([]);
  });
});
