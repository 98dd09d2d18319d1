// Claude Code's keyword points: which tools hold a query term in their name (whole or part of a
// name word), search hint or description.
import { TermContributions } from './_term_cache.ts';
import type { AnalyzedTool } from './ranker_types.ts';

/** Points per matched query term, Claude Code's ToolSearch weights. */
export interface KeywordPoints {
  name: number;
  nameMcp: number;
  partial: number;
  partialMcp: number;
  hint: number;
  description: number;
}

/**
 * Which tools hold a term in their name (whole or part), hint or description, and what the term
 * adds to each: Claude Code's keyword points plus the BM25 part.
 *
 * @example
 * ```ts
 * import { KeywordIndex } from './_keyword_index.ts';
 * import { analyzeTool } from './tool_index.ts';
 *
 * const index = new KeywordIndex([analyzeTool({ name: 'gmail_send', description: 'Send mail' })]);
 * const points = { name: 10, nameMcp: 12, partial: 5, partialMcp: 6, hint: 4, description: 2 };
 * index.contributions('mail', points, 1, undefined, () => 0).values; // Float64Array [7]: part of a name word 5, description 2
 * ```
 */
export class KeywordIndex {
  readonly #tools: readonly AnalyzedTool[];
  readonly #name = new Map<string, number[]>();
  readonly #hint = new Map<string, number[]>();
  readonly #description = new Map<string, number[]>();
  /** Every distinct name word, and a trigram index over them for "part of a name word". */
  readonly #words: string[] = [];
  readonly #wordTools: number[][] = [];
  readonly #trigrams = new Map<string, number[]>();
  /** Per tool, the stamp of the last term that touched it, that it holds, that it names: no set per term. */
  readonly #marks: Uint32Array;
  readonly #holds: Uint32Array;
  readonly #named: Uint32Array;
  readonly #scratch: Float64Array;
  #stamp = 0;

  constructor(tools: readonly AnalyzedTool[]) {
    this.#tools = tools;
    this.#marks = new Uint32Array(tools.length);
    this.#holds = new Uint32Array(tools.length);
    this.#named = new Uint32Array(tools.length);
    this.#scratch = new Float64Array(tools.length);
    const wordIds = new Map<string, number>();
    // Tools are added in order, so a tool already in a list is its last: no set per tool.
    tools.forEach((tool, i) => {
      for (const s of tool.name.stems) push(this.#name, s, i);
      for (const s of tool.name.compounds) push(this.#name, s, i);
      for (const s of tool.hint) push(this.#hint, s, i);
      for (const s of tool.description) push(this.#description, s, i);
      for (const word of tool.name.words) {
        let id = wordIds.get(word);
        if (id === undefined) {
          id = this.#words.length;
          wordIds.set(word, id);
          this.#words.push(word);
          this.#wordTools.push([]);
          for (const g of trigrams(word)) push(this.#trigrams, g, id);
        }
        const list = this.#wordTools[id]!;
        if (list[list.length - 1] !== i) list.push(i);
      }
    });
  }

  /**
   * What a term adds to every tool that matches it: `own(tf, i)` (the BM25 part) for the tools
   * whose document holds the term, plus `unit` × the term's keyword points.
   */
  contributions(
    term: string,
    points: KeywordPoints,
    unit: number,
    own: { readonly docs: Int32Array; readonly tfs: Float64Array } | undefined,
    bm25: (tf: number, i: number) => number,
  ): TermContributions {
    const tools = this.#tools;
    const values = this.#scratch;
    const touched: number[] = [];
    // Stamps instead of sets: no allocation per term, which matters over 10 000 tools.
    const seen = ++this.#stamp;
    const marks = this.#marks;
    const add = (i: number, value: number) => {
      if (marks[i] !== seen) {
        marks[i] = seen;
        values[i] = 0;
        touched.push(i);
      }
      values[i]! += value;
    };
    if (own) {
      for (let j = 0; j < own.docs.length; j++) {
        add(own.docs[j]!, bm25(own.tfs[j]!, own.docs[j]!));
        this.#holds[own.docs[j]!] = seen;
      }
    }
    if (unit > 0) {
      const named = this.#named;
      for (const i of this.#name.get(term) ?? []) {
        named[i] = seen;
        add(i, unit * (tools[i]!.name.isMcp ? points.nameMcp : points.name));
      }
      if (term.length >= 3) {
        // Part of a name word: "mail" in "gmail", "hook" in "webhooks"; once per tool.
        for (const id of this.#wordsContaining(term)) {
          for (const i of this.#wordTools[id]!) {
            if (named[i] === seen) continue;
            named[i] = seen;
            add(i, unit * (tools[i]!.name.isMcp ? points.partialMcp : points.partial));
          }
        }
      }
      for (const i of this.#hint.get(term) ?? []) add(i, unit * points.hint);
      for (const i of this.#description.get(term) ?? []) add(i, unit * points.description);
    }
    // A typed array sorts numbers without a comparison function.
    const docs = Int32Array.from(touched).sort();
    const out = Float64Array.from(docs, (i) => values[i]!);
    const held = Float64Array.from(docs, (i) => (this.#holds[i] === seen ? values[i]! : 0));
    return new TermContributions(docs, out, held);
  }

  /**
   * The tools whose name (stems or compounds), hint or description holds the term, ascending
   * (shared, do not change).
   */
  holders(field: 'name' | 'hint' | 'description', term: string): readonly number[] | undefined {
    return (field === 'name' ? this.#name : field === 'hint' ? this.#hint : this.#description).get(term);
  }

  #wordsContaining(term: string): number[] {
    let rarest: number[] | undefined;
    for (const g of trigrams(term)) {
      const list = this.#trigrams.get(g);
      if (!list) return [];
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    return (rarest ?? []).filter((id) => this.#words[id]!.includes(term));
  }
}

/** Adds `value` to the key's list unless it is the list's last already (values come in order). */
function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

function trigrams(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= word.length; i++) out.push(word.slice(i, i + 3));
  return out;
}
