// What one query term adds to each tool, kept per term: a term's contribution depends on the
// term and the catalogue only, not on the rest of the query, so it is computed on the term's
// first search and a later search is one pass over a short typed array per term.
import { positionsIn } from './_sorted.ts';

/** What one term adds to the tools that match it, in tool order. */
export class TermContributions {
  readonly docs: Int32Array;
  readonly values: Float64Array;
  readonly #held: Float64Array | undefined;

  /**
   * @param docs The tools, ascending.
   * @param values What the term adds to each.
   * @param held Per tool, what the term adds where the tool's own text holds it, 0 where it does not (only part of a name word); none when left out.
   *
   * @example
   * ```ts
   * import { TermContributions } from './_term_cache.ts';
   *
   * const held = new Float64Array(2);
   * new TermContributions(Int32Array.of(2, 7), Float64Array.of(1.5, 0.5), Float64Array.of(1.5, 0)).heldFor(Int32Array.of(2, 7), held); // held: 1.5, 0
   * ```
   */
  constructor(docs: Int32Array, values: Float64Array, held?: Float64Array) {
    this.docs = docs;
    this.values = values;
    this.#held = held;
  }

  /**
   * The term's contribution to each of `tools` (ascending) whose own text holds the term, 0 for
   * the others (a partial name match only), into `into`: one forward walk of the postings.
   */
  heldFor(tools: Int32Array, into: Float64Array): void {
    const held = this.#held;
    if (!held) {
      into.fill(0, 0, tools.length);
      return;
    }
    const at = positionsIn(this.docs, tools);
    for (let j = 0; j < tools.length; j++) {
      const p = at[j]!;
      into[j] = p >= 0 ? held[p]! : 0;
    }
  }

  /** What the term adds where the tool's own text holds it (see the constructor), shared. */
  heldValues(): Float64Array | undefined {
    return this.#held;
  }

  get size(): number {
    return this.docs.length;
  }
}

/**
 * A term that matches no tool.
 *
 * @example
 * ```ts
 * import { EMPTY_CONTRIBUTIONS } from './_term_cache.ts';
 *
 * EMPTY_CONTRIBUTIONS.size; // 0
 * ```
 */
export const EMPTY_CONTRIBUTIONS = new TermContributions(new Int32Array(0), new Float64Array(0));

/**
 * Term contributions by term, computed on first use. Bounded by the entries it holds, so a
 * stream of odd queries cannot grow it without limit: when full it starts over.
 *
 * @example
 * ```ts
 * import { EMPTY_CONTRIBUTIONS, TermCache } from './_term_cache.ts';
 *
 * const cache = new TermCache(() => EMPTY_CONTRIBUTIONS);
 * cache.get('slack').size; // 0, computed once
 * ```
 */
export class TermCache {
  // About 20 MB at most (a doc id and two values per entry).
  static readonly MAX_ENTRIES = 1_000_000;
  readonly #compute: (term: string) => TermContributions;
  readonly #map = new Map<string, TermContributions>();
  #entries = 0;

  constructor(compute: (term: string) => TermContributions) {
    this.#compute = compute;
  }

  get(term: string): TermContributions {
    let hit = this.#map.get(term);
    if (hit) return hit;
    hit = this.#compute(term);
    if (this.#entries + hit.size > TermCache.MAX_ENTRIES) {
      this.#map.clear();
      this.#entries = 0;
    }
    this.#map.set(term, hit);
    this.#entries += hit.size + 1;
    return hit;
  }
}
