// The tool's group (MCP server, `family__tool` prefix) as one document: a query about "odds"
// lifts every tool of the betting API a little, not only the one that says "odds".
import type { Bm25Params } from './_bm25.ts';
import type { TopScores } from './_diversify.ts';
import { type KeyPostings, LazyBm25 } from './_lazy_bm25.ts';
import type { AnalyzedTool } from './ranker_types.ts';

/** Options of {@linkcode GroupIndex}. */
export interface GroupIndexOptions {
  /** BM25's constants. */
  params: Bm25Params;
  /** A tool's document length (the sum of its terms' weighted frequencies). */
  lengthOf: (tool: number) => number;
  /** The tools that hold a term, ascending, and its weighted frequency in each. */
  postings: (term: string) => { readonly docs: ArrayLike<number>; readonly tfs: ArrayLike<number> } | undefined;
}

const NO_POSTINGS: KeyPostings = { docs: [], tfs: [] };

/** Options of {@linkcode GroupIndex.lift}. */
export interface GroupLiftOptions {
  /** What the group match counts. */
  weight: number;
  /** Where a lift that passes over every tool offers their scores (the re-ordering's candidates). */
  top?: TopScores | undefined;
}

/**
 * The groups of a catalogue, each searched as one document (the sum of its tools' documents),
 * and which tools each holds.
 *
 * @example
 * ```ts
 * import { Bm25 } from './_bm25.ts';
 * import { GroupIndex } from './_groups.ts';
 * import { analyzeTool } from './tool_index.ts';
 *
 * const tools = ['Betting__odds', 'Betting__events', 'Concerts__events'].map((name) => analyzeTool({ name, description: '' }));
 * const bm25 = new Bm25([new Map([['odd', 3]]), new Map([['event', 3]]), new Map([['event', 3]])], { k1: 2, b: 0.75 });
 * const groups = new GroupIndex(tools, {
 *   params: { k1: 2, b: 0.75 },
 *   lengthOf: (i) => bm25.length(i),
 *   postings: (term) => bm25.entries(term),
 * });
 * const scores = Float64Array.of(0, 1, 1);
 * groups.lift(['odd', 'event'], scores, { weight: 0.5 }); // the Betting events tool gains the most
 * ```
 */
export class GroupIndex {
  /** How many groups; as many as tools when no two share one. */
  readonly size: number;
  /** Each tool's group. */
  readonly groupOf: Int32Array;
  /** Tools a lift visited, over the index's life. */
  visited = 0;
  /** The tools of group `g` are `#members[#starts[g] … #starts[g + 1]]`, ascending. */
  readonly #starts: Int32Array;
  readonly #members: Int32Array;
  /** The lift of each group, reused by every query. */
  readonly #lifts: Float64Array;
  /** What a term adds to each group that holds it (BM25 over the groups), kept per term. */
  readonly #terms: LazyBm25;
  readonly #postings: GroupIndexOptions['postings'];
  /** A term's frequency per group while its postings are summed, and which groups hold it (cleared between terms). */
  readonly #scratch: Float64Array;
  readonly #seen: Uint8Array;

  constructor(tools: readonly AnalyzedTool[], options: GroupIndexOptions) {
    const ids = new Map<string, number>();
    this.groupOf = Int32Array.from(tools, (t) => {
      let id = ids.get(t.group);
      if (id === undefined) ids.set(t.group, (id = ids.size));
      return id;
    });
    this.size = ids.size;
    const counts = new Int32Array(this.size + 1);
    for (const g of this.groupOf) counts[g + 1]!++;
    for (let g = 0; g < this.size; g++) counts[g + 1]! += counts[g]!;
    this.#starts = counts;
    this.#members = new Int32Array(tools.length);
    const next = counts.slice(0, this.size);
    for (let i = 0; i < tools.length; i++) this.#members[next[this.groupOf[i]!]!++] = i;
    // A group's document is the sum of its tools': its length theirs, a term's frequency theirs,
    // found per term on its first search from the tools' postings, so no group document is built.
    const lengths = new Float64Array(this.size);
    for (let g = 0; g < this.size; g++)
      for (let j = counts[g]!; j < counts[g + 1]!; j++) lengths[g]! += options.lengthOf(this.#members[j]!);
    this.#scratch = new Float64Array(this.size);
    this.#seen = new Uint8Array(this.size);
    this.#postings = options.postings;
    this.#terms = new LazyBm25(lengths, options.params, (term) => this.#groupPostings(term));
    this.#lifts = new Float64Array(this.size);
  }

  /** The groups that hold a term, ascending, and its frequency in each: the sum of their tools'. */
  #groupPostings(term: string): KeyPostings {
    const entries = this.#postings(term);
    if (!entries) return NO_POSTINGS;
    const scratch = this.#scratch;
    const seen = this.#seen;
    const touched: number[] = [];
    for (let j = 0; j < entries.docs.length; j++) {
      const g = this.groupOf[entries.docs[j]!]!;
      if (!seen[g]) {
        seen[g] = 1;
        touched.push(g);
      }
      scratch[g]! += entries.tfs[j]!;
    }
    const groups = Int32Array.from(touched).sort();
    const tfs = Float64Array.from(groups, (g) => scratch[g]!);
    for (const g of groups) {
      scratch[g] = 0;
      seen[g] = 0;
    }
    return { docs: groups, tfs };
  }

  /** The tools of a group, ascending (shared, do not change). */
  members(group: number): Int32Array {
    return this.#members.subarray(this.#starts[group]!, this.#starts[group + 1]!);
  }

  /**
   * Adds to every tool that already scores above 0 its group's BM25 for the terms, times
   * `weight`. A query that lifts groups holding most of the catalogue (a long request), or that
   * gives `top`, is one pass over the scores, which also offers every tool's final score to `top`;
   * one that lifts a few groups visits only their tools.
   *
   * @returns Whether `top` was offered every tool (else the caller finds its best itself).
   */
  lift(terms: readonly string[], scores: Float64Array, options: GroupLiftOptions): boolean {
    const { weight, top } = options;
    const lifts = this.#lifts.fill(0);
    for (const term of terms) {
      const { docs, values } = this.#terms.get(term);
      for (let j = 0; j < docs.length; j++) lifts[docs[j]!]! += weight * values[j]!;
    }
    let reached = 0;
    for (let g = 0; g < this.size; g++) if (lifts[g]! > 0) reached += this.#starts[g + 1]! - this.#starts[g]!;
    if (reached === 0) return false;
    // With `top` to fill, a pass over every tool is owed anyway: the lift goes in the same pass.
    if (top || reached * 2 > scores.length) {
      this.visited += scores.length;
      const groupOf = this.groupOf;
      for (let i = 0; i < scores.length; i++) {
        let score = scores[i]!;
        if (!(score > 0)) continue;
        const lift = lifts[groupOf[i]!]!;
        if (lift > 0) scores[i] = score += lift;
        if (top && score > top.floor) top.offer(i, score);
      }
      return top !== undefined;
    }
    this.visited += reached;
    for (let g = 0; g < this.size; g++) {
      const lift = lifts[g]!;
      if (!(lift > 0)) continue;
      for (let j = this.#starts[g]!; j < this.#starts[g + 1]!; j++) {
        const i = this.#members[j]!;
        if (scores[i]! > 0) scores[i]! += lift;
      }
    }
    return false;
  }
}
