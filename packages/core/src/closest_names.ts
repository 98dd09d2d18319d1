/**
 * The names closest to `name` by edit distance (case-insensitive), for "did you mean" hints.
 *
 * @param name What was asked for.
 * @param candidates What exists.
 * @param options `max` results (default 3); `maxDistance` relative to the name's length (default 0.5).
 * @returns Up to `max` candidates, closest first.
 *
 * @example
 * ```ts
 * closestNames('Reed', ['Read', 'Edit', 'Write']); // ['Read']
 * ```
 */
export function closestNames(name: string, candidates: Iterable<string>, options: { max?: number; maxDistance?: number } = {}): string[] {
  const max = options.max ?? 3;
  const limit = Math.max(2, Math.ceil(name.length * (options.maxDistance ?? 0.5)));
  const lower = name.toLowerCase();
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    const distance = c.includes(lower) || lower.includes(c) ? Math.abs(c.length - lower.length) / 2 : levenshtein(lower, c);
    if (distance <= limit) scored.push({ candidate, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, max).map((s) => s.candidate);
}

// Written here rather than pulled in: twenty lines, and core keeps zod as its only dependency.
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
