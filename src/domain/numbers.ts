// Numbers as people read them: `1,204`. Written by hand for integers because the first
// toLocaleString of a process initialises ICU's number formatting, which costs every plan about
// 20 ms; other numbers (fractions, -0, beyond 2^53) still go through toLocaleString.

/** `n` as toLocaleString('en-US') writes it (digits grouped by three with commas). */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

/** "about 5 minutes", "about 40 seconds", "about 2 hours" (for estimates, never exact). */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 1) return 'less than a second';
  if (seconds < 90) {
    const n = Math.max(1, Math.round(seconds));
    return `about ${n} second${n === 1 ? '' : 's'}`;
  }
  const minutes = seconds / 60;
  if (minutes < 90) {
    const n = Math.round(minutes);
    return `about ${n} minute${n === 1 ? '' : 's'}`;
  }
  const hours = Math.round((minutes / 60) * 10) / 10;
  return `about ${hours} hour${hours === 1 ? '' : 's'}`;
}
