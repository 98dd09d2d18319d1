import { addTerms, Bm25 } from './_bm25.ts';
import type { AnalyzedQuery, AnalyzedTool, ToolRanker } from './tool_index.ts';

/** Options of {@linkcode lexicalRanker}. Every default is what the bench measures. */
export interface LexicalRankerOptions {
  /**
   * Claude Code's per-term points: a whole name word 10 (12 for an MCP tool), a part of a name
   * word 5 (6), the search hint 4, the description 2.
   * @default { name: 10, nameMcp: 12, partial: 5, partialMcp: 6, hint: 4, description: 2 }
   */
  points?: Partial<KeywordPoints>;
  /**
   * How much each field counts in the BM25 part (a name word counts three description words).
   * @default { name: 3, hint: 2, description: 1, parameters: 0.5 }
   */
  fieldWeights?: Partial<FieldWeights>;
  /** BM25's term saturation (high: a tool that says a word twice is a better match). @default 2 */
  k1?: number;
  /** BM25's length normalization. @default 0.75 */
  b?: number;
  /**
   * Weight of the keyword points against BM25: at 1, a term that is a whole name word adds
   * about what one saturated BM25 match of that term adds. @default 0.5
   */
  keywordWeight?: number;
  /** Weight of the match of the tool's group (MCP server, `group__tool` prefix) as one document. @default 1 */
  groupWeight?: number;
  /**
   * How much a query term already covered by a better result is discounted when ordering the
   * best 30 (0 turns this off, 1 never discounts). @default 0.7
   */
  diversity?: number;
}

/** Points per matched query term, Claude Code's ToolSearch weights. */
export interface KeywordPoints {
  name: number;
  nameMcp: number;
  partial: number;
  partialMcp: number;
  hint: number;
  description: number;
}

/** Weights of the fields in the BM25 part. */
export interface FieldWeights {
  name: number;
  hint: number;
  description: number;
  parameters: number;
}

const DEFAULT_POINTS: KeywordPoints = { name: 10, nameMcp: 12, partial: 5, partialMcp: 6, hint: 4, description: 2 };
const DEFAULT_FIELDS: FieldWeights = { name: 3, hint: 2, description: 1, parameters: 0.5 };

/**
 * The default ranker: Claude Code's keyword points (whole name word 10, 12 for MCP tools; part
 * of a name word 5/6; search hint 4; description 2), each weighted by how rare the term is, plus
 * BM25 over name words, hint, description and parameter names and descriptions (fields weighted);
 * plus BM25 of the tool's group (its MCP server or API) as one document; then the best 30 are
 * re-ordered so the first results cover the query's different needs. The rarity weight matters
 * for long natural-language queries, where "data" or "information" would otherwise outscore the
 * one word that names the tool.
 *
 * @param options Points, field weights and BM25 constants.
 * @returns The ranker, for `createToolIndex(tools, { ranker })`.
 *
 * @example
 * ```ts
 * const index = createToolIndex(tools, { ranker: lexicalRanker({ keywordWeight: 0.5 }) });
 * ```
 */
export function lexicalRanker(options: LexicalRankerOptions = {}): ToolRanker {
  const points = { ...DEFAULT_POINTS, ...options.points };
  const fields = { ...DEFAULT_FIELDS, ...options.fieldWeights };
  const k1 = options.k1 ?? 2;
  const b = options.b ?? 0.75;
  const keywordWeight = options.keywordWeight ?? 0.5;
  const groupWeight = options.groupWeight ?? 1;
  const diversity = options.diversity ?? 0.7;
  return {
    name: 'lexical',
    prepare(tools) {
      const docOf = (t: AnalyzedTool) => {
        const m = new Map<string, number>();
        addTerms(m, t.name.stems, fields.name);
        addTerms(m, t.name.compounds, fields.name);
        addTerms(m, t.hint, fields.hint);
        addTerms(m, t.description, fields.description);
        addTerms(m, t.parameters, fields.parameters);
        return m;
      };
      const docs = tools.map(docOf);
      const bm25 = new Bm25(docs, { k1, b });
      const keywords = new KeywordIndex(tools);
      const topPoints = Math.max(points.name, points.nameMcp);
      // The group (MCP server, `family__tool` prefix) as one document: a query about "odds"
      // lifts every tool of the betting API a little, not only the one that says "odds".
      const groupIds = new Map<string, number>();
      const groupOf = Int32Array.from(tools, (t) => {
        let id = groupIds.get(t.group);
        if (id === undefined) groupIds.set(t.group, (id = groupIds.size));
        return id;
      });
      const groupDocs = Array.from({ length: groupIds.size }, () => new Map<string, number>());
      tools.forEach((t, i) => {
        for (const [term, w] of docs[i]!) groupDocs[groupOf[i]!]!.set(term, (groupDocs[groupOf[i]!]!.get(term) ?? 0) + w);
      });
      const groups = new Bm25(groupDocs, { k1, b });

      return (query: AnalyzedQuery) => {
        const idfs = new Map(query.terms.map((t) => [t, bm25.idf(t)]));
        // What one term adds to one tool, for the re-ordering. Only for a term the tool holds
        // (name, hint, description, parameters); a partial name match stays in the rest of the
        // score, undiscounted, which keeps this cheap enough to run on every search.
        const termScore = (term: string, i: number): number => {
          const tf = docs[i]!.get(term);
          if (tf === undefined) return 0;
          const idf = idfs.get(term)!;
          let score = bm25.scoreOf(tf, i, idf);
          if (keywordWeight > 0) score += ((keywordWeight * (k1 + 1) * idf) / topPoints) * keywords.points(term, i, points);
          return score;
        };
        const scores = new Float64Array(tools.length);
        bm25.accumulate(query.terms, scores);
        if (keywordWeight > 0) {
          for (const term of query.terms) {
            // A term's points, scaled so a whole-name hit of a term is worth about one
            // saturated BM25 match of it: rare terms count, "data" and "info" hardly.
            const unit = (keywordWeight * (k1 + 1) * idfs.get(term)!) / topPoints;
            if (unit > 0) keywords.accumulate(term, points, scores, unit);
          }
        }
        if (groupWeight > 0 && groupDocs.length < tools.length) {
          const g = new Float64Array(groupDocs.length);
          groups.accumulate(query.terms, g, groupWeight);
          for (let i = 0; i < scores.length; i++) if (scores[i]! > 0) scores[i]! += g[groupOf[i]!]!;
        }
        if (diversity > 0 && query.terms.length > 1) diversify(scores, query.terms, termScore, diversity);
        return scores;
      };
    },
  };
}

/**
 * Re-orders the best candidates so the first results cover the query's different needs ("the
 * odds and the upcoming fixtures"): each pick discounts the terms earlier picks already cover.
 * Scores are rewritten only among the candidates, so the order below them is untouched.
 */
function diversify(scores: Float64Array, terms: readonly string[], termScore: (term: string, i: number) => number, discount: number): void {
  const pool = 30;
  const candidates: number[] = [];
  let floor = 0;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (!(score > floor)) continue;
    if (candidates.length < pool) {
      candidates.push(i);
      if (candidates.length === pool) {
        candidates.sort((x, y) => scores[y]! - scores[x]!);
        floor = scores[candidates[pool - 1]!]!;
      }
      continue;
    }
    let at = pool - 1;
    while (at > 0 && score > scores[candidates[at - 1]!]!) at--;
    candidates.splice(at, 0, i);
    candidates.pop();
    floor = scores[candidates[pool - 1]!]!;
  }
  if (candidates.length < pool) candidates.sort((x, y) => scores[y]! - scores[x]!);
  if (candidates.length < 3) return;
  const m = candidates.length;
  const k = terms.length;
  const contributions = new Float64Array(m * k);
  const rest = new Float64Array(m);
  for (let c = 0; c < m; c++) {
    let sum = 0;
    for (let t = 0; t < k; t++) sum += contributions[c * k + t] = termScore(terms[t]!, candidates[c]!);
    rest[c] = scores[candidates[c]!]! - sum;
  }
  // Each term's current worth: multiplied by the discount each time a pick covers it.
  const worth = new Float64Array(k).fill(1);
  const taken = new Uint8Array(m);
  const chosen: number[] = [];
  for (let pick = 0; pick < m; pick++) {
    let best = -1;
    let bestGain = -Infinity;
    for (let c = 0; c < m; c++) {
      if (taken[c]) continue;
      let gain = rest[c]!;
      for (let t = 0; t < k; t++) gain += contributions[c * k + t]! * worth[t]!;
      if (gain > bestGain) {
        best = c;
        bestGain = gain;
      }
    }
    taken[best] = 1;
    chosen.push(best);
    for (let t = 0; t < k; t++) if (contributions[best * k + t]! > 0) worth[t]! *= discount;
  }
  // The candidates keep their band of scores, in the new order.
  const band = chosen.map((c) => scores[candidates[c]!]!).sort((x, y) => y - x);
  chosen.forEach((c, rank) => (scores[candidates[c]!] = band[rank]!));
}

/** Which tools hold a term in their name (whole or part), hint or description. */
class KeywordIndex {
  readonly #tools: readonly AnalyzedTool[];
  readonly #name = new Map<string, number[]>();
  readonly #hint = new Map<string, number[]>();
  readonly #description = new Map<string, number[]>();
  /** Every distinct name word, and a trigram index over them for "part of a name word". */
  readonly #words: string[] = [];
  readonly #wordTools: number[][] = [];
  readonly #trigrams = new Map<string, number[]>();
  readonly #marks: Uint32Array;
  #stamp = 0;

  constructor(tools: readonly AnalyzedTool[]) {
    this.#tools = tools;
    this.#marks = new Uint32Array(tools.length);
    const wordIds = new Map<string, number>();
    tools.forEach((tool, i) => {
      for (const s of new Set([...tool.name.stems, ...tool.name.compounds])) push(this.#name, s, i);
      for (const s of new Set(tool.hint)) push(this.#hint, s, i);
      for (const s of new Set(tool.description)) push(this.#description, s, i);
      for (const word of new Set(tool.name.words)) {
        let id = wordIds.get(word);
        if (id === undefined) {
          id = this.#words.length;
          wordIds.set(word, id);
          this.#words.push(word);
          this.#wordTools.push([]);
          for (const g of trigrams(word)) push(this.#trigrams, g, id);
        }
        this.#wordTools[id]!.push(i);
      }
    });
  }

  /** The points one term earns one tool. */
  points(term: string, i: number, points: KeywordPoints): number {
    const tool = this.#tools[i]!;
    const mcp = tool.name.isMcp;
    let total = 0;
    if (tool.name.stems.includes(term) || tool.name.compounds.includes(term)) total += mcp ? points.nameMcp : points.name;
    else if (term.length >= 3 && tool.name.words.some((w) => w.includes(term))) total += mcp ? points.partialMcp : points.partial;
    if (tool.hint.includes(term)) total += points.hint;
    if (tool.description.includes(term)) total += points.description;
    return total;
  }

  accumulate(term: string, points: KeywordPoints, scores: Float64Array, scale: number): void {
    const tools = this.#tools;
    // Stamps instead of sets: no allocation per term, which matters over 10 000 tools.
    const stamp = ++this.#stamp;
    const marks = this.#marks;
    for (const i of this.#name.get(term) ?? []) {
      marks[i] = stamp;
      scores[i]! += scale * (tools[i]!.name.isMcp ? points.nameMcp : points.name);
    }
    if (term.length >= 3) {
      // Part of a name word: "mail" in "gmail", "hook" in "webhooks"; once per tool.
      for (const id of this.#wordsContaining(term)) {
        for (const i of this.#wordTools[id]!) {
          if (marks[i] === stamp) continue;
          marks[i] = stamp;
          scores[i]! += scale * (tools[i]!.name.isMcp ? points.partialMcp : points.partial);
        }
      }
    }
    for (const i of this.#hint.get(term) ?? []) scores[i]! += scale * points.hint;
    for (const i of this.#description.get(term) ?? []) scores[i]! += scale * points.description;
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

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function trigrams(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= word.length; i++) out.push(word.slice(i, i + 3));
  return out;
}
