// Field-level comparison of one object's desired and live state. Objects are matched by identity
// first (in each kind); only then does deep-diff compare their fields. Arrays are compared as a
// whole value, because deep-diff's index-by-index view of a list is not how people read it.
import deepDiff from 'deep-diff';
import { isDeepStrictEqual } from 'node:util';
import type { FieldChange } from './plan.js';

type State = Record<string, unknown>;

/** The fields whose values differ between `before` and `after`, in the order of `after`'s keys. */
export function changedFields(before: object, after: object): FieldChange[] {
  const differences = deepDiff.diff(before, after) ?? [];
  const paths = new Map<string, FieldChange>();
  for (const difference of differences) {
    const segments = difference.path ?? [];
    // Cut the path at the first array index: the whole list is the field that changed.
    const cut = segments.findIndex((segment) => typeof segment === 'number');
    const fieldPath = (cut === -1 ? segments : segments.slice(0, cut)).map(String);
    const key = fieldPath.join('.');
    if (paths.has(key)) continue;
    paths.set(key, { path: key, before: valueAt(before as State, fieldPath), after: valueAt(after as State, fieldPath) });
  }
  const order = Object.keys(after);
  return [...paths.values()].sort(
    (a, b) => rank(order, a.path) - rank(order, b.path) || a.path.localeCompare(b.path),
  );
}

/** True when every field of `target` has the same value in `current`. */
export function matches(current: object | undefined, target: object | undefined): boolean {
  if (current === undefined || target === undefined) return current === target;
  return Object.entries(target).every(([key, value]) => isDeepStrictEqual((current as State)[key], value));
}

/** The fields of `state` named in `keys` (absent ones left out): part of the same object type. */
export function pick<T extends object>(state: T, keys: readonly string[]): Partial<T> {
  const picked: State = {};
  for (const key of keys) if (key in state) picked[key] = (state as State)[key];
  return picked as Partial<T>;
}

function valueAt(state: State, path: readonly string[]): unknown {
  let value: unknown = state;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as State)[segment];
  }
  return value;
}

function rank(order: readonly string[], path: string): number {
  const index = order.indexOf(path.split('.')[0]!);
  return index === -1 ? order.length : index;
}

/**
 * The desired state to compare with a live object, ignored fields held at their live values
 * (`ignore:`), and the ignored fields whose config value differs (before: live, after: config).
 */
export function holdIgnored<T extends object>(desired: T, live: object, ignore: readonly string[]): { state: T; ignored: FieldChange[] } {
  if (ignore.length === 0) return { state: desired, ignored: [] };
  const state: State = { ...(desired as State) };
  const ignored: FieldChange[] = [];
  for (const field of ignore) {
    // A field the config leaves out is not managed anyway.
    if (!(field in live) || !(field in desired)) continue;
    const liveValue = (live as State)[field];
    if (!isDeepStrictEqual((desired as State)[field], liveValue)) ignored.push({ path: field, before: liveValue, after: (desired as State)[field] });
    state[field] = liveValue;
  }
  return { state: state as T, ignored };
}

/** `state` without the fields of `ignore`. */
export function omit(state: object, ignore: readonly string[] | undefined): State {
  if (ignore === undefined || ignore.length === 0) return state as State;
  return Object.fromEntries(Object.entries(state).filter(([key]) => !ignore.includes(key)));
}
