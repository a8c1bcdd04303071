// Numbers as people read them: `1,204`. Written by hand for integers because the first
// toLocaleString of a process initialises ICU's number formatting, which costs every plan about
// 20 ms; other numbers (fractions, -0, beyond 2^53) still go through toLocaleString.

/** `n` as toLocaleString('en-US') writes it (digits grouped by three with commas). */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
