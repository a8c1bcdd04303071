// Paths into a parsed file resolve to the line and column of the value, the key, or the nearest
// existing ancestor.
import { describe, expect, it } from 'vitest';
import { formatPath, locateInDocument, pointerToPath } from '../../src/config/positions.js';
import { parseSource } from '../../src/config/sources.js';

const text = [
  'version: 1', //                              line 1
  'creditControls:', //                         line 2
  '  shutoffCredits: 10000', //                 line 3
  'routines:', //                               line 4
  '  - name: Weekly revenue digest', //         line 5
  '    destination:', //                        line 6
  '      type: email', //                       line 7
  '      recipientEmails: [ada@acme.example, grace@acme.example]', // line 8
  '    description:', //                        line 9
  '',
].join('\n');
const { source } = parseSource(text, '/config/steward.yaml', 'steward.yaml', 'steward.yaml');
const at = (path: (string | number)[], target?: 'value' | 'key') => {
  const { line, col } = locateInDocument(source, path, target);
  return `${line}:${col}`;
};

describe('locateInDocument', () => {
  it('points at values', () => {
    expect(at(['version'])).toBe('1:10');
    expect(at(['creditControls', 'shutoffCredits'])).toBe('3:19');
    expect(at(['routines', 0, 'destination', 'recipientEmails', 1])).toBe('8:43');
  });

  it('points at keys when asked', () => {
    expect(at(['creditControls', 'shutoffCredits'], 'key')).toBe('3:3');
    expect(at(['routines', 0, 'destination'], 'key')).toBe('6:5');
  });

  it('points at the item itself for a list item', () => {
    expect(at(['routines', 0])).toBe('5:5');
    expect(at(['routines', 0], 'key')).toBe('5:5');
  });

  it('points at the key of an empty value', () => {
    expect(at(['routines', 0, 'description'])).toBe('9:5');
  });

  it('falls back to the nearest existing ancestor for missing keys and items', () => {
    expect(at(['creditControls', 'downgradeCredits'])).toBe('2:1');
    expect(at(['routines', 0, 'destination', 'userGroupIds'])).toBe('6:5');
    expect(at(['routines', 3, 'name'])).toBe('4:1');
    expect(at(['labels'])).toBe('1:1');
  });

  it('accepts list indices written as strings (JSON pointers)', () => {
    expect(at(['routines', '0', 'name'])).toBe('5:11');
  });

  it('places an empty file at 1:1', () => {
    const empty = parseSource('', '/config/empty.yaml', 'empty.yaml', 'empty.yaml').source;
    expect(locateInDocument(empty, ['version'])).toEqual({ file: 'empty.yaml', line: 1, col: 1 });
  });
});

describe('formatPath', () => {
  it('writes paths the way users read them', () => {
    expect(formatPath(['routines', 2, 'destination', 'type'])).toBe('routines[2].destination.type');
    expect(formatPath(['environments', 'staging env', 'baseUrl'])).toBe('environments["staging env"].baseUrl');
    expect(formatPath([])).toBe('');
  });
});

describe('pointerToPath', () => {
  it('numbers list indices only where the value is a list', () => {
    const value = { routines: [{ name: 'a' }], environments: { '0': { baseUrl: 'x' } } };
    expect(pointerToPath('/routines/0/name', value)).toEqual(['routines', 0, 'name']);
    expect(pointerToPath('/environments/0/baseUrl', value)).toEqual(['environments', '0', 'baseUrl']);
    expect(pointerToPath('/a~1b/c~0d', {})).toEqual(['a/b', 'c~d']);
  });
});
