// "Did you mean": the known name nearest one that is not known, by edit distance, when it is
// near enough to be a slip (a transposition, a letter missed or added) rather than another word.

/** Levenshtein distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The candidate nearest `name` (case aside) within `most` edits, else undefined. */
export function nearest(name: string, candidates: Iterable<string>, most = 3): string | undefined {
  let best: string | undefined;
  let bestDistance = most + 1;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
