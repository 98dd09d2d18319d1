/** Retrieval quality of one ranking against the relevant names. */
export interface RetrievalScores {
  recallAt5: number;
  ndcgAt10: number;
  mrrAt10: number;
}

/**
 * Recall@5 (share of the relevant tools in the first five), NDCG@10 (binary relevance) and
 * MRR@10 (reciprocal rank of the first relevant tool in the first ten) of one ranking.
 *
 * @param ranked Names, best first.
 * @param relevant The names that answer the query; at least one.
 * @returns The three scores, each 0 to 1.
 * @throws {RangeError} If `relevant` is empty (the scores would be undefined).
 *
 * @example
 * ```ts
 * retrievalScores(['a', 'x', 'b'], ['a', 'b']); // { recallAt5: 1, ndcgAt10: 0.92, mrrAt10: 1 }
 * ```
 */
export function retrievalScores(ranked: readonly string[], relevant: readonly string[]): RetrievalScores {
  if (relevant.length === 0) throw new RangeError('A query needs at least one relevant tool to be scored');
  const wanted = new Set(relevant);
  const top5 = ranked.slice(0, 5).filter((n) => wanted.has(n)).length;
  let dcg = 0;
  let mrr = 0;
  ranked.slice(0, 10).forEach((name, i) => {
    if (!wanted.has(name)) return;
    dcg += 1 / Math.log2(i + 2);
    if (mrr === 0) mrr = 1 / (i + 1);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(wanted.size, 10); i++) ideal += 1 / Math.log2(i + 2);
  return { recallAt5: top5 / wanted.size, ndcgAt10: dcg / ideal, mrrAt10: mrr };
}

/**
 * The mean of each score over queries.
 *
 * @param scores One entry per query.
 * @returns The means (0 for no queries).
 *
 * @example
 * ```ts
 * meanScores([{ recallAt5: 1, ndcgAt10: 1, mrrAt10: 1 }, { recallAt5: 0, ndcgAt10: 0, mrrAt10: 0 }]); // all 0.5
 * ```
 */
export function meanScores(scores: readonly RetrievalScores[]): RetrievalScores {
  const n = scores.length || 1;
  const sum = (key: keyof RetrievalScores) => scores.reduce((s, x) => s + x[key], 0) / n;
  return { recallAt5: sum('recallAt5'), ndcgAt10: sum('ndcgAt10'), mrrAt10: sum('mrrAt10') };
}

/** A mean difference with its bootstrap interval. */
export interface PairedInterval {
  /** Mean of `a[i] − b[i]`. */
  difference: number;
  /** Lower end of the 95 % interval. */
  low: number;
  /** Upper end of the 95 % interval. */
  high: number;
}

/**
 * A paired bootstrap of the mean difference of two per-query scores (the same queries scored by
 * two rankers): queries are drawn with replacement `resamples` times and the 2.5th and 97.5th
 * percentiles of the resampled mean differences are the interval. Seeded, so a run repeats.
 *
 * @param a Per-query scores of the first ranker.
 * @param b Per-query scores of the second, in the same query order.
 * @param options Resamples (default 2 000) and seed.
 * @returns The difference and its 95 % interval.
 * @throws {RangeError} If the lists differ in length or are empty.
 *
 * @example
 * ```ts
 * pairedBootstrap([1, 1, 0.5], [0.5, 1, 0.5]).difference; // 0.1667
 * ```
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  options: { resamples?: number; seed?: number } = {},
): PairedInterval {
  if (a.length !== b.length || a.length === 0)
    throw new RangeError(`pairedBootstrap needs two equally long, non-empty lists, got ${a.length} and ${b.length}`);
  const n = a.length;
  const diffs = a.map((x, i) => x - b[i]!);
  const difference = diffs.reduce((s, d) => s + d, 0) / n;
  const resamples = options.resamples ?? 2000;
  let state = (options.seed ?? 19) >>> 0;
  // mulberry32: small, seeded, good enough for resampling indices.
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += diffs[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))]!;
  return { difference, low: at(0.025), high: at(0.975) };
}
