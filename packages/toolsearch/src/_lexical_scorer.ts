// The default ranker's scoring of one catalogue: what `lexicalRanker().prepare(tools)` builds.
// A class, not closures made per catalogue: its methods are one function for every index, so the
// code a first search of a new index runs is already compiled and tuned by the indexes before.
import { addTerms, Bm25, zeroedScores } from './_bm25.ts';
import { queryParts, requestCount } from './_analyze.ts';
import { bestCandidates, DIVERSITY_POOL, diversify, TopScores } from './_diversify.ts';
import { GroupIndex } from './_groups.ts';
import { KeywordIndex, type KeywordPoints } from './_keyword_index.ts';
import { PhraseIndex } from './_phrase_index.ts';
import { SurfaceIndex } from './_surface_index.ts';
import { TermCache, TermContributions } from './_term_cache.ts';
import { verbSynonyms } from './_verbs.ts';
import type { AnalyzedQuery, AnalyzedTool } from './ranker_types.ts';

/** Every setting of the default ranker, defaults applied (see `LexicalRankerOptions`). */
export interface LexicalSettings {
  points: KeywordPoints;
  fields: { name: number; hint: number; description: number; descriptionRest: number; parameters: number };
  k1: number;
  b: number;
  keywordWeight: number;
  groupWeight: number;
  diversity: number;
  diversityMinRequests: number;
  phraseWeight: number;
  siblingWeight: number;
  siblingMinTerms: number;
  feedbackWeight: number;
  feedbackDocs: number;
  feedbackTerms: number;
  synonymWeight: number;
  surfaceWeight: number;
}

/**
 * The default ranker over one catalogue: the indexes built once, and the scoring of a query.
 *
 * @example
 * ```ts
 * import { LexicalScorer } from './_lexical_scorer.ts';
 * import { analyzeQuery, analyzeTool } from './tool_index.ts';
 *
 * const points = { name: 10, nameMcp: 12, partial: 5, partialMcp: 6, hint: 4, description: 2 };
 * const fields = { name: 3, hint: 2, description: 1, descriptionRest: 0.5, parameters: 0.5 };
 * const scorer = new LexicalScorer([analyzeTool({ name: 'send_mail', description: 'Sends mail' })], {
 *   points, fields, k1: 2, b: 0.75, keywordWeight: 0.5, groupWeight: 0.5, diversity: 0.7, diversityMinRequests: 2,
 *   phraseWeight: 0.25, siblingWeight: 0, siblingMinTerms: 8, feedbackWeight: 0.2, feedbackDocs: 3, feedbackTerms: 10,
 *   synonymWeight: 0.5, surfaceWeight: 0.25,
 * });
 * scorer.score(analyzeQuery('send a mail')!); // Float64Array [score]
 * ```
 */
export class LexicalScorer {
  readonly #settings: LexicalSettings;
  readonly #size: number;
  /** Each tool's stemmed terms with their field weights (the BM25 document). */
  readonly #docs: Map<string, number>[];
  readonly #bm25: Bm25;
  readonly #keywords: KeywordIndex;
  readonly #groups: GroupIndex;
  readonly #grouped: boolean;
  readonly #pairs: PhraseIndex;
  readonly #surface: SurfaceIndex;
  /**
   * What a term adds to each tool — BM25 plus its keyword points — depends on the term and the
   * catalogue only, not on the rest of the query: computed on a term's first search and kept, so
   * a search is one pass over a short typed array per term.
   */
  readonly #contributions: TermCache;
  /** A term's contributions with, at `surfaceWeight`, those of the same word as written. */
  readonly #withWords: TermCache;

  constructor(tools: readonly AnalyzedTool[], settings: LexicalSettings) {
    const { fields, k1, b } = settings;
    this.#settings = settings;
    this.#size = tools.length;
    // One options object per field for every tool, not one per call.
    const name = { weight: fields.name };
    const hint = { weight: fields.hint };
    const parameters = { weight: fields.parameters };
    this.#docs = tools.map((t) => {
      const m = new Map<string, number>();
      addTerms(m, t.name.stems, name);
      addTerms(m, t.name.compounds, name);
      addTerms(m, t.hint, hint);
      const lead = t.descriptionLead.terms;
      addTerms(m, t.description, { weight: fields.description, to: lead });
      addTerms(m, t.description, { weight: fields.descriptionRest, from: lead });
      addTerms(m, t.parameters, parameters);
      return m;
    });
    const bm25 = new Bm25(this.#docs, { k1, b });
    this.#bm25 = bm25;
    this.#keywords = new KeywordIndex(tools);
    this.#groups = new GroupIndex(tools, {
      params: { k1, b },
      lengthOf: (i) => bm25.length(i),
      postings: (term) => bm25.entries(term),
    });
    this.#grouped = this.#groups.size < tools.length;
    this.#contributions = new TermCache((term) => this.#contributionsOf(term));
    // Word pairs in order and the words as written: their postings are found per key on its
    // first search, among the tools that hold its words, so neither costs an index build.
    const keywords = this.#keywords;
    this.#pairs = new PhraseIndex(tools, {
      weights: fields,
      k1,
      b,
      holders: (field, term) => keywords.holders(field, term),
    });
    this.#surface = new SurfaceIndex(tools, { weights: fields, k1, b, stemmed: (term) => bm25.entries(term) });
    this.#withWords = new TermCache((term) => this.#withWordOf(term));
  }

  /**
   * Every tool's score for the query, into `into` when it has a zeroed slot per tool.
   *
   * @param query The analyzed query.
   * @param into A zeroed array to fill (see `ToolRanker`).
   * @returns The scores, in catalogue order.
   */
  score(query: AnalyzedQuery, into?: Float64Array): Float64Array {
    const s = this.#settings;
    const scores = zeroedScores(into, this.#size);
    const taskStatement = query.terms.length >= s.siblingMinTerms;
    const requests = query.terms.length > 1 ? requestCount(query.text) : 1;
    // A list of distinct requests names each of its needs; one task in several steps leaves
    // some unsaid, which is where the expansion helps (and the list's re-ordering does not).
    const feedback = s.feedbackWeight > 0 && taskStatement && requests < s.diversityMinRequests;
    const parts = s.surfaceWeight > 0 || s.phraseWeight > 0 || s.synonymWeight > 0 ? queryParts(query.text) : undefined;
    const words = s.surfaceWeight > 0 ? [...new Set(parts!.words)].slice(0, MAX_SURFACE_WORDS) : [];
    // A query term that is also a word as written (most are: "weather", "odds") takes both in
    // one pass, its contributions kept together; the feedback, which reads the scores before
    // the words as written, keeps them apart.
    const merged = feedback || words.length === 0 ? NO_WORDS : new Set(words);
    const postings = this.#accumulateTerms(query.terms, merged, scores);
    if (s.synonymWeight > 0 && !taskStatement) {
      const added = synonymsOf(query.terms, parts!.operations);
      if (added.length) this.#accumulate(added, s.synonymWeight, scores);
    }
    if (feedback) {
      addFeedbackTerms(scores, {
        docs: this.#docs,
        bm25: this.#bm25,
        terms: query.terms,
        feedbackWeight: s.feedbackWeight,
        feedbackDocs: s.feedbackDocs,
        feedbackTerms: s.feedbackTerms,
      });
    }
    if (words.length) {
      const terms = new Set(query.terms);
      const rest = merged.size ? words.filter((w) => !(merged.has(w) && terms.has(w))) : words;
      this.#surface.accumulate(rest, scores, s.surfaceWeight);
    }
    if (s.phraseWeight > 0) this.#pairs.accumulate(new Set(parts!.pairs), scores, s.phraseWeight);
    const reorder = s.diversity > 0 && query.terms.length > 1 && requests >= s.diversityMinRequests;
    // The group lift's pass over every tool also finds the re-ordering's candidates.
    const top = reorder ? new TopScores(DIVERSITY_POOL) : undefined;
    let found = false;
    if (s.groupWeight > 0 && this.#grouped)
      found = this.#groups.lift(query.terms, scores, { weight: s.groupWeight, top });
    if (s.siblingWeight > 0 && taskStatement && this.#grouped) {
      this.#liftSiblings(scores);
      found = false;
    }
    // For the re-ordering, what one term adds to one tool — only for a term the tool holds
    // (name, hint, description, parameters); a partial name match stays in the rest of the
    // score, undiscounted.
    if (reorder)
      diversify(scores, { terms: postings, discount: s.diversity, candidates: found ? top!.indices() : undefined });
    return scores;
  }

  /**
   * Adds each query term's contributions into `scores`, with its words as written for a term
   * in `written`; returns them in the terms' order.
   */
  #accumulateTerms(terms: readonly string[], written: ReadonlySet<string>, scores: Float64Array): TermContributions[] {
    const postings: TermContributions[] = [];
    for (const term of terms) {
      const contributions = written.has(term) ? this.#withWords.get(term) : this.#contributions.get(term);
      const { docs, values } = contributions;
      for (let j = 0; j < docs.length; j++) scores[docs[j]!]! += values[j]!;
      postings.push(contributions);
    }
    return postings;
  }

  /** Adds each term's contributions into `scores`, times `weight`; returns them, in the terms' order. */
  #accumulate(terms: readonly string[], weight: number, scores: Float64Array): TermContributions[] {
    const postings: TermContributions[] = [];
    for (const term of terms) {
      const contributions = this.#contributions.get(term);
      const { docs, values } = contributions;
      for (let j = 0; j < docs.length; j++) scores[docs[j]!]! += weight * values[j]!;
      postings.push(contributions);
    }
    return postings;
  }

  /** The term's contributions with its word as written added in: a copy of its values. */
  #withWordOf(term: string): TermContributions {
    const own = this.#contributions.get(term);
    const values = Float64Array.from(own.values);
    this.#surface.addTo(term, { docs: own.docs, values, weight: this.#settings.surfaceWeight });
    return new TermContributions(own.docs, values, own.heldValues());
  }

  #contributionsOf(term: string): TermContributions {
    const { points, keywordWeight, k1 } = this.#settings;
    const bm25 = this.#bm25;
    const idf = bm25.idf(term);
    const topPoints = Math.max(points.name, points.nameMcp);
    const unit = keywordWeight > 0 ? (keywordWeight * (k1 + 1) * idf) / topPoints : 0;
    return this.#keywords.contributions(term, points, unit, bm25.entries(term), (tf, i) => bm25.scoreOf(tf, i, idf));
  }

  /**
   * One task in several steps mostly needs tools of one server: the best result's siblings that
   * match the task at all move up together.
   */
  #liftSiblings(scores: Float64Array): void {
    const [first] = bestCandidates(scores, 1);
    if (first === undefined) return;
    const lift = 1 + this.#settings.siblingWeight;
    for (const i of this.#groups.members(this.#groups.groupOf[first]!))
      if (i !== first && scores[i]! > 0) scores[i]! *= lift;
  }
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

const NO_WORDS: ReadonlySet<string> = new Set();
