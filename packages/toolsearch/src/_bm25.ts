// Okapi BM25 over weighted term lists, with an inverted index so a query touches only the
// documents that share a term with it (what keeps a search over 10 000 tools well under a
// millisecond).

/** One document: its terms, each with a weight (a name word may count three times a description word). */
export type WeightedTerms = ReadonlyMap<string, number>;

/** BM25's two constants. */
export interface Bm25Params {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalization, 0 (none) to 1 (full). */
  b: number;
}

/** A BM25 index over a fixed list of documents. */
export class Bm25 {
  readonly #postings = new Map<string, { docs: Int32Array; tfs: Float64Array }>();
  readonly #lengths: Float64Array;
  /** Per document: `k1 · (1 − b + b · length / average length)`, computed once. */
  readonly #norms: Float64Array;
  readonly #avgLength: number;
  readonly #params: Bm25Params;
  readonly size: number;

  constructor(docs: readonly WeightedTerms[], params: Bm25Params) {
    this.size = docs.length;
    this.#params = params;
    this.#lengths = new Float64Array(docs.length);
    const lists = new Map<string, { docs: number[]; tfs: number[] }>();
    let total = 0;
    docs.forEach((doc, i) => {
      let length = 0;
      for (const [term, tf] of doc) {
        length += tf;
        let list = lists.get(term);
        if (!list) lists.set(term, (list = { docs: [], tfs: [] }));
        list.docs.push(i);
        list.tfs.push(tf);
      }
      this.#lengths[i] = length;
      total += length;
    });
    this.#avgLength = docs.length ? total / docs.length || 1 : 1;
    this.#norms = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++)
      this.#norms[i] = params.k1 * (1 - params.b + (params.b * this.#lengths[i]!) / this.#avgLength);
    for (const [term, list] of lists)
      this.#postings.set(term, { docs: Int32Array.from(list.docs), tfs: Float64Array.from(list.tfs) });
  }

  /** A document's length: the sum of its terms' weighted frequencies. */
  length(doc: number): number {
    return this.#lengths[doc]!;
  }

  /** How many documents hold the term. */
  documentFrequency(term: string): number {
    return this.#postings.get(term)?.docs.length ?? 0;
  }

  /** BM25's inverse document frequency (the non-negative variant). */
  idf(term: string): number {
    const n = this.documentFrequency(term);
    return Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
  }

  /** Adds each document's score for the query terms into `scores`, times `weight`. */
  accumulate(queryTerms: readonly string[], scores: Float64Array, weight = 1): void {
    const k1 = this.#params.k1;
    const norms = this.#norms;
    for (const term of queryTerms) {
      const posting = this.#postings.get(term);
      if (!posting) continue;
      const factor = this.idf(term) * weight * (k1 + 1);
      const { docs, tfs } = posting;
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        const tf = tfs[j]!;
        scores[d]! += (factor * tf) / (tf + norms[d]!);
      }
    }
  }

  /** The BM25 score of a term that occurs `tf` times (weighted) in a document, given the term's idf. */
  scoreOf(tf: number, doc: number, idf: number): number {
    return tf > 0 ? (idf * tf * (this.#params.k1 + 1)) / (tf + this.#norms[doc]!) : 0;
  }

  /** The documents that hold the term and the term's weighted frequency in each (shared, do not change). */
  entries(term: string): { readonly docs: Int32Array; readonly tfs: Float64Array } | undefined {
    return this.#postings.get(term);
  }

  /** The documents that hold the term (shared, do not change). */
  postings(term: string): Int32Array | undefined {
    return this.#postings.get(term)?.docs;
  }
}

/** Options of {@linkcode addTerms}. */
export interface AddTermsOptions {
  /** What each occurrence adds. @default 1 */
  weight?: number;
  /** The first of `terms` added. @default 0 */
  from?: number;
  /** The end of the terms added (exclusive). @default terms.length */
  to?: number;
}

/**
 * Adds `weight` per occurrence of each term to a term-weight map.
 *
 * @param into The map, changed in place.
 * @param terms The terms, repeated as often as they occur.
 * @param options What each occurrence adds.
 *
 * @example
 * ```ts
 * import { addTerms } from './_bm25.ts';
 *
 * const doc = new Map<string, number>();
 * addTerms(doc, ['read', 'file', 'read'], { weight: 2 }); // doc: read → 4, file → 2
 * ```
 */
export function addTerms(into: Map<string, number>, terms: readonly string[], options: AddTermsOptions = {}): void {
  const weight = options.weight ?? 1;
  const end = Math.min(options.to ?? terms.length, terms.length);
  for (let i = options.from ?? 0; i < end; i++) {
    const term = terms[i]!;
    into.set(term, (into.get(term) ?? 0) + weight);
  }
}

/**
 * The array a scorer fills: the zeroed one its caller passed when it has a slot per tool, else a
 * new one.
 *
 * @example
 * ```ts
 * import { zeroedScores } from './_bm25.ts';
 *
 * zeroedScores(undefined, 3); // Float64Array [0, 0, 0]
 * ```
 */
export function zeroedScores(given: Float64Array | undefined, tools: number): Float64Array {
  return given?.length === tools ? given : new Float64Array(tools);
}
