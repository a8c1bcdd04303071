// A value as the domain says it, for plans and messages: numbers grouped (`1,204`), text quoted,
// and null in the words its kind gives it (`unlimited`, `off`).
import { grouped } from '../domain/numbers.js';

/** `value` in words; `nullMeans` says what null is in this field (else `null`). */
export function formatValue(value: unknown, nullMeans?: string): string {
  if (value === undefined) return '(unset)';
  if (value === null) return nullMeans ?? 'null';
  if (typeof value === 'number') return grouped(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatValue(item, nullMeans)).join(', ')}]`;
  return JSON.stringify(value);
}
