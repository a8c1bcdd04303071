// YAML traps that produce a valid but unintended value, caught while the comments are still
// visible: `color: #0366d6` is an empty value followed by a comment, not a colour, and
// `name: Weekly #1 report` is `Weekly` followed by a comment.
import { positionAt } from './positions.js';
import { isSecretKey } from './secrets.js';
import type { ConfigSource } from './sources.js';
import { forEachInOrder } from './structure.js';
import type { Diagnostic } from './types.js';
import { yaml } from './yamlLibrary.js';

/** Findings for values that YAML reads differently from how they look. */
export function checkYamlPitfalls(source: ConfigSource): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // A file the fast path read, whose key names are known and hold no `color`, and in which no `#`
  // after a space is followed by more than a space, has nothing to find by walking it.
  if (source.fast !== undefined && !source.fast.keys.has('color') && !COMMENT_RIGHT_AFTER_HASH.test(source.text)) return diagnostics;
  const { isPair, isScalar } = yaml();
  // Keys and values of pairs are visited after their pair: a scalar not among them is a list item.
  const inPairs = new WeakSet<object>();
  forEachInOrder(source.doc, (node) => {
    if (isPair(node)) {
      if (isScalar(node.key)) inPairs.add(node.key);
      if (!isScalar(node.key) || !isScalar(node.value)) return;
      inPairs.add(node.value);
      if (node.key.value === 'color') unquotedColour(source, node.key, node.value, diagnostics);
      // A secret's value is never repeated in a message; checkSecrets reports the key.
      if (typeof node.key.value !== 'string' || !isSecretKey(node.key.value)) valueCutByComment(source, node.value, String(node.key.value), diagnostics);
    } else if (isScalar(node) && !inPairs.has(node) && isBlockItem(source.text, node.range)) {
      valueCutByComment(source, node, undefined, diagnostics);
    }
  });
  return diagnostics;
}

/** A `#` after a space or a tab and before anything but a space or a line end, as in `Weekly #1`. */
const COMMENT_RIGHT_AFTER_HASH = /[ \t]#[^ \t\r\n]/;

interface ScalarNode {
  value: unknown;
  comment?: string | null;
  type?: string;
  range?: [number, number, number] | null;
}

function unquotedColour(source: ConfigSource, key: ScalarNode, value: ScalarNode, diagnostics: Diagnostic[]): void {
  const colour = /^([0-9a-fA-F]{3,8})\b/.exec(value.comment ?? '');
  if (value.value !== null || colour === null || key.range === undefined || key.range === null) return;
  diagnostics.push({
    severity: 'error',
    code: 'yaml.unquotedColor',
    summary: `\`color: #${colour[1]}\` is read as an empty value followed by a comment`,
    hint: `quote the colour: \`color: "#${colour[1]}"\``,
    location: positionAt(source, key.range[0]),
  });
}

/**
 * A plain text value followed on its line by `#` and a character other than a space (`#1`,
 * `#finance`): YAML ends the value at ` #`, so `Weekly #1 report` is silently `Weekly`. Real
 * comments are written `# text`; `#word` right after text is almost always part of it. After a
 * number, a boolean or null (`8000 #was 7000`) nothing is cut, and quoting would change its type.
 */
function valueCutByComment(source: ConfigSource, value: ScalarNode, key: string | undefined, diagnostics: Diagnostic[]): void {
  if (value.type !== 'PLAIN' || typeof value.value !== 'string' || value.range === undefined || value.range === null) return;
  const [start, end] = value.range;
  if (end <= start) return; // an empty value: `color: #fff` above is the trap there
  const { text } = source;
  let at = end;
  while (text[at] === ' ' || text[at] === '\t') at += 1;
  if (text[at] !== '#' || at === end || !/^[^\s]/.test(text[at + 1] ?? '')) return;
  const lineEnd = text.slice(at).search(/\r?\n|$/) + at;
  const read = text.slice(start, end);
  const written = text.slice(start, lineEnd).trimEnd();
  diagnostics.push({
    severity: 'error',
    code: 'yaml.commentInValue',
    summary: `\`${written}\` is read as \`${read}\`: \` #\` starts a comment`,
    hint: `quote the whole value: \`${key === undefined ? '-' : `${key}:`} ${JSON.stringify(written)}\``,
    location: positionAt(source, at),
  });
}

/** Whether the scalar at `range` is written as a block list item (`- value`), not in a flow list. */
function isBlockItem(text: string, range: ScalarNode['range']): boolean {
  if (range === undefined || range === null) return false;
  let at = range[0] - 1;
  while (text[at] === ' ') at -= 1;
  return text[at] === '-';
}
