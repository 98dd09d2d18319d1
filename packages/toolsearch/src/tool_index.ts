import { leadEnd, nameParts, schemaText, splitWords, stem, terms, termsAndWords, type NameParts } from './_analyze.ts';
import { lexicalRanker } from './lexical_ranker.ts';
import type { AnalyzedQuery, AnalyzedTool, AsyncToolRanker, SearchableTool, ToolRanker } from './ranker_types.ts';

export type { AnalyzedQuery, AnalyzedTool, AsyncToolRanker, SearchableTool, ToolRanker } from './ranker_types.ts';

/** One result of {@linkcode ToolIndex.search}: a tool's name and its score (higher is better). */
export interface ToolSearchHit {
  name: string;
  score: number;
}

/** Options of {@linkcode ToolIndex.search}. */
export interface IndexSearchOptions {
  /** At most this many hits. @default 5 */
  maxResults?: number;
}

/** A searchable catalogue with a synchronous ranker. */
export interface ToolIndex {
  /** How many tools are indexed. */
  readonly size: number;
  /**
   * Ranks the catalogue for a query; `+word` requires `word` in the name.
   *
   * @returns Best first; empty for an empty query or when nothing matches.
   */
  search(query: string, options?: IndexSearchOptions): ToolSearchHit[];
}

/** A searchable catalogue with an asynchronous ranker. */
export interface AsyncToolIndex {
  readonly size: number;
  search(query: string, options?: IndexSearchOptions): Promise<ToolSearchHit[]>;
}

/** Options of {@linkcode createToolIndex}. */
export interface ToolIndexOptions<R extends ToolRanker | AsyncToolRanker = ToolRanker> {
  /** How tools are scored. @default lexicalRanker() */
  ranker?: R;
  /**
   * Where a catalogue keeps each tool's group (its server, API or plugin) when not in `group`:
   * the name of a string field of the entries (`'server'`), or a function of the entry. An
   * entry whose field is empty falls back to `group` and the default grouping.
   * @default the `group` field
   */
  groupField?: string | ((tool: SearchableTool) => string | undefined);
}

/**
 * Indexes a catalogue of tools for search: name words (camelCase, snake_case, kebab-case and
 * `mcp__server__tool` split), search hint, description and parameters, with light stemming.
 * The default ranker combines Claude Code's field weights with BM25 (see
 * {@linkcode lexicalRanker}); pass another, an embedding ranker or a hybrid, as `ranker`.
 *
 * @param tools The catalogue; names should be unique (a later duplicate is ignored).
 * @param options The ranker.
 * @returns The index; with an asynchronous ranker its `search` returns a promise.
 * @throws {TypeError} If `tools` is not an array or an entry has no string name.
 *
 * @example
 * ```ts
 * import { createToolIndex } from '@toolshed/toolsearch';
 *
 * const index = createToolIndex([
 *   { name: 'mcp__slack__send_message', description: 'Post a message to a channel', inputSchema: { type: 'object', properties: { channel: {} } } },
 *   { name: 'Read', description: 'Read a file from disk', searchHint: 'open view file contents' },
 * ]);
 * index.search('slack send', { maxResults: 3 }); // [{ name: 'mcp__slack__send_message', score: … }]
 * ```
 */
export function createToolIndex(tools: readonly SearchableTool[], options?: ToolIndexOptions<ToolRanker>): ToolIndex;
export function createToolIndex(
  tools: readonly SearchableTool[],
  options: ToolIndexOptions<AsyncToolRanker>,
): AsyncToolIndex;
export function createToolIndex(
  tools: readonly SearchableTool[],
  options: ToolIndexOptions<ToolRanker | AsyncToolRanker> = {},
): ToolIndex | AsyncToolIndex {
  if (!Array.isArray(tools)) throw new TypeError(`createToolIndex takes an array of tools, got ${typeof tools}`);
  const groupField = options.groupField;
  if (groupField !== undefined && typeof groupField !== 'string' && typeof groupField !== 'function') {
    throw new TypeError(`groupField must be a field name or a function, got ${typeof groupField}`);
  }
  const analyzed: AnalyzedTool[] = [];
  const seen = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (!tool || typeof tool.name !== 'string' || tool.name.length === 0) {
      throw new TypeError(`Tool ${i} of the catalogue has no name: give every tool a non-empty string "name"`);
    }
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    const named =
      groupField === undefined
        ? undefined
        : typeof groupField === 'function'
          ? groupField(tool)
          : (tool as unknown as Record<string, unknown>)[groupField];
    analyzed.push(analyzeTool(typeof named === 'string' && named ? { ...tool, group: named } : tool));
  }
  const ranker = options.ranker ?? lexicalRanker();
  const exact = exactNames(analyzed);

  if ('async' in ranker && ranker.async) {
    let scorer: ((query: AnalyzedQuery) => Promise<ArrayLike<number>>) | undefined;
    return {
      size: analyzed.length,
      async search(query, searchOptions) {
        const parsed = analyzeQuery(query);
        if (!parsed) return [];
        scorer ??= ranker.prepare(analyzed);
        return topHits(analyzed, await scorer(parsed), parsed, exact, maxResultsOf(searchOptions));
      },
    };
  }
  const scorer = (ranker as ToolRanker).prepare(analyzed);
  // One array of scores for every search, zeroed before each: a new one per query at 20 000
  // tools cost a third of the ranking (fresh pages, and the collector freeing them). A search
  // is synchronous and reads the scores before it returns, so no two searches share it.
  let scores: Float64Array | undefined;
  return {
    size: analyzed.length,
    search(query, searchOptions) {
      const parsed = analyzeQuery(query);
      if (!parsed) return [];
      scores = scores ? scores.fill(0) : new Float64Array(analyzed.length);
      return topHits(analyzed, scorer(parsed, scores), parsed, exact, maxResultsOf(searchOptions));
    },
  };
}

/**
 * Analyzes one tool as the index does (exported for rankers that are tested on their own).
 *
 * @param tool The tool.
 * @returns Its analyzed fields.
 *
 * @example
 * ```ts
 * import { analyzeTool } from '@toolshed/toolsearch';
 *
 * analyzeTool({ name: 'mcp__github__create_issue', description: 'Opens an issue' }).name.words; // ['github', 'create', 'issue']
 * ```
 */
export function analyzeTool(tool: SearchableTool): AnalyzedTool {
  const description = typeof tool.description === 'string' ? tool.description : '';
  const hint = typeof tool.searchHint === 'string' ? tool.searchHint : '';
  const params = schemaText(tool.inputSchema);
  const name = nameParts(tool.name);
  let text: string | undefined;
  const hintTerms = termsAndWords(hint);
  const descriptionTerms = descriptionTermsOf(description);
  const parameterTerms = termsAndWords(params);
  return {
    tool,
    name,
    hint: hintTerms.terms,
    description: descriptionTerms.terms,
    parameters: parameterTerms.terms,
    words: { hint: hintTerms.words, description: descriptionTerms.words, parameters: parameterTerms.words },
    descriptionLead: descriptionTerms.lead,
    group: typeof tool.group === 'string' && tool.group ? tool.group : groupOfName(tool.name, name, description),
    // Joined when asked for (an embedding ranker reads it once per tool; the lexical one never).
    get text() {
      return (text ??= [name.words.join(' '), hint, description, params].filter(Boolean).join('\n'));
    },
  };
}

/** A description's terms and words, its first sentence's first, and how many of each that sentence gave. */
function descriptionTermsOf(description: string) {
  const cut = leadEnd(description);
  const lead = termsAndWords(description.slice(0, cut));
  if (cut >= description.length) return { ...lead, lead: { terms: lead.terms.length, words: lead.words.length } };
  const rest = termsAndWords(description.slice(cut));
  return {
    terms: lead.terms.concat(rest.terms),
    words: lead.words.concat(rest.words),
    lead: { terms: lead.terms.length, words: lead.words.length },
  };
}

/**
 * The most distinct words of a query that are searched; later ones are ignored.
 *
 * @example
 * ```ts
 * import { analyzeQuery, MAX_QUERY_TERMS } from '@toolshed/toolsearch';
 *
 * const longRequest = 'find the tool that can '.repeat(40);
 * analyzeQuery(longRequest)!.terms.length <= MAX_QUERY_TERMS; // true
 * ```
 */
export const MAX_QUERY_TERMS = 64;

/**
 * Analyzes a query as the index does: `+word` marks a required name word (a `+` before digits
 * only, a phone number, does not); the rest are stemmed content words.
 *
 * @param query The query.
 * @returns The analyzed query (its first {@linkcode MAX_QUERY_TERMS} distinct words), or undefined when it has no word to search for.
 *
 * @example
 * ```ts
 * import { analyzeQuery } from '@toolshed/toolsearch';
 *
 * analyzeQuery('+slack send messages'); // { text: 'slack send messages', terms: ['slack', 'send', 'message'], required: ['slack'] }
 * ```
 */
export function analyzeQuery(query: string): AnalyzedQuery | undefined {
  if (typeof query !== 'string') return undefined;
  const required: string[] = [];
  const plain: string[] = [];
  for (const token of query.trim().split(/\s+/)) {
    if (!token) continue;
    // A name word starts "+slack" or "+mcp__x"; "+4915123577723" or "+1" in a request is a phone
    // number, which no name holds: searched as text, not required.
    if (token.startsWith('+') && /\p{L}/u.test(token.slice(1))) {
      const words = splitWords(token.slice(1));
      required.push(...words);
      plain.push(token.slice(1));
    } else {
      plain.push(token);
    }
  }
  const text = plain.join(' ');
  // Required words count as terms even when they are stopwords: the user asked for them.
  const all = [...required.map(stem), ...terms(text)];
  // A bound on the work one query can cause: no request needs more distinct words than this,
  // and a pasted log or a runaway model would otherwise touch every posting of the index.
  const unique = [...new Set(all)].slice(0, MAX_QUERY_TERMS);
  if (unique.length === 0) return undefined;
  return { text, terms: unique, required: [...new Set(required)] };
}

/**
 * Each tool's name in lower case, and its words joined by spaces (an MCP tool's also without the
 * server's words); a key two tools share names neither.
 */
function exactNames(tools: readonly AnalyzedTool[]): Map<string, number> {
  const exact = new Map<string, number>();
  const shared = new Set<string>();
  const add = (key: string, i: number) => {
    if (!key || shared.has(key)) return;
    if (exact.has(key) && exact.get(key) !== i) {
      exact.delete(key);
      shared.add(key);
      return;
    }
    exact.set(key, i);
  };
  tools.forEach((t, i) => add(t.tool.name.toLowerCase(), i));
  tools.forEach((t, i) => {
    add(t.name.words.join(' '), i);
    if (t.name.isMcp && t.name.server !== undefined)
      add(t.name.words.slice(splitWords(t.name.server).length).join(' '), i);
  });
  return exact;
}

function groupOfName(toolName: string, parts: NameParts, description: string): string {
  if (parts.server !== undefined) return `mcp:${parts.server}`;
  const at = toolName.indexOf('__');
  if (at > 0) return `prefix:${toolName.slice(0, at)}`;
  // Catalogues that flatten several servers often keep the server only in the description.
  const named =
    /\(server:\s*([\p{L}\p{N}][\p{L}\p{N}._-]*)\s*\)/iu.exec(description) ??
    /\b([\p{L}\p{N}][\p{L}\p{N}._-]*) MCP server\b/iu.exec(description);
  if (named && !/^(the|an?|this|that|your|our|my|remote|local)$/i.test(named[1]!))
    return `mcp:${named[1]!.toLowerCase()}`;
  return `tool:${toolName}`;
}

function maxResultsOf(options: IndexSearchOptions | undefined): number {
  const n = options?.maxResults ?? 5;
  if (!Number.isFinite(n) || n < 1) throw new RangeError(`maxResults must be a positive number, got ${n}`);
  return Math.floor(n);
}

function satisfiesRequired(tool: AnalyzedTool, required: readonly string[]): boolean {
  return required.every((word) => {
    const stemmed = stem(word);
    // The whole name as well as its words: "+mcp" and "+mcp__slack" hold "mcp", which an MCP
    // tool's words leave out.
    return (
      tool.name.stems.includes(stemmed) ||
      tool.name.words.some((w) => w.includes(word)) ||
      tool.tool.name.toLowerCase().includes(word)
    );
  });
}

function topHits(
  tools: readonly AnalyzedTool[],
  scores: ArrayLike<number>,
  query: AnalyzedQuery,
  exact: ReadonlyMap<string, number>,
  maxResults: number,
): ToolSearchHit[] {
  // A query that is a tool's name — as written, or its words ("list directory" for
  // `list_directory`) — finds that tool first, whatever the ranker thinks.
  let named = exact.get(query.text.trim().toLowerCase()) ?? exact.get(splitWords(query.text).join(' '));
  if (named !== undefined && !satisfiesRequired(tools[named]!, query.required)) named = undefined;
  // Bounded insertion keeps the best `maxResults` without sorting every match: a long query
  // over a large catalogue matches thousands of tools.
  const best: { i: number; score: number }[] = [];
  let top = 0;
  let floor = 0;
  for (let i = 0; i < tools.length; i++) {
    const score = scores[i] ?? 0;
    // Below the current last of a full list: out, unless a tie (broken by name) might let it in.
    if (!(score >= floor) || !(score > 0) || i === named) continue;
    if (score > top) top = score;
    if (best.length === maxResults && !better(score, i, best[best.length - 1]!, tools)) continue;
    if (query.required.length && !satisfiesRequired(tools[i]!, query.required)) continue;
    let at = best.length;
    while (at > 0 && better(score, i, best[at - 1]!, tools)) at--;
    best.splice(at, 0, { i, score });
    if (best.length > maxResults) best.pop();
    if (best.length === maxResults) floor = best[best.length - 1]!.score;
  }
  const hits = best.map(({ i, score }) => ({ name: tools[i]!.tool.name, score }));
  if (named !== undefined) {
    hits.unshift({ name: tools[named]!.tool.name, score: Math.max(top, scores[named] ?? 0) + 1 });
    if (hits.length > maxResults) hits.pop();
  }
  return hits;
}

/** Higher score first; ties by name, so results do not depend on catalogue order. */
function better(score: number, i: number, than: { i: number; score: number }, tools: readonly AnalyzedTool[]): boolean {
  if (score !== than.score) return score > than.score;
  return tools[i]!.tool.name < tools[than.i]!.tool.name;
}
