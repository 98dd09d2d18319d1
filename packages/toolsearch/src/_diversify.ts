// The coverage re-ordering of a list of requests, and the pick of the best candidates it and the
// feedback start from.
import type { TermContributions } from './_term_cache.ts';

/**
 * How many of the best tools the re-ordering reorders.
 *
 * @example
 * ```ts
 * import { DIVERSITY_POOL, TopScores } from './_diversify.ts';
 *
 * new TopScores(DIVERSITY_POOL);
 * ```
 */
export const DIVERSITY_POOL = 30;

/** Options of {@linkcode diversify}. */
export interface DiversifyOptions {
  /** What each query term adds to each tool (`heldFor`: 0 where the tool's own text does not hold it). */
  terms: readonly TermContributions[];
  /** What a covered term is still worth, 0 to 1. */
  discount: number;
  /** The best 30 tools by score, best first, when a pass over the scores found them already. */
  candidates?: readonly number[] | undefined;
}

/**
 * Re-orders the best candidates so the first results cover the query's different needs ("the
 * odds and the upcoming fixtures"): each pick discounts the terms earlier picks already cover.
 * Scores are rewritten only among the candidates, so the order below them is untouched.
 *
 * @param scores Every tool's score, changed in place.
 * @param options The query's terms and the discount.
 *
 * @example
 * ```ts
 * import { diversify } from './_diversify.ts';
 * import { TermContributions } from './_term_cache.ts';
 *
 * // Tools 0 and 1 both cover the first term; tool 2 covers the second: after the re-ordering it comes second.
 * const scores = Float64Array.of(3, 2.9, 2.5);
 * const first = new TermContributions(Int32Array.of(0, 1), Float64Array.of(3, 2.9), Float64Array.of(3, 2.9));
 * const second = new TermContributions(Int32Array.of(2), Float64Array.of(2.5), Float64Array.of(2.5));
 * diversify(scores, { terms: [first, second], discount: 0.5 }); // scores: 3, 2.5, 2.9
 * ```
 */
export function diversify(scores: Float64Array, options: DiversifyOptions): void {
  const { terms, discount } = options;
  const candidates = options.candidates ?? bestCandidates(scores, DIVERSITY_POOL);
  if (candidates.length < 3) return;
  const m = candidates.length;
  const k = terms.length;
  // Each candidate's gain if picked next: its score with every term at its current worth. A
  // term's worth is multiplied by the discount each time a pick covers it, and only the gains of
  // candidates holding that term change, so a pick updates the gains instead of recomputing them.
  const gains = Float64Array.from(candidates, (i) => scores[i]!);
  // What each term adds to each candidate, `contributions[c * k + t]`: the candidates in tool
  // order, so each term's postings are walked once, forward.
  const contributions = new Float64Array(m * k);
  const byTool = Int32Array.from(candidates.keys()).sort((x, y) => candidates[x]! - candidates[y]!);
  const docs = Int32Array.from(byTool, (c) => candidates[c]!);
  const held = new Float64Array(m);
  for (let t = 0; t < k; t++) {
    if (terms[t]!.size === 0) continue;
    terms[t]!.heldFor(docs, held);
    for (let j = 0; j < m; j++) contributions[byTool[j]! * k + t] = held[j]!;
  }
  const worth = new Float64Array(k).fill(1);
  const taken = new Uint8Array(m);
  const chosen: number[] = [];
  for (let pick = 0; pick < m; pick++) {
    let best = -1;
    let bestGain = -Infinity;
    for (let c = 0; c < m; c++) {
      if (!taken[c] && gains[c]! > bestGain) {
        best = c;
        bestGain = gains[c]!;
      }
    }
    taken[best] = 1;
    chosen.push(best);
    for (let t = 0; t < k; t++) {
      if (!(contributions[best * k + t]! > 0)) continue;
      const loss = worth[t]! * (1 - discount);
      worth[t]! *= discount;
      for (let c = 0; c < m; c++) if (!taken[c]) gains[c]! -= contributions[c * k + t]! * loss;
    }
  }
  // The candidates keep their band of scores, in the new order.
  const band = Float64Array.from(chosen, (c) => scores[candidates[c]!]!).sort();
  chosen.forEach((c, rank) => (scores[candidates[c]!] = band[m - 1 - rank]!));
}

/**
 * The indices of the `pool` highest positive scores, best first, ties in index order: one pass
 * with an insertion into a short sorted list, which a long query over a large catalogue rarely
 * needs once the list is full.
 *
 * @example
 * ```ts
 * import { bestCandidates } from './_diversify.ts';
 *
 * bestCandidates(Float64Array.of(0, 2, 5, 1), 2); // [2, 1]
 * ```
 */
export function bestCandidates(scores: Float64Array, pool: number): number[] {
  const top = new TopScores(pool);
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (score > top.floor) top.offer(i, score);
  }
  return top.indices();
}

/**
 * The `pool` highest positive scores offered, best first, ties in the order offered: an insertion
 * into a short sorted list, which a long query over a large catalogue rarely needs once the list
 * is full. A pass that goes over every tool anyway (the group lift) offers each as it goes.
 *
 * @example
 * ```ts
 * import { TopScores } from './_diversify.ts';
 *
 * const top = new TopScores(2);
 * [0, 2, 5, 1].forEach((score, i) => { if (score > top.floor) top.offer(i, score); });
 * top.indices(); // [2, 1]
 * ```
 */
export class TopScores {
  /** A score must be above this to enter (0 until the list is full). */
  floor = 0;
  readonly #index: Int32Array;
  readonly #value: Float64Array;
  #size = 0;

  constructor(pool: number) {
    this.#index = new Int32Array(pool);
    this.#value = new Float64Array(pool);
  }

  /** Offers tool `i`'s score, which must be above {@linkcode floor}. */
  offer(i: number, score: number): void {
    const pool = this.#index.length;
    const index = this.#index;
    const value = this.#value;
    let at = this.#size < pool ? this.#size++ : pool - 1;
    while (at > 0 && score > value[at - 1]!) {
      value[at] = value[at - 1]!;
      index[at] = index[at - 1]!;
      at--;
    }
    value[at] = score;
    index[at] = i;
    if (this.#size === pool) this.floor = value[pool - 1]!;
  }

  /** The tools kept, best first. */
  indices(): number[] {
    return Array.from(this.#index.subarray(0, this.#size));
  }
}
