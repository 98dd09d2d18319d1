// The words as written, unstemmed, as their own BM25 over the same fields and weights as the
// stemmed one. Stemming merges forms that say different things: "stocks" (shares) and "stock
// footage", "pull requests" (a list) and "pull request" (one); a tool that holds the query's own
// form gains a little over one that holds only its stem. Not indexed: a word's postings are
// derived on its first search from the stemmed postings of its stem (see `_lazy_bm25.ts`).
import { stem } from './_analyze.ts';
import { type KeyPostings, LazyBm25 } from './_lazy_bm25.ts';
import type { AnalyzedTool } from './ranker_types.ts';

const NO_POSTINGS: KeyPostings = { docs: [], tfs: [] };

/** A span of one field's terms and the words they were stemmed from, with its weight. */
interface FieldSpan {
  terms: readonly string[];
  words: readonly string[];
  weight: number;
  termsFrom?: number;
  termsEnd?: number;
  wordsFrom?: number;
  wordsEnd?: number;
}

/** Options of {@linkcode SurfaceIndex}. */
export interface SurfaceIndexOptions {
  /** What a word counts in each field. */
  weights: { name: number; hint: number; description: number; descriptionRest: number; parameters: number };
  /** BM25's constants. */
  k1: number;
  b: number;
  /**
   * The stemmed index's postings of a term: the tools whose name, hint, description or
   * parameters hold it, ascending, with its weighted frequency in each (`weights` per occurrence,
   * camelCase compounds included).
   */
  stemmed: (term: string) => { readonly docs: ArrayLike<number>; readonly tfs: ArrayLike<number> } | undefined;
}

/**
 * Where the tools' stemmed terms are not their words as written, for one stem: a word that
 * stemming changed (`requests` → request) or a camelCase compound, which only the stemmed terms
 * hold. A stem's frequency as written is its stemmed frequency less these; in tool order.
 */
interface Variants {
  docs: number[];
  /** The word as written, or undefined for a compound. */
  words: (string | undefined)[];
  weights: number[];
}

/**
 * BM25 over each tool's words as written (lower-case, not stemmed): name words, hint,
 * description and parameters.
 *
 * @example
 * ```ts
 * import { Bm25 } from './_bm25.ts';
 * import { SurfaceIndex } from './_surface_index.ts';
 * import { analyzeTool } from './tool_index.ts';
 *
 * const tools = [analyzeTool({ name: 'stock_quote', description: 'Quotes of stocks' })];
 * const weights = { name: 3, hint: 2, description: 1, descriptionRest: 0.5, parameters: 0.5 };
 * const stemmed = new Bm25([new Map([['stock', 4], ['quot', 4]])], { k1: 2, b: 0.75 });
 * const index = new SurfaceIndex(tools, { weights, k1: 2, b: 0.75, stemmed: (term) => stemmed.entries(term) });
 * const scores = new Float64Array(1);
 * index.accumulate(['stocks'], scores, 0.25); // scores[0] > 0
 * ```
 */
export class SurfaceIndex {
  /** Postings a search walked, over the index's life: the work the words as written cost. */
  examined = 0;
  readonly #bm25: LazyBm25;
  /** By stem: the tools where it does not stand as written. */
  readonly #variants = new Map<string, Variants>();

  readonly #stemmed: SurfaceIndexOptions['stemmed'];

  constructor(tools: readonly AnalyzedTool[], options: SurfaceIndexOptions) {
    const { weights: w, stemmed } = options;
    this.#stemmed = stemmed;
    const lengths = new Float64Array(tools.length);
    tools.forEach((t, i) => {
      const lead = t.descriptionLead;
      const described = t.words.description.length;
      lengths[i] =
        w.name * t.name.words.length +
        w.hint * t.words.hint.length +
        w.description * lead.words +
        w.descriptionRest * (described - lead.words) +
        w.parameters * t.words.parameters.length;
      this.#addVariants(i, { terms: t.name.stems, words: t.name.words, weight: w.name });
      for (const compound of t.name.compounds) this.#add(compound, i, undefined, w.name);
      this.#addVariants(i, { terms: t.hint, words: t.words.hint, weight: w.hint });
      // The first sentence and the rest were analyzed apart, each its compounds then its stems.
      const d = t.description;
      const words = t.words.description;
      this.#addVariants(i, { terms: d, words, weight: w.description, termsEnd: lead.terms, wordsEnd: lead.words });
      const rest = { terms: d, words, weight: w.descriptionRest, termsFrom: lead.terms, wordsFrom: lead.words };
      this.#addVariants(i, rest);
      this.#addVariants(i, { terms: t.parameters, words: t.words.parameters, weight: w.parameters });
    });
    this.#bm25 = new LazyBm25(lengths, options, (word) => this.#postings(word));
  }

  /**
   * Adds `weight` × what a word as written adds into `into.values`, whose tools `into.docs` hold
   * every tool that holds the word's stem (a term's contributions), not kept apart.
   */
  addTo(
    word: string,
    into: { readonly docs: Int32Array; readonly values: Float64Array; readonly weight: number },
  ): void {
    this.#bm25.addTo(word, into);
  }

  /** Adds each tool's score for the words into `scores`, times `weight`. */
  accumulate(words: Iterable<string>, scores: Float64Array, weight: number): void {
    this.#bm25.accumulate(words, scores, weight);
  }

  /** The tools that hold the word as written, and its weighted frequency in each. */
  #postings(word: string): KeyPostings {
    const term = stem(word);
    const variants = this.#variants.get(term);
    if (word !== term) return this.#asVariant(word, variants);
    // The word is its own stem: its frequency is the stem's, less the stem's other forms.
    const entries = this.#stemmed(term);
    if (!entries) return NO_POSTINGS;
    this.examined += entries.docs.length + (variants?.docs.length ?? 0);
    // Where no tool writes the stem another way, the stem's postings are the word's: shared.
    if (!variants) return entries;
    const docs = new Int32Array(entries.docs.length);
    const tfs = new Float64Array(entries.docs.length);
    let n = 0;
    let k = 0;
    for (let j = 0; j < entries.docs.length; j++) {
      const d = entries.docs[j]!;
      const stemTf = entries.tfs[j]!;
      let tf = stemTf;
      while (k < variants.docs.length && variants.docs[k]! < d) k++;
      for (; k < variants.docs.length && variants.docs[k] === d; k++) tf -= variants.weights[k]!;
      // All of its forms here were others (or a compound): the word itself is not written.
      if (!(tf > 1e-9 * stemTf)) continue;
      docs[n] = d;
      tfs[n++] = tf;
    }
    return { docs: docs.subarray(0, n), tfs: tfs.subarray(0, n) };
  }

  /** A word stemming changes stands where its stem's variants hold it. */
  #asVariant(word: string, variants: Variants | undefined): KeyPostings {
    if (!variants) return NO_POSTINGS;
    const docs: number[] = [];
    const tfs: number[] = [];
    this.examined += variants.docs.length;
    for (let k = 0; k < variants.docs.length; k++) {
      if (variants.words[k] !== word) continue;
      const d = variants.docs[k]!;
      if (docs.length && docs[docs.length - 1] === d) tfs[tfs.length - 1]! += variants.weights[k]!;
      else {
        docs.push(d);
        tfs.push(variants.weights[k]!);
      }
    }
    return { docs, tfs };
  }

  /**
   * A field's variants: its `terms` (from `termsFrom` to `termsEnd`) are its camelCase compounds
   * followed by the stems of its `words` (from `wordsFrom` to `wordsEnd`), as `termsAndWords`
   * makes them, so the compounds are its first terms.
   */
  #addVariants(doc: number, field: FieldSpan): void {
    const { terms, words, weight } = field;
    const termsFrom = field.termsFrom ?? 0;
    const wordsFrom = field.wordsFrom ?? 0;
    const termsEnd = field.termsEnd ?? terms.length;
    const wordsEnd = field.wordsEnd ?? words.length;
    const offset = termsEnd - termsFrom - (wordsEnd - wordsFrom);
    for (let i = 0; i < offset; i++) this.#add(terms[termsFrom + i]!, doc, undefined, weight);
    for (let i = wordsFrom; i < wordsEnd; i++) {
      const term = terms[termsFrom + offset + (i - wordsFrom)]!;
      // `stem` returns the word itself when it changes nothing: most words are one comparison.
      if (term !== words[i]) this.#add(term, doc, words[i], weight);
    }
  }

  #add(term: string, doc: number, word: string | undefined, weight: number): void {
    let v = this.#variants.get(term);
    if (!v) this.#variants.set(term, (v = { docs: [], words: [], weights: [] }));
    v.docs.push(doc);
    v.words.push(word);
    v.weights.push(weight);
  }
}
