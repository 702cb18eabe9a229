/**
 * The known name a mistyped one was most likely meant to be, shared by the
 * unknown SWITCHYARD_* variable warning and the unknown channel setting
 * refusal, so that both suggest names the same way.
 */

/** Levenshtein distance: insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The closest of `known` to `name`, when it is close enough to be a typo's
 * fix: past a third of the name's own part (`significantLength`), a
 * "closest" name is a guess. Case is ignored, so `promptCachekey` finds
 * `promptCacheKey` at distance 0.
 */
export function closestName(name: string, known: readonly string[], significantLength = name.length): string | undefined {
  const ranked = known.map((candidate) => ({ candidate, distance: editDistance(name.toLowerCase(), candidate.toLowerCase()) })).sort((a, b) => a.distance - b.distance);
  const best = ranked[0];
  return best && best.distance <= Math.max(2, Math.floor(significantLength / 3)) ? best.candidate : undefined;
}
