// The tool's group (MCP server, `family__tool` prefix) as one document: a query about "odds"
// lifts every tool of the betting API a little, not only the one that says "odds".
import { Bm25, type Bm25Params, type WeightedTerms } from './_bm25.ts';
import type { AnalyzedTool } from './ranker_types.ts';

/**
 * The groups of a catalogue, each searched as one document (the sum of its tools' documents),
 * and which tools each holds.
 *
 * @example
 * ```ts
 * import { GroupIndex } from './_groups.ts';
 * import { analyzeTool } from './tool_index.ts';
 *
 * const tools = ['Betting__odds', 'Betting__events', 'Concerts__events'].map((name) => analyzeTool({ name, description: '' }));
 * const docs = [new Map([['odd', 3]]), new Map([['event', 3]]), new Map([['event', 3]])];
 * const groups = new GroupIndex(tools, docs, { k1: 2, b: 0.75 });
 * const scores = Float64Array.of(0, 1, 1);
 * groups.lift(['odd', 'event'], scores, 0.5); // the Betting events tool gains the most
 * ```
 */
export class GroupIndex {
  /** How many groups; as many as tools when no two share one. */
  readonly size: number;
  /** Each tool's group. */
  readonly groupOf: Int32Array;
  /** Tools a lift visited, over the index's life. */
  visited = 0;
  readonly #bm25: Bm25;
  /** The tools of group `g` are `#members[#starts[g] … #starts[g + 1]]`, ascending. */
  readonly #starts: Int32Array;
  readonly #members: Int32Array;
  /** The lift of each group, reused by every query. */
  readonly #lifts: Float64Array;

  constructor(tools: readonly AnalyzedTool[], docs: readonly WeightedTerms[], params: Bm25Params) {
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
    // A group of one tool is that tool's document: shared, not copied.
    const groupDocs: WeightedTerms[] = Array.from({ length: this.size }, (_, g) => {
      const first = this.#members[this.#starts[g]!]!;
      if (this.#starts[g + 1]! - this.#starts[g]! === 1) return docs[first]!;
      const sum = new Map<string, number>();
      for (let j = this.#starts[g]!; j < this.#starts[g + 1]!; j++)
        for (const [term, w] of docs[this.#members[j]!]!) sum.set(term, (sum.get(term) ?? 0) + w);
      return sum;
    });
    this.#bm25 = new Bm25(groupDocs, params);
    this.#lifts = new Float64Array(this.size);
  }

  /** The tools of a group, ascending (shared, do not change). */
  members(group: number): Int32Array {
    return this.#members.subarray(this.#starts[group]!, this.#starts[group + 1]!);
  }

  /**
   * Adds to every tool that already scores above 0 its group's BM25 for the terms, times `weight`.
   * A query that lifts groups holding most of the catalogue (a long request) is one pass over the
   * scores; one that lifts a few visits only their tools.
   */
  lift(terms: readonly string[], scores: Float64Array, weight: number): void {
    const lifts = this.#lifts.fill(0);
    this.#bm25.accumulate(terms, lifts, weight);
    let reached = 0;
    for (let g = 0; g < this.size; g++) if (lifts[g]! > 0) reached += this.#starts[g + 1]! - this.#starts[g]!;
    if (reached === 0) return;
    if (reached * 2 > scores.length) {
      this.visited += scores.length;
      const groupOf = this.groupOf;
      for (let i = 0; i < scores.length; i++) {
        const lift = lifts[groupOf[i]!]!;
        if (lift > 0 && scores[i]! > 0) scores[i]! += lift;
      }
      return;
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
  }
}
