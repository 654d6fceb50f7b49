/** Levenshtein distance, small inputs only (config keys). */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(up + 1, (prev[j - 1] ?? 0) + 1, diag + cost);
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

/** The closest known name to `input`, when it is close enough to be a likely typo. */
export function didYouMean(input: string, known: readonly string[]): string | undefined {
  const lower = input.toLowerCase().replace(/-/g, '_');
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of known) {
    const score = distance(lower, candidate.toLowerCase());
    if (score < bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  const limit = Math.max(2, Math.floor(input.length / 3));
  return best !== undefined && bestScore <= limit ? best : undefined;
}
