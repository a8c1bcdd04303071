// "Did you mean …?" suggestions for misspelt keys, enum values, environment and variable names.

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest candidate to `input`, or undefined when none is close enough to be a plausible
 * typo: a case-insensitive match, an abbreviation of 3+ characters, or at most a third of the
 * input's length of edits (≥ 1).
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const lower = input.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const candidateLower = candidate.toLowerCase();
    // An abbreviation (`prod` for `production`) counts as a near miss.
    const distance = candidateLower === lower ? 0 : lower.length >= 3 && candidateLower.startsWith(lower) ? 0.5 : editDistance(lower, candidateLower);
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.floor(input.length / 3));
  return best.distance <= allowed ? best.candidate : undefined;
}

/** "did you mean `x`?" for the closest candidate, or undefined. */
export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const match = closest(input, candidates);
  return match === undefined ? undefined : `did you mean \`${match}\`?`;
}

/** `a`, `b` and `c` — a readable list of code-formatted names. */
export function listNames(names: readonly string[], conjunction = 'and'): string {
  const quoted = names.map((name) => `\`${name}\``);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}
