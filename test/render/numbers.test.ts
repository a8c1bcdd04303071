// Digit grouping by hand writes exactly what toLocaleString('en-US') writes.
import { describe, expect, it } from 'vitest';
import { grouped } from '../../src/domain/numbers.js';

describe('grouped', () => {
  it('writes every kind of number as toLocaleString("en-US") does', () => {
    const values = [0, -0, 1, -1, 7, 999, 1000, -1000, 1234, 12345, 123456, 1234567, 1_000_000, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, 1.5, 0.1234, -2.5, 1234.5678, Number.NaN, Infinity];
    for (let power = 0; power < 16; power += 1) values.push(10 ** power - 1, 10 ** power, 10 ** power + 1, -(10 ** power));
    for (let seed = 1; seed < 500; seed += 1) values.push(Math.floor((seed * 2654435761) % 1e9) * (seed % 2 === 0 ? 1 : -1));
    for (const value of values) expect(grouped(value), String(value)).toBe(value.toLocaleString('en-US'));
  });
});
