// Word pairs in order ("pull request", "knowledge graph") as their own BM25: a phrase is evidence
// its two words apart are not, and kept apart so the pairs do not change the length of the word
// documents. Not indexed: a pair's postings are found on its first search among the tools that
// hold both its words in one field, and kept (see `_lazy_bm25.ts`).
import { type KeyPostings, LazyBm25 } from './_lazy_bm25.ts';
import { intersection } from './_sorted.ts';
import type { AnalyzedTool } from './ranker_types.ts';

/**
 * Pairs taken from a description at most: its opening says what the tool does; the rest (usage
 * notes, examples) adds pairs that match little.
 */
export const MAX_DESCRIPTION_PAIRS = 24;

/** Options of {@linkcode PhraseIndex}. */
export interface PhraseIndexOptions {
  /** What a pair counts in each field. */
  weights: { name: number; hint: number; description: number };
  /** BM25's constants. */
  k1: number;
  b: number;
  /**
   * The tools whose name (words or compounds), hint or description holds a term, ascending: a
   * superset of those that hold a pair of it in that field.
   */
  holders: (field: PairField, term: string) => ArrayLike<number> | undefined;
}

/** The fields word pairs are taken from. */
export type PairField = 'name' | 'hint' | 'description';

const FIELDS: readonly PairField[] = ['name', 'hint', 'description'];

/**
 * BM25 over the adjacent pairs of each tool's name words, hint and description (its first
 * {@linkcode MAX_DESCRIPTION_PAIRS} pairs), all stemmed; a pair is `"first second"`.
 *
 * @example
 * ```ts
 * import { PhraseIndex } from './_phrase_index.ts';
 * import { analyzeTool } from './tool_index.ts';
 *
 * const tools = [analyzeTool({ name: 'create_review', description: 'Review a pull request' })];
 * const index = new PhraseIndex(tools, { weights: { name: 3, hint: 2, description: 1 }, k1: 2, b: 0.75, holders: () => [0] });
 * const scores = new Float64Array(1);
 * index.accumulate(['pull request'], scores, 0.25); // scores[0] > 0
 * ```
 */
export class PhraseIndex {
  /** Tools whose terms a search read, over the index's life: the work pairs cost. */
  examined = 0;
  readonly #bm25: LazyBm25;
  readonly #tools: readonly AnalyzedTool[];
  readonly #weights: PhraseIndexOptions['weights'];
  readonly #holders: PhraseIndexOptions['holders'];

  constructor(tools: readonly AnalyzedTool[], options: PhraseIndexOptions) {
    const { weights, holders } = options;
    this.#tools = tools;
    this.#weights = weights;
    this.#holders = holders;
    const pairs = (n: number) => Math.max(0, n - 1);
    const lengths = Float64Array.from(
      tools,
      (t) =>
        weights.name * pairs(t.name.stems.length) +
        weights.hint * pairs(t.hint.length) +
        weights.description * pairs(Math.min(t.description.length, MAX_DESCRIPTION_PAIRS + 1)),
    );
    this.#bm25 = new LazyBm25(lengths, options, (key) => this.#postings(key));
  }

  /** Adds each tool's score for the pairs into `scores`, times `weight`. */
  accumulate(pairs: Iterable<string>, scores: Float64Array, weight: number): void {
    this.#bm25.accumulate(pairs, scores, weight);
  }

  /** The tools that hold the pair, and its weighted frequency in each. */
  #postings(key: string): KeyPostings {
    const space = key.indexOf(' ');
    if (space < 0) return NO_POSTINGS;
    const first = key.slice(0, space);
    const second = key.slice(space + 1);
    let docs: number[] = [];
    let tfs: number[] = [];
    // Only a tool that holds both words in one field can hold the pair there: per field, the two
    // words' postings are intersected (both ascending), and only that field of those tools is read.
    for (const field of FIELDS) {
      const a = this.#holders(field, first);
      const b = a && this.#holders(field, second);
      if (!b) continue;
      const candidates = intersection(a, b);
      this.examined += candidates.length;
      const weight = this.#weights[field];
      const found: number[] = [];
      const counts: number[] = [];
      for (const i of candidates) {
        const t = this.#tools[i]!;
        const n =
          field === 'name'
            ? pairsIn(t.name.stems, t.name.stems.length, first, second)
            : field === 'hint'
              ? pairsIn(t.hint, t.hint.length, first, second)
              : pairsIn(t.description, MAX_DESCRIPTION_PAIRS + 1, first, second);
        if (n === 0) continue;
        found.push(i);
        counts.push(n * weight);
      }
      if (found.length === 0) continue;
      if (docs.length === 0) {
        docs = found;
        tfs = counts;
      } else [docs, tfs] = merged(docs, tfs, found, counts);
    }
    return { docs, tfs };
  }
}

const NO_POSTINGS: KeyPostings = { docs: [], tfs: [] };

/** Two ascending postings as one: a tool in both has the sum of its frequencies, the first's added first. */
function merged(docs: number[], tfs: number[], more: number[], moreTfs: number[]): [number[], number[]] {
  const outDocs: number[] = [];
  const outTfs: number[] = [];
  let i = 0;
  let j = 0;
  while (i < docs.length || j < more.length) {
    const x = i < docs.length ? docs[i]! : Infinity;
    const y = j < more.length ? more[j]! : Infinity;
    outDocs.push(Math.min(x, y));
    outTfs.push(x === y ? tfs[i++]! + moreTfs[j++]! : x < y ? tfs[i++]! : moreTfs[j++]!);
  }
  return [outDocs, outTfs];
}

/** How often `first second` stands in the first `end` terms. */
function pairsIn(terms: readonly string[], end: number, first: string, second: string): number {
  let n = 0;
  const last = Math.min(end, terms.length);
  for (let i = 1; i < last; i++) if (terms[i] === second && terms[i - 1] === first) n++;
  return n;
}
