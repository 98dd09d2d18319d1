import { addTerms, Bm25, zeroedScores } from './_bm25.ts';
import { operationTerms, phrases, requestCount, surfaceTerms } from './_analyze.ts';
import { bestCandidates, diversify } from './_diversify.ts';
import { GroupIndex } from './_groups.ts';
import { KeywordIndex, type KeywordPoints } from './_keyword_index.ts';
import { PhraseIndex } from './_phrase_index.ts';
import { SurfaceIndex } from './_surface_index.ts';
import { TermCache } from './_term_cache.ts';
import { verbSynonyms } from './_verbs.ts';
import type { AnalyzedQuery, AnalyzedTool, ToolRanker } from './ranker_types.ts';

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
      const groups = new GroupIndex(tools, docs, { k1, b });
      const grouped = groups.size < tools.length;

      // What a term adds to each tool — BM25 plus its keyword points — depends on the term and
      // the catalogue only, not on the rest of the query: computed on a term's first search
      // and kept, so a search is one pass over a short typed array per term.
      const contributions = new TermCache((term) => {
        const idf = bm25.idf(term);
        const unit = keywordWeight > 0 ? (keywordWeight * (k1 + 1) * idf) / topPoints : 0;
        const own = bm25.entries(term);
        return keywords.contributions(term, points, unit, own, (tf, i) => bm25.scoreOf(tf, i, idf));
      });

      // Word pairs in order and the words as written: their postings are found per key on its
      // first search, among the tools that hold its words, so neither costs an index build.
      const holders = (term: string) => bm25.postings(term);
      const pairs = new PhraseIndex(tools, { weights: fields, k1, b, holders });
      const surface = new SurfaceIndex(tools, { weights: fields, k1, b, stemmed: (term) => bm25.entries(term) });

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
          surface.accumulate([...new Set(surfaceTerms(query.text))].slice(0, MAX_SURFACE_WORDS), scores, surfaceWeight);
        }
        if (phraseWeight > 0) pairs.accumulate(new Set(phrases(query.text)), scores, phraseWeight);
        if (groupWeight > 0 && grouped) groups.lift(query.terms, scores, groupWeight);
        if (siblingWeight > 0 && taskStatement && grouped) {
          // One task in several steps mostly needs tools of one server: the best result's
          // siblings that match the task at all move up together.
          const [first] = bestCandidates(scores, 1);
          if (first !== undefined) {
            for (const i of groups.members(groups.groupOf[first]!))
              if (i !== first && scores[i]! > 0) scores[i]! *= 1 + siblingWeight;
          }
        }
        // For the re-ordering, what one term adds to one tool — only for a term the tool holds
        // (name, hint, description, parameters); a partial name match stays in the rest of
        // the score, undiscounted.
        if (diversity > 0 && query.terms.length > 1 && requests >= diversityMinRequests) {
          diversify(scores, { terms: postings, discount: diversity });
        }
        return scores;
      };
    },
  };
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

/** Query words matched as written at most, the bound `analyzeQuery` puts on a query's terms. */
const MAX_SURFACE_WORDS = 64;
