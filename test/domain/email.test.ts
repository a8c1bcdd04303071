// The e-mail check's fast path takes only addresses the full check takes: over hand-picked edge
// cases and over many strings built from the characters each check looks at.
import { describe, expect, it } from 'vitest';
import { addressProblem, emailProblem, isPlainAddress } from '../../src/domain/rules.js';

const EDGES = [
  'ada@acme.example',
  'Ada.Lovelace+ai@mail.acme.example',
  'a@b.co',
  'a..b@acme.example',
  '.a@acme.example',
  'a.@acme.example',
  'a@acme',
  'a@-acme.example',
  'a@acme-.example',
  'a@acme..example',
  'a@acme.e',
  'a@acme.123',
  'a@acme.xn--p1ai',
  ' a@acme.example',
  'mailto:a@acme.example',
  '<a@acme.example>',
  'a@@acme.example',
  `${'a'.repeat(64)}@acme.example`,
  `${'a'.repeat(65)}@acme.example`,
  `a@${'b'.repeat(63)}.example`,
  `a@${'b'.repeat(64)}.example`,
  `a@${Array.from({ length: 50 }, () => 'bcdef').join('.')}.example`,
];

/**
 * Addresses built as `local@label.tld` from characters each check looks at (dots, hyphens, an
 * accented letter, a space, a second `@`), deterministic so that a failure names its input.
 */
function* strings(count: number): Generator<string> {
  const alphabet = ['a', 'Z', '0', 'b', 'q', '.', '@', '-', '_', '+', '%', ' ', 'é', ':', '<'];
  let seed = 7;
  const next = (below: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor(seed / 65536) % below;
  };
  const part = (longest: number): string => Array.from({ length: 1 + next(longest) }, () => (next(8) === 0 ? alphabet[next(alphabet.length)] : 'abcxyz'[next(6)])).join('');
  for (let index = 0; index < count; index++) yield `${part(8)}@${part(6)}.${part(4)}`;
}

describe('emailProblem', () => {
  it.each(EDGES)('gives the full check\'s answer for %j', (value) => {
    expect(emailProblem(value)).toBe(addressProblem(value));
  });

  it('takes on the fast path only what the full check takes, over 200,000 built strings', () => {
    let fast = 0;
    for (const value of strings(200_000)) {
      if (!isPlainAddress(value)) continue;
      fast += 1;
      expect(addressProblem(value), value).toBeUndefined();
    }
    // The generator does reach the fast path (its strings are not all refused).
    expect(fast).toBeGreaterThan(5_000);
  });
});
