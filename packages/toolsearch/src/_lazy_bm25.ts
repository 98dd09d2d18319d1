// BM25 over a view of a catalogue that is never indexed whole: a key's postings are found on the
// key's first search, among the few tools that can hold it, and kept. The word pairs and the
// words as written are such views: an index of either over 10 000 tools took 0.1–0.3 s, paid
// by the first search of every catalogue, for the handful of keys a session searches.
import { EMPTY_CONTRIBUTIONS, TermCache, TermContributions } from './_term_cache.ts';
import type { Bm25Params } from './_bm25.ts';

/** The tools that hold a key, ascending, and the key's weighted frequency in each. */
export interface KeyPostings {
  readonly docs: ArrayLike<number>;
  readonly tfs: ArrayLike<number>;
}

/**
 * BM25 whose postings are computed per key on first use.
 *
 * @example
 * ```ts
 * import { LazyBm25 } from './_lazy_bm25.ts';
 *
 * const docs = [['pull request', 'open pull'], ['pull data']];
 * const index = new LazyBm25(Float64Array.from(docs, (d) => d.length), { k1: 2, b: 0.75 }, (key) => {
 *   const hits = docs.flatMap((d, i) => (d.includes(key) ? [i] : []));
 *   return { docs: hits, tfs: hits.map(() => 1) };
 * });
 * index.get('pull request').docs; // Int32Array [0]
 * ```
 */
export class LazyBm25 {
  readonly #norms: Float64Array;
  readonly #size: number;
  readonly #k1: number;
  readonly #cache: TermCache;
  readonly #postings: (key: string) => KeyPostings;

  /**
   * @param lengths Each document's length (the sum of its keys' weighted frequencies).
   * @param params BM25's constants.
   * @param postings The documents that hold a key, with its frequency in each.
   */
  constructor(lengths: Float64Array, params: Bm25Params, postings: (key: string) => KeyPostings) {
    this.#size = lengths.length;
    this.#k1 = params.k1;
    let total = 0;
    for (let i = 0; i < lengths.length; i++) total += lengths[i]!;
    // As `Bm25` computes them, so the scores are the same as an index's.
    const avg = lengths.length ? total / lengths.length || 1 : 1;
    this.#norms = Float64Array.from(lengths, (length) => params.k1 * (1 - params.b + (params.b * length) / avg));
    this.#postings = postings;
    this.#cache = new TermCache((key) => this.#compute(postings(key)));
  }

  /** What the key adds to each document that holds it (BM25, unweighted). */
  get(key: string): TermContributions {
    return this.#cache.get(key);
  }

  /** Adds each document's score for the keys into `scores`, times `weight`. */
  accumulate(keys: Iterable<string>, scores: Float64Array, weight: number): void {
    for (const key of keys) {
      const { docs, values } = this.#cache.get(key);
      for (let j = 0; j < docs.length; j++) scores[docs[j]!]! += weight * values[j]!;
    }
  }

  /**
   * Adds `weight` × the key's BM25 into `into.values`, whose tools `into.docs` (ascending) hold
   * every tool that holds the key: for a key searched with another that is kept, so it needs no
   * entry of its own.
   */
  addTo(
    key: string,
    into: { readonly docs: Int32Array; readonly values: Float64Array; readonly weight: number },
  ): void {
    const { docs, tfs } = this.#postings(key);
    const n = docs.length;
    if (n === 0) return;
    const idf = Math.log(1 + (this.#size - n + 0.5) / (n + 0.5));
    const k1 = this.#k1;
    let at = 0;
    for (let j = 0; j < n; j++) {
      const d = docs[j]!;
      const tf = tfs[j]!;
      while (at < into.docs.length && into.docs[at]! < d) at++;
      if (into.docs[at] !== d || !(tf > 0)) continue;
      into.values[at]! += into.weight * ((idf * tf * (k1 + 1)) / (tf + this.#norms[d]!));
    }
  }

  #compute({ docs, tfs }: KeyPostings): TermContributions {
    const n = docs.length;
    if (n === 0) return EMPTY_CONTRIBUTIONS;
    const idf = Math.log(1 + (this.#size - n + 0.5) / (n + 0.5));
    const k1 = this.#k1;
    const norms = this.#norms;
    const values = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      const tf = tfs[j]!;
      values[j] = tf > 0 ? (idf * tf * (k1 + 1)) / (tf + norms[docs[j]!]!) : 0;
    }
    // Postings already typed (a stem's, shared by its words as written) are kept, not copied.
    return new TermContributions(docs instanceof Int32Array ? docs : Int32Array.from(docs), values);
  }
}
