import type { KeywordPoints } from './_keyword_index.ts';
import { LexicalScorer, type LexicalSettings } from './_lexical_scorer.ts';
import type { ToolRanker } from './ranker_types.ts';

export type { KeywordPoints } from './_keyword_index.ts';

/** Options of {@linkcode lexicalRanker}. Every default is what the bench measures. */
export interface LexicalRankerOptions {
  /**
   * Claude Code's per-term points: a whole name word 10 (12 for an MCP tool), a part of a name
   * word 5 (6), the search hint 4, the description 2.
   * @default { name: 10, nameMcp: 12, partial: 5, partialMcp: 6, hint: 4, description: 2 }
   */
  points?: Partial<KeywordPoints>;
  /**
   * How much each field counts in the BM25 part (a name word counts three description words). A
   * description's first sentence says what the tool does and counts whole; the rest says how to
   * call it and counts `descriptionRest`.
   * @default { name: 3, hint: 2, description: 1, descriptionRest: 0.5, parameters: 0.5 }
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

/** Weights of the fields in the BM25 part. */
export interface FieldWeights {
  name: number;
  hint: number;
  /** The description's first sentence: what the tool does. */
  description: number;
  /** The rest of the description: how to call the tool (arguments, limits, examples, errors). */
  descriptionRest: number;
  parameters: number;
}

const DEFAULT_POINTS: KeywordPoints = { name: 10, nameMcp: 12, partial: 5, partialMcp: 6, hint: 4, description: 2 };
/**
 * What the description after its first sentence counts against the first sentence: chosen on the
 * development sets (StableToolBench and the mcp_tasks task statements and single needs) among 1,
 * 0.75, 0.5, 0.35 and 0.25, and reported on every set (bench `search_quality`).
 */
const DESCRIPTION_REST = 0.5;
const DEFAULT_FIELDS: FieldWeights = {
  name: 3,
  hint: 2,
  description: 1,
  descriptionRest: DESCRIPTION_REST,
  parameters: 0.5,
};

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
  const settings = lexicalSettings(options);
  return {
    name: 'lexical',
    prepare(tools) {
      const scorer = new LexicalScorer(tools, settings);
      return (query, into) => scorer.score(query, into);
    },
  };
}

/** The settings of {@linkcode lexicalRanker}, with their defaults. */
function lexicalSettings(options: LexicalRankerOptions): LexicalSettings {
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
