import { addTerms, Bm25, zeroedScores } from './_bm25.ts';
import { operationTerms, phrases, requestCount, schemaText, surfaceTerms } from './_analyze.ts';
import { verbSynonyms } from './_verbs.ts';
import type { AnalyzedQuery, AnalyzedTool, ToolRanker } from './ranker_types.ts';

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
  /**
   * Weight of the match of the tool's group (MCP server, `group__tool` prefix) as one document.
   * Half a match: at 1 it won most on StableToolBench, whose queries are made by sampling APIs
   * of one tool or category, but lost queries on a catalogue it never saw (bench
   * `search_quality`, `heldOut`), where one request usually wants one tool. @default 0.5
   */
  groupWeight?: number;
  /**
   * How much a query term already covered by a better result is discounted when ordering the
   * best 30 (0 turns this off, 1 never discounts). Applied only to a query that reads as a list
   * of distinct requests (see `diversityMinRequests`): on one task in several steps it pushed
   * sibling tools of one server down. @default 0.7
   */
  diversity?: number;
  /**
   * The re-ordering above runs only when the query holds at least this many requests
   * (sentences, plus "also", "additionally" …); `Infinity` turns it off. @default 2
   */
  diversityMinRequests?: number;
  /** Weight of word pairs ("pull request", "knowledge graph") matched in order, as BM25 over pairs. 0 turns it off. @default 0.25 */
  phraseWeight?: number;
  /**
   * Sibling tools of the best result's group are offered with it when the query reads as a
   * multi-step task (at least `siblingMinTerms` content words): each sibling that matches the
   * query gains this share of its own score. Off by default: on every set of the bench it cost
   * NDCG@10 and MRR (ToolSearch instead names the siblings beside its results). @default 0
   */
  siblingWeight?: number;
  /** How many content words make a query a task statement, for the sibling lift, the feedback and the verb synonyms. @default 8 */
  siblingMinTerms?: number;
  /**
   * Pseudo-relevance feedback (RM3-style): the words of the best `feedbackDocs` tools of a
   * first pass, weighted by the tools' scores and the words' idf, expand the query by
   * `feedbackTerms` words at `feedbackWeight` (BM25 only) for a task statement (at least
   * `siblingMinTerms` words, one request), so tools that share no word with the task can still
   * be reached. 0 turns it off. @default 0.2
   */
  feedbackWeight?: number;
  /** Tools of the first pass that feed the expansion. @default 3 */
  feedbackDocs?: number;
  /** Words added by the expansion. @default 10 */
  feedbackTerms?: number;
  /**
   * Weight of the words that name the same operation as a query verb ("remove" also finds
   * `delete_*`, "make" `create_*`): a short list of the verbs of create, read, update, delete,
   * search, run and send APIs. Each synonym the query does not hold itself adds its score at
   * this weight. Only for a query shorter than a task statement (`siblingMinTerms`): in a short
   * request the verb is half of what it says, while a task statement's many verbs added as
   * many synonyms and cost it MRR on the bench. A past participle ("everything stored in
   * memory", "list stopped containers") describes what the request is about and adds none.
   * 0 turns it off. @default 0.5
   */
  synonymWeight?: number;
  /**
   * Weight of the query's words matched as written, not stemmed (BM25 over the tools' unstemmed
   * words, same fields and weights). Stemming merges forms that say different things: "stocks"
   * (shares) and "stock footage", "pull requests" (a list) and "pull request" (one), "checks" and
   * "check_crawl_status"; a tool that holds the query's own form gains a little over one that
   * holds only its stem. 0 turns it off. @default 0.25
   */
  surfaceWeight?: number;
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
 * plus, at a quarter weight, the same BM25 over the words as written, unstemmed ("stocks" is not
 * "stock footage"); plus BM25 of the tool's group (its MCP server or API) as one document; plus, at
 * half weight, the verbs that name the same operation as the query's ("remove" finds `delete_*`);
 * then the best 30 are re-ordered so the first results cover the query's different needs. The rarity weight matters
 * for long natural-language queries, where "data" or "information" would otherwise outscore the
 * one word that names the tool.
 *
 * @param options Points, field weights and BM25 constants.
 * @returns The ranker, for `createToolIndex(tools, { ranker })`.
 *
 * @example
 * ```ts
 * import { createToolIndex, lexicalRanker, type SearchableTool } from '@toolshed/toolsearch';
 * declare const tools: SearchableTool[];
 *
 * const index = createToolIndex(tools, { ranker: lexicalRanker({ keywordWeight: 0.5 }) });
 * ```
 */
export function lexicalRanker(options: LexicalRankerOptions = {}): ToolRanker {
  const {
    points,
    fields,
    k1,
    b,
    keywordWeight,
    groupWeight,
    diversity,
    diversityMinRequests,
    phraseWeight,
    siblingWeight,
    siblingMinTerms,
    feedbackWeight,
    feedbackDocs,
    feedbackTerms,
    synonymWeight,
    surfaceWeight,
  } = lexicalSettings(options);
  // One options object per field for every tool, not one per call.
  const weights = {
    name: { weight: fields.name },
    hint: { weight: fields.hint },
    description: { weight: fields.description },
    parameters: { weight: fields.parameters },
  };
  return {
    name: 'lexical',
    prepare(tools) {
      const docOf = (t: AnalyzedTool) => {
        const m = new Map<string, number>();
        addTerms(m, t.name.stems, weights.name);
        addTerms(m, t.name.compounds, weights.name);
        addTerms(m, t.hint, weights.hint);
        addTerms(m, t.description, weights.description);
        addTerms(m, t.parameters, weights.parameters);
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
        for (const [term, w] of docs[i]!)
          groupDocs[groupOf[i]!]!.set(term, (groupDocs[groupOf[i]!]!.get(term) ?? 0) + w);
      });
      const groups = new Bm25(groupDocs, { k1, b });
      // Each group's tools, so a query that matches few groups touches only their tools.
      const members = Array.from({ length: groupIds.size }, () => [] as number[]);
      for (let i = 0; i < tools.length; i++) members[groupOf[i]!]!.push(i);

      // What a term adds to each tool — BM25 plus its keyword points — depends on the term and
      // the catalogue only, not on the rest of the query: computed on a term's first search
      // and kept, so a search is one pass over a short typed array per term.
      const contributions = new TermCache((term) => {
        const idf = bm25.idf(term);
        const unit = keywordWeight > 0 ? (keywordWeight * (k1 + 1) * idf) / topPoints : 0;
        const own = bm25.entries(term);
        return keywords.contributions(term, points, unit, own, (tf, i) => bm25.scoreOf(tf, i, idf));
      });

      // Word pairs in order, as their own BM25 index: a phrase is evidence its two words apart
      // are not, and kept apart so the pairs do not change the length of the word documents.
      // Built on the first query that has a word pair, not with the index: most of a session's
      // searches are a few keywords, and a catalogue that is never searched should not pay for it.
      let pairs: Bm25 | undefined;
      const pairIndex = () => (pairs ??= pairIndexOf(tools, fields, { k1, b }));

      // The words as written, unstemmed: built on the first query, like the pairs.
      let surface: TermCache | undefined;
      const surfaceIndex = () => (surface ??= surfaceIndexOf(tools, fields, { k1, b }));

      const accumulate = (terms: readonly string[], weights: readonly number[] | undefined, scores: Float64Array) => {
        const postings = terms.map((t) => contributions.get(t));
        postings.forEach(({ docs, values }, t) => {
          const w = weights ? weights[t]! : 1;
          for (let j = 0; j < docs.length; j++) scores[docs[j]!]! += w * values[j]!;
        });
        return postings;
      };

      return (query: AnalyzedQuery, into?: Float64Array) => {
        const scores = zeroedScores(into, tools.length);
        const postings = accumulate(query.terms, undefined, scores);
        const taskStatement = query.terms.length >= siblingMinTerms;
        if (synonymWeight > 0 && !taskStatement) {
          const added = synonymsOf(query.terms, operationTerms(query.text));
          if (added.length)
            accumulate(
              added,
              added.map(() => synonymWeight),
              scores,
            );
        }
        const requests = query.terms.length > 1 ? requestCount(query.text) : 1;
        // A list of distinct requests names each of its needs; one task in several steps leaves
        // some unsaid, which is where the expansion helps (and the list's re-ordering does not).
        if (feedbackWeight > 0 && taskStatement && requests < diversityMinRequests) {
          addFeedbackTerms(scores, { docs, bm25, terms: query.terms, feedbackWeight, feedbackDocs, feedbackTerms });
        }
        if (surfaceWeight > 0) {
          const words = surfaceIndex();
          for (const word of [...new Set(surfaceTerms(query.text))].slice(0, MAX_SURFACE_WORDS)) {
            const { docs, values } = words.get(word);
            for (let j = 0; j < docs.length; j++) scores[docs[j]!]! += surfaceWeight * values[j]!;
          }
        }
        if (phraseWeight > 0) {
          const queryPairs = [...new Set(phrases(query.text))];
          if (queryPairs.length) pairIndex().accumulate(queryPairs, scores, phraseWeight);
        }
        if (groupWeight > 0 && groupDocs.length < tools.length) {
          const g = new Float64Array(groupDocs.length);
          groups.accumulate(query.terms, g, groupWeight);
          for (let id = 0; id < g.length; id++) {
            const lift = g[id]!;
            if (!(lift > 0)) continue;
            for (const i of members[id]!) if (scores[i]! > 0) scores[i]! += lift;
          }
        }
        if (siblingWeight > 0 && taskStatement && groupDocs.length < tools.length) {
          // One task in several steps mostly needs tools of one server: the best result's
          // siblings that match the task at all move up together.
          const [first] = bestCandidates(scores, 1);
          if (first !== undefined) {
            for (const i of members[groupOf[first]!]!)
              if (i !== first && scores[i]! > 0) scores[i]! *= 1 + siblingWeight;
          }
        }
        // For the re-ordering, what one term adds to one tool — only for a term the tool holds
        // (name, hint, description, parameters); a partial name match stays in the rest of
        // the score, undiscounted.
        const termScore = (t: number, i: number): number => postings[t]!.held(i);
        if (diversity > 0 && query.terms.length > 1 && requests >= diversityMinRequests) {
          diversify(scores, query.terms.length, termScore, diversity);
        }
        return scores;
      };
    },
  };
}

/** The word pairs of each tool's name, hint and description (its first pairs only) as a BM25 index. */
function pairIndexOf(tools: readonly AnalyzedTool[], fields: FieldWeights, params: { k1: number; b: number }): Bm25 {
  return new Bm25(
    tools.map((t) => {
      const m = new Map<string, number>();
      addPairs(m, t.name.stems, fields.name);
      addPairs(m, t.hint, fields.hint);
      addPairs(m, t.description, fields.description, MAX_DESCRIPTION_PAIRS);
      return m;
    }),
    params,
  );
}

/**
 * The words as written, unstemmed, as their own BM25 index over the same fields and weights, each
 * word's contribution per tool computed on its first use: "stocks" then counts for a tool that says
 * "stocks" and not for one that says "stock footage", which the stemmed terms cannot tell apart.
 */
function surfaceIndexOf(
  tools: readonly AnalyzedTool[],
  fields: FieldWeights,
  params: { k1: number; b: number },
): TermCache {
  const index = new Bm25(
    tools.map((t) => {
      const m = new Map<string, number>();
      addTerms(m, t.name.words, { weight: fields.name });
      addTerms(m, surfaceTerms(textOf(t.tool.searchHint)), { weight: fields.hint });
      addTerms(m, surfaceTerms(textOf(t.tool.description)), { weight: fields.description });
      addTerms(m, surfaceTerms(schemaText(t.tool.inputSchema)), { weight: fields.parameters });
      return m;
    }),
    params,
  );
  return new TermCache((word) => {
    const entries = index.entries(word);
    if (!entries) return EMPTY_CONTRIBUTIONS;
    const idf = index.idf(word);
    const values = Float64Array.from(entries.docs, (d, j) => index.scoreOf(entries.tfs[j]!, d, idf));
    return new TermContributions(entries.docs, values, new Uint8Array(entries.docs.length));
  });
}

/** A catalogue's text field, or nothing when it is not a string (as `analyzeTool` reads it). */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The settings of {@linkcode lexicalRanker}, with their defaults. */
function lexicalSettings(options: LexicalRankerOptions) {
  return {
    points: { ...DEFAULT_POINTS, ...options.points },
    fields: { ...DEFAULT_FIELDS, ...options.fieldWeights },
    k1: options.k1 ?? 2,
    b: options.b ?? 0.75,
    keywordWeight: options.keywordWeight ?? 0.5,
    groupWeight: options.groupWeight ?? 0.5,
    diversity: options.diversity ?? 0.7,
    diversityMinRequests: options.diversityMinRequests ?? 2,
    phraseWeight: options.phraseWeight ?? 0.25,
    siblingWeight: options.siblingWeight ?? 0,
    siblingMinTerms: options.siblingMinTerms ?? 8,
    feedbackWeight: options.feedbackWeight ?? 0.2,
    feedbackDocs: options.feedbackDocs ?? 3,
    feedbackTerms: options.feedbackTerms ?? 10,
    synonymWeight: options.synonymWeight ?? 0.5,
    surfaceWeight: options.surfaceWeight ?? 0.25,
  };
}

/** The verbs that name the same operation as the query's words ("remove" for "delete"), not in the query already. */
function synonymsOf(terms: readonly string[], verbs: readonly string[]): string[] {
  const own = new Set(terms);
  const added = new Set<string>();
  for (const term of verbs) for (const synonym of verbSynonyms(term)) if (!own.has(synonym)) added.add(synonym);
  return [...added];
}

/**
 * Pseudo-relevance feedback, RM3-style: the first pass's best tools vote for words, by score;
 * the query is expanded by the words they share most, at a lower weight than its own.
 */
function addFeedbackTerms(
  scores: Float64Array,
  {
    docs,
    bm25,
    terms,
    feedbackWeight,
    feedbackDocs,
    feedbackTerms,
  }: {
    docs: readonly Map<string, number>[];
    bm25: Bm25;
    terms: readonly string[];
    feedbackWeight: number;
    feedbackDocs: number;
    feedbackTerms: number;
  },
): void {
  const best = bestCandidates(scores, feedbackDocs);
  const votes = new Map<string, number>();
  const top = best.length ? scores[best[0]!]! : 0;
  for (const i of best) {
    const doc = docs[i]!;
    let length = 0;
    for (const w of doc.values()) length += w;
    for (const [term, w] of doc) votes.set(term, (votes.get(term) ?? 0) + (scores[i]! / top) * (w / length));
  }
  const own = new Set(terms);
  // A word counts by its vote times its idf: one that most tools hold says little.
  const expansion: [string, number][] = [];
  for (const [term, vote] of votes) if (!own.has(term)) expansion.push([term, vote * bm25.idf(term)]);
  expansion.sort((x, y) => y[1] - x[1]);
  expansion.length = Math.min(expansion.length, feedbackTerms);
  if (expansion.length) {
    const max = expansion[0]![1];
    // BM25 alone for the added words: their keyword points would need a look-up per word
    // (partial name matches) that the per-term cache was not sized for.
    for (const [term, vote] of expansion) bm25.accumulate([term], scores, (feedbackWeight * vote) / max);
  }
}

/**
 * Re-orders the best candidates so the first results cover the query's different needs ("the
 * odds and the upcoming fixtures"): each pick discounts the terms earlier picks already cover.
 * Scores are rewritten only among the candidates, so the order below them is untouched.
 */
function diversify(
  scores: Float64Array,
  k: number,
  termScore: (term: number, i: number) => number,
  discount: number,
): void {
  const candidates = bestCandidates(scores, 30);
  if (candidates.length < 3) return;
  const m = candidates.length;
  const contributions = new Float64Array(m * k);
  // Each candidate's gain if picked next: its score with every term at its current worth. A
  // term's worth is multiplied by the discount each time a pick covers it, and only the gains of
  // candidates holding that term change, so a pick updates the gains instead of recomputing them.
  const gains = new Float64Array(m);
  for (let c = 0; c < m; c++) {
    gains[c] = scores[candidates[c]!]!;
    for (let t = 0; t < k; t++) contributions[c * k + t] = termScore(t, candidates[c]!);
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
  const band = chosen.map((c) => scores[candidates[c]!]!).sort((x, y) => y - x);
  chosen.forEach((c, rank) => (scores[candidates[c]!] = band[rank]!));
}

/**
 * The indices of the `pool` highest positive scores, best first, ties in index order: one pass
 * with an insertion into a short sorted list, which a long query over a large catalogue rarely
 * needs once the list is full.
 */
function bestCandidates(scores: Float64Array, pool: number): number[] {
  const index = new Int32Array(pool);
  const value = new Float64Array(pool);
  let size = 0;
  let floor = 0;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (!(score > floor)) continue;
    let at = size < pool ? size++ : pool - 1;
    while (at > 0 && score > value[at - 1]!) {
      value[at] = value[at - 1]!;
      index[at] = index[at - 1]!;
      at--;
    }
    value[at] = score;
    index[at] = i;
    if (size === pool) floor = value[pool - 1]!;
  }
  return Array.from(index.subarray(0, size));
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
  readonly #scratch: Float64Array;
  #stamp = 0;

  constructor(tools: readonly AnalyzedTool[]) {
    this.#tools = tools;
    this.#marks = new Uint32Array(tools.length);
    this.#scratch = new Float64Array(tools.length);
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
    const holds = new Set<number>();
    if (own) {
      for (let j = 0; j < own.docs.length; j++) {
        add(own.docs[j]!, bm25(own.tfs[j]!, own.docs[j]!));
        holds.add(own.docs[j]!);
      }
    }
    if (unit > 0) {
      const named = new Set<number>();
      for (const i of this.#name.get(term) ?? []) {
        named.add(i);
        add(i, unit * (tools[i]!.name.isMcp ? points.nameMcp : points.name));
      }
      if (term.length >= 3) {
        // Part of a name word: "mail" in "gmail", "hook" in "webhooks"; once per tool.
        for (const id of this.#wordsContaining(term)) {
          for (const i of this.#wordTools[id]!) {
            if (named.has(i)) continue;
            named.add(i);
            add(i, unit * (tools[i]!.name.isMcp ? points.partialMcp : points.partial));
          }
        }
      }
      for (const i of this.#hint.get(term) ?? []) add(i, unit * points.hint);
      for (const i of this.#description.get(term) ?? []) add(i, unit * points.description);
    }
    touched.sort((x, y) => x - y);
    const docs = Int32Array.from(touched);
    const out = Float64Array.from(touched, (i) => values[i]!);
    const held = Uint8Array.from(touched, (i) => (holds.has(i) ? 1 : 0));
    return new TermContributions(docs, out, held);
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

/** What one term adds to the tools that match it, in tool order. */
class TermContributions {
  readonly docs: Int32Array;
  readonly values: Float64Array;
  readonly #held: Uint8Array;

  constructor(docs: Int32Array, values: Float64Array, held: Uint8Array) {
    this.docs = docs;
    this.values = values;
    this.#held = held;
  }

  /** The term's contribution to tool `i` if the tool's own text holds the term, else 0. */
  held(i: number): number {
    let lo = 0;
    let hi = this.docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = this.docs[mid]!;
      if (d === i) return this.#held[mid] ? this.values[mid]! : 0;
      if (d < i) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  get size(): number {
    return this.docs.length;
  }
}

/** Query words matched as written at most, the bound `analyzeQuery` puts on a query's terms. */
const MAX_SURFACE_WORDS = 64;

const EMPTY_CONTRIBUTIONS = new TermContributions(new Int32Array(0), new Float64Array(0), new Uint8Array(0));

/**
 * Term contributions by term, computed on first use. Bounded by the entries it holds, so a
 * stream of odd queries cannot grow it without limit: when full it starts over.
 */
class TermCache {
  // About 13 MB at most (a doc id, a value and a flag per entry).
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

/**
 * Pairs taken from a description at most: its opening says what the tool does; the rest (usage
 * notes, examples) adds pairs that cost index time and match little.
 */
const MAX_DESCRIPTION_PAIRS = 24;

/** Adds the adjacent pairs of an analyzed term list ("pull request") to a term-weight map. */
function addPairs(into: Map<string, number>, terms: readonly string[], weight: number, max = Infinity): void {
  const end = Math.min(terms.length, max + 1);
  for (let i = 1; i < end; i++) {
    const pair = `${terms[i - 1]} ${terms[i]}`;
    into.set(pair, (into.get(pair) ?? 0) + weight);
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
