// YAML traps that produce a valid but unintended value, caught while the comments are still
// visible: `color: #0366d6` is an empty value followed by a comment, not a colour.
import { positionAt } from './positions.js';
import type { ConfigSource } from './sources.js';
import { forEachInOrder } from './structure.js';
import type { Diagnostic } from './types.js';
import { yaml } from './yamlLibrary.js';

/** Findings for values that YAML reads differently from how they look. */
export function checkYamlPitfalls(source: ConfigSource): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // A file whose key names are known and hold no `color` has nothing to find by walking it.
  if (source.simple !== undefined && !source.simple.keys.has('color')) return diagnostics;
  const { isPair, isScalar } = yaml();
  forEachInOrder(source.doc, (pair) => {
    if (!isPair(pair) || !isScalar(pair.key) || pair.key.value !== 'color' || !isScalar(pair.value)) return;
    const value = pair.value;
    const colour = /^([0-9a-fA-F]{3,8})\b/.exec(value.comment ?? '');
    if (value.value !== null || colour === null || pair.key.range === undefined || pair.key.range === null) return;
    diagnostics.push({
      severity: 'error',
      code: 'yaml.unquotedColor',
      summary: `\`color: #${colour[1]}\` is read as an empty value followed by a comment`,
      hint: `quote the colour: \`color: "#${colour[1]}"\``,
      location: positionAt(source, pair.key.range[0]),
    });
  });
  return diagnostics;
}
