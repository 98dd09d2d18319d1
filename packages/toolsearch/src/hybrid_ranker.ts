import type { AnalyzedQuery, AsyncToolRanker, ToolRanker } from './ranker_types.ts';

/** Options of {@linkcode hybridRanker}. */
export interface HybridRankerOptions {
  /** Reciprocal rank fusion's constant: higher flattens the difference between ranks. @default 60 */
  k?: number;
  /** One weight per ranker. @default all 1 */
  weights?: readonly number[];
  /** Only this many of each ranker's best count (the rest add nothing). @default 100 */
  depth?: number;
}

/**
 * Fuses rankers by reciprocal rank fusion: a tool scores `Σ weight / (k + rank)` over the rankers
 * that rank it in their first `depth`. The usual pairing is the lexical ranker (exact words,
 * names) with an embedding ranker (synonyms, paraphrase).
 *
 * @param rankers Two or more rankers, synchronous or not.
 * @param options The fusion constant, weights and depth.
 * @returns An asynchronous ranker.
 * @throws {TypeError} If fewer than two rankers are given, or the weights do not match them.
 *
 * @example
 * ```ts
 * import { createToolIndex, embeddingRanker, hybridRanker, lexicalRanker, type EmbedFunction, type SearchableTool } from '@toolshed/toolsearch';
 * declare const embed: EmbedFunction;
 * declare const tools: SearchableTool[];
 *
 * const ranker = hybridRanker([lexicalRanker(), embeddingRanker({ embed })], { weights: [1, 1] });
 * const hits = await createToolIndex(tools, { ranker }).search('post to a channel');
 * ```
 */
export function hybridRanker(
  rankers: readonly (ToolRanker | AsyncToolRanker)[],
  options: HybridRankerOptions = {},
): AsyncToolRanker {
  if (!Array.isArray(rankers) || rankers.length < 2)
    throw new TypeError(
      `hybridRanker fuses two or more rankers, got ${Array.isArray(rankers) ? rankers.length : typeof rankers}`,
    );
  const weights = options.weights ?? rankers.map(() => 1);
  if (weights.length !== rankers.length)
    throw new TypeError(
      `hybridRanker got ${weights.length} weights for ${rankers.length} rankers; give one weight per ranker`,
    );
  const k = options.k ?? 60;
  const depth = options.depth ?? 100;
  return {
    name: `hybrid(${rankers.map((r) => r.name).join('+')})`,
    async: true,
    prepare(tools) {
      const scorers = rankers.map((r) => r.prepare(tools));
      return async (query: AnalyzedQuery) => {
        const all = await Promise.all(scorers.map((score) => score(query)));
        const fused = new Float64Array(tools.length);
        all.forEach((scores, r) => {
          const ranked: number[] = [];
          for (let i = 0; i < tools.length; i++) if ((scores[i] ?? 0) > 0) ranked.push(i);
          ranked.sort((a, b) => scores[b]! - scores[a]!);
          ranked.slice(0, depth).forEach((i, rank) => (fused[i]! += weights[r]! / (k + rank + 1)));
        });
        return fused;
      };
    },
  };
}
