// Small checks of request bodies and query parameters that throw 400 in the api.md pattern
// `Bad Request: <field>: <reason>`, so every area validates the same way with the same words.
import { characterCount } from '../domain/rules.js';
import { badRequest } from './http.js';

export type JsonObject = Record<string, unknown>;

/** Whether a value is a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as an object; 400 when it is missing or not a JSON object. */
export function requireObject(value: unknown, field = 'body'): JsonObject {
  if (!isObject(value)) throw badRequest(field, 'must be a JSON object');
  return value;
}

/** 400 naming the first field not in `allowed`. */
export function rejectUnknownFields(object: JsonObject, allowed: readonly string[], prefix = ''): void {
  const unknown = Object.keys(object).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw badRequest(`${prefix}${unknown}`, 'unknown field');
}

export interface StringRule {
  min?: number;
  max?: number;
  pattern?: RegExp;
  patternReason?: string;
}

/** A string field checked for type, length in characters (trimmed must be non-empty when min >= 1) and pattern. */
export function stringValue(value: unknown, field: string, rule: StringRule = {}): string {
  if (typeof value !== 'string') throw badRequest(field, 'must be a string');
  const min = rule.min ?? 0;
  if (min > 0 && value.trim() === '') throw badRequest(field, 'must not be empty');
  const length = characterCount(value);
  if (length < min || (rule.max !== undefined && length > rule.max)) {
    const range = rule.max === undefined ? `at least ${min}` : `${min} to ${rule.max}`;
    throw badRequest(field, `must be ${range} characters long`);
  }
  if (rule.pattern && !rule.pattern.test(value)) throw badRequest(field, rule.patternReason ?? 'has an invalid format');
  return value;
}

/** A string-or-null field. */
export function nullableString(value: unknown, field: string, rule: StringRule = {}): string | null {
  return value === null ? null : stringValue(value, field, rule);
}

/** A boolean field. */
export function booleanValue(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw badRequest(field, 'must be true or false');
  return value;
}

/** A non-negative number or null (credit values). */
export function creditValue(value: unknown, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw badRequest(field, 'must be a non-negative number or null');
  }
  return value;
}

/** An array of strings. */
export function stringArray(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw badRequest(field, 'must be an array of strings');
  value.forEach((item, index) => {
    if (typeof item !== 'string') throw badRequest(`${field}[${index}]`, 'must be a string');
  });
  return value as string[];
}

/** A query parameter restricted to a set of values, or `fallback` when absent. */
export function enumQuery<T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = query.get(name);
  if (value === null) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw badRequest(name, `must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}
