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
