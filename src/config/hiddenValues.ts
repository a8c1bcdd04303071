// Values that came from outside the files are not repeated in findings: a process environment
// variable (`${env.NAME}`) may hold anything, a token put in the wrong variable included, and a
// variable whose name says it is a secret (`${var.apiToken}`) holds one. Findings that quote such
// a value name the reference it came from instead, so nothing of it reaches a terminal, a CI log
// or a pull-request annotation.
import type { Interpolation, Reference, VariableValue } from './interpolate.js';
import { isSecretKey } from './secrets.js';
import type { Diagnostic } from './types.js';

/** Value → the reference it came from, as written (e.g. `${env.SLACKID}`). */
export type HiddenValues = Map<string, string>;

/** Shorter values are hidden only where a finding quotes them whole: inside other text they would hide ordinary words. */
const PARTIAL_MIN = 4;

/**
 * Records the values of `interpolation`'s references that must not be printed: every process
 * environment variable's, and those of variables named like secrets.
 */
export function collectHiddenValues(
  hidden: HiddenValues,
  interpolation: Interpolation,
  processEnv: Readonly<Record<string, string | undefined>>,
  variables: Readonly<Record<string, VariableValue>> = {},
): void {
  for (const { references } of interpolation.substituted.values()) {
    for (const reference of references) {
      const value = valueOf(reference, processEnv, variables);
      if (value !== undefined && value !== '' && !hidden.has(value)) hidden.set(value, reference.text);
    }
  }
}

function valueOf(reference: Reference, processEnv: Readonly<Record<string, string | undefined>>, variables: Readonly<Record<string, VariableValue>>): string | undefined {
  if (reference.namespace === 'env') return processEnv[reference.name];
  if (!isSecretKey(reference.name) || !Object.prototype.hasOwnProperty.call(variables, reference.name)) return undefined;
  const value = variables[reference.name];
  return value === null || value === undefined ? undefined : String(value);
}

/**
 * `diagnostic` with every quoted hidden value (`` `…` `` or `"…"`) in its texts replaced: a
 * quote of the whole value by "the value of `${env.NAME}`" (at the start of a sentence) or "in
 * `${env.NAME}`" ("unknown timezone in `${env.TZ}`"), a quote that holds it among other text by
 * that text with the reference in the value's place. On a finding whose source line (`sourceLine`)
 * holds the reference, a quoted piece of its value (the host of a `${env.URL}`) is "part of
 * `${env.URL}`", and a quote that shares a piece with it "a text derived from `${env.URL}`"
 * (letter case aside: a URL's host is quoted lower-cased).
 */
export function hideValues(diagnostic: Diagnostic, hidden: HiddenValues, sourceLine = ''): Diagnostic {
  if (hidden.size === 0) return diagnostic;
  const hide = (text: string | undefined) =>
    text === undefined ? undefined : text.replace(QUOTED, (quoted, offset: number) => hideQuoted(quoted, offset === 0, hidden, sourceLine));
  const summary = hide(diagnostic.summary)!;
  const detail = hide(diagnostic.detail);
  const hint = hide(diagnostic.hint);
  if (summary === diagnostic.summary && detail === diagnostic.detail && hint === diagnostic.hint) return diagnostic;
  return { ...diagnostic, summary, ...(detail === undefined ? {} : { detail }), ...(hint === undefined ? {} : { hint }) };
}

const QUOTED = /`[^`\n]*`|"(?:[^"\\\n]|\\.)*"/g;

function hideQuoted(quoted: string, opensSentence: boolean, hidden: HiddenValues, sourceLine: string): string {
  const json = quoted.startsWith('"');
  let inner = quoted.slice(1, -1);
  if (json) {
    try {
      inner = JSON.parse(quoted) as string;
    } catch {
      // Not a JSON string: read it as written.
    }
  }
  const whole = hidden.get(inner);
  if (whole !== undefined) return opensSentence ? `the value of \`${whole}\`` : `in \`${whole}\``;
  let replaced = inner;
  for (const [value, reference] of [...hidden].sort(([a], [b]) => b.length - a.length)) {
    if (value.length >= PARTIAL_MIN && replaced.includes(value)) replaced = replaced.split(value).join(reference);
  }
  if (replaced === inner) {
    for (const [value, reference] of hidden) {
      if (!sourceLine.includes(reference)) continue;
      const piece = inner.toLowerCase();
      const whole = value.toLowerCase();
      if (piece.length >= PARTIAL_MIN && whole.includes(piece)) return `part of \`${reference}\``;
      if (sharesPiece(piece, whole)) return `a text derived from \`${reference}\``;
    }
    return quoted;
  }
  return json ? JSON.stringify(replaced) : `\`${replaced}\``;
}

/** Characters two texts must have in a row in common for one to count as derived from the other. */
const DERIVED_MIN = 8;

function sharesPiece(text: string, value: string): boolean {
  if (value.length < DERIVED_MIN) return false;
  for (let start = 0; start + DERIVED_MIN <= value.length; start++) {
    if (text.includes(value.slice(start, start + DERIVED_MIN))) return true;
  }
  return false;
}
