import {
  buildTool,
  type AnyTool,
  type CatalogEntry,
  type JsonSchema,
  type ToolContext,
  type ToolDefinition,
} from '@toolshed/core';
import { closestNames, toolInputJsonSchema } from '@toolshed/core/internal';
import {
  MAX_RESULTS_LIMIT,
  TOOL_SEARCH_JSON_SCHEMA,
  toolSearchInputSchema,
  type ToolSearchInput,
} from './_input_schema.ts';
import { TOOL_SEARCH_NAME } from './deferral_policy.ts';
import type { AsyncToolRanker, SearchableTool, ToolRanker } from './ranker_types.ts';
import { analyzeQuery, createToolIndex, type ToolSearchHit } from './tool_index.ts';

/** Options of {@linkcode createToolSearchTool}. */
export interface ToolSearchToolOptions {
  /** How keyword queries are ranked. @default lexicalRanker() */
  ranker?: ToolRanker | AsyncToolRanker;
}

/** What one ToolSearch call found: the `data` of its result. */
export interface ToolSearchOutput {
  query: string;
  /** `select` for `select:A,B`, `search` for keywords. */
  kind: 'select' | 'search';
  /** Definitions of the tools this call loaded (or that were loaded already), best first. */
  tools: ToolDefinition[];
  /** Names this call loaded. */
  loaded: string[];
  /** Names found that were loaded before this call. */
  alreadyLoaded: string[];
  /** Names found that are not deferred: they were in the tool list all along. */
  alreadyAvailable: string[];
  /** `select:` names that are no tool, each with the closest names. */
  notFound: { name: string; suggestions: string[] }[];
  /** Tools found whose code failed to load (their family's import failed). */
  failed: string[];
  /** How many tools were searchable (deferred). */
  searched: number;
  /**
   * For a task statement (eight or more content words): the best result's siblings — deferred
   * tools of the same group (MCP server) that this call did not return, not loaded — named so
   * the model can load the next steps' tools with `select:` instead of searching again.
   */
  siblings?: { group: string; names: string[] };
  /** Set when nothing was found: what the model can do instead. */
  hint?: string;
}

const DESCRIPTION = `Fetches the full definitions of deferred tools so they can be called. Deferred tools are named in the system prompt but their definitions (description and parameters) are not in your tool list; calling one before loading it may fail or be guessed wrong.

Query forms:
- "select:Read,Edit" loads those tools by exact name (use it when you know the names from the deferred list).
- "slack send message" ranks the deferred tools by keywords and loads the best matches (up to max_results, default 5).
- "+slack send" requires "slack" in the tool's name and ranks the matches by the other words.

The result lists each tool's full definition (name, description, JSON Schema of its parameters). A loaded tool stays in your tool list for the rest of the session: call it directly afterwards, do not search for it again.`;

/**
 * Builds the ToolSearch tool: `select:A,B` loads tools by name, other queries rank the session's
 * deferred tools and load the best; the result holds their full definitions.
 *
 * @param options The ranker for keyword queries.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import { createSession, type AnyTool } from '@toolshed/core';
 * import { createToolSearchTool, embeddingRanker, hybridRanker, lexicalRanker, type EmbedFunction } from '@toolshed/toolsearch';
 * declare const embed: EmbedFunction;
 * declare const cwd: string;
 * declare const myTools: AnyTool[];
 *
 * const tool = createToolSearchTool({ ranker: hybridRanker([lexicalRanker(), embeddingRanker({ embed })]) });
 * const session = await createSession({ cwd, tools: [tool, ...myTools] });
 * ```
 */
export function createToolSearchTool(options: ToolSearchToolOptions = {}): AnyTool {
  // One index per catalogue: the same tool (a family object reused, or `toolSearchTool`) can
  // serve several sessions, whose pools differ while their versions may be alike.
  const caches = new WeakMap<ToolContext['tools'], IndexCache>();
  const cacheOf = (ctx: ToolContext): IndexCache => {
    let cache = caches.get(ctx.tools);
    if (!cache) caches.set(ctx.tools, (cache = new IndexCache(options.ranker)));
    return cache;
  };
  return buildTool({
    name: TOOL_SEARCH_NAME,
    searchHint: 'find and load deferred tools by keyword or exact name',
    description: DESCRIPTION,
    inputSchema: toolSearchInputSchema as AnyTool['inputSchema'],
    inputJSONSchema: TOOL_SEARCH_JSON_SCHEMA as unknown as JsonSchema,
    alwaysLoad: true,
    onlyWhenDeferring: true,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    // The definitions are what the model needs; a persisted preview of them would be useless.
    maxResultSizeChars: Infinity,
    validateInput(input: ToolSearchInput) {
      const query = input.query.trim();
      if (query === '') {
        return {
          result: false,
          message:
            'The query is empty. Give keywords ("send slack message") or load tools by name ("select:Read,Edit").',
        };
      }
      if (/^select:\s*$/i.test(query)) {
        return {
          result: false,
          message: 'select: names no tool. Write the names after it, comma-separated, as in "select:Read,Edit".',
        };
      }
      return { result: true };
    },
    getToolUseSummary: (input: ToolSearchInput) => input.query,
    mapResult: (output: ToolSearchOutput) => formatOutput(output),
    async call(input: ToolSearchInput, ctx: ToolContext) {
      const query = input.query.trim();
      const select = /^select:(.*)$/is.exec(query);
      if (select) return { data: await selectTools(query, select[1]!, ctx, cacheOf(ctx)) };
      return { data: await searchTools(query, input.max_results ?? 5, ctx, cacheOf(ctx)) };
    },
  });
}

function emptyOutput(query: string, kind: ToolSearchOutput['kind'], searched: number): ToolSearchOutput {
  return {
    query,
    kind,
    tools: [],
    loaded: [],
    alreadyLoaded: [],
    alreadyAvailable: [],
    notFound: [],
    failed: [],
    searched,
  };
}

function searchable(ctx: ToolContext): CatalogEntry[] {
  return ctx.tools.list().filter((e) => e.deferred && e.name !== TOOL_SEARCH_NAME);
}

async function selectTools(
  query: string,
  list: string,
  ctx: ToolContext,
  cache: IndexCache,
): Promise<ToolSearchOutput> {
  // Commas, and spaces too: no tool name holds a space (the providers forbid it), and a model
  // that writes "select:Read Edit" means two tools.
  const names = [...new Set(list.split(/[\s,]+/).filter(Boolean))];
  const out = emptyOutput(query, 'select', cache.deferred(ctx).length);
  const wanted: CatalogEntry[] = [];
  // The whole pool only for a name that is no tool's as written: a select of known names costs
  // a look-up per name, not a pass over a pool of thousands.
  let all: readonly CatalogEntry[] | undefined;
  for (const name of names) {
    // Exact name or alias first; a model that writes "read" for "Read" means Read.
    const entry = ctx.tools.get(name) ?? uniqueCaseInsensitive((all ??= ctx.tools.list()), name);
    if (!entry) {
      out.notFound.push({
        name,
        suggestions: closestNames(
          name,
          (all ??= ctx.tools.list()).map((e) => e.name),
          { max: 3 },
        ),
      });
    } else if (!entry.deferred) {
      out.alreadyAvailable.push(entry.name);
    } else if (!wanted.some((w) => w.name === entry.name)) {
      wanted.push(entry);
    }
  }
  await loadInto(out, wanted, ctx, cache, true);
  if (!out.tools.length && !out.alreadyAvailable.length) out.hint = nothingFoundHint(ctx, cache);
  return out;
}

function uniqueCaseInsensitive(entries: readonly CatalogEntry[], name: string): CatalogEntry | undefined {
  const lower = name.toLowerCase();
  const matches = entries.filter((e) => e.name.toLowerCase() === lower);
  return matches.length === 1 ? matches[0] : undefined;
}

async function searchTools(
  query: string,
  maxResults: number,
  ctx: ToolContext,
  cache: IndexCache,
): Promise<ToolSearchOutput> {
  const current = cache.current(ctx);
  const out = emptyOutput(query, 'search', current.size);
  if (current.size === 0) {
    out.hint =
      'No tools are deferred in this session: every tool is already in your tool list, so there is nothing to load.';
    return out;
  }
  const parsed = analyzeQuery(query);
  if (!parsed) {
    // Stopwords, punctuation or symbols only: a ranking would come back empty without saying why.
    out.hint = `${quoted(query)} has no word to search for (only stopwords, punctuation or symbols). Use words that name what the tool does ("send slack message"), or load by name with "select:<name>".`;
    return out;
  }
  const hits = await current.search(query, Math.min(maxResults, MAX_RESULTS_LIMIT));
  await loadInto(
    out,
    hits.map((h) => current.entry(h.name) ?? ctx.tools.get(h.name)).filter((e): e is CatalogEntry => e !== undefined),
    ctx,
    cache,
    false,
  );
  if (!out.tools.length) out.hint = nothingFoundHint(ctx, cache, query);
  else if (parsed.terms.length >= TASK_STATEMENT_TERMS) {
    const group = current.groupOf(out.tools[0]!.name);
    const returned = new Set(hits.map((h) => h.name));
    const names = group ? current.members(group).filter((n) => !returned.has(n)) : [];
    if (group && names.length)
      out.siblings = { group: group.replace(/^(mcp|family):/, ''), names: names.slice(0, MAX_SIBLINGS) };
  }
  return out;
}

/** Content words from which a query reads as a task in several steps. */
const TASK_STATEMENT_TERMS = 8;
/** Sibling names shown at most. */
const MAX_SIBLINGS = 15;

async function loadInto(
  out: ToolSearchOutput,
  entries: readonly CatalogEntry[],
  ctx: ToolContext,
  cache: IndexCache,
  /** Whether the entries' `loaded` is current (just looked up) or the cached list's. */
  fresh: boolean,
): Promise<void> {
  if (!entries.length) return;
  const before = new Map(entries.map((e) => [e.name, fresh ? e.loaded : cache.isLoaded(ctx, e.name)]));
  const definitions = await ctx.tools.load(entries.map((e) => e.name));
  cache.markLoaded(definitions.map((d) => d.name));
  const got = new Map(definitions.map((d) => [d.name, d]));
  for (const entry of entries) {
    const definition = got.get(entry.name);
    if (!definition) {
      out.failed.push(entry.name);
      continue;
    }
    out.tools.push(definition);
    (before.get(entry.name) ? out.alreadyLoaded : out.loaded).push(entry.name);
  }
}

/** Deferred tools a no-match names at most. */
const MAX_HINT_NAMES = 30;

function nothingFoundHint(ctx: ToolContext, cache: IndexCache, query?: string): string {
  // The cached deferred list, and a fresh look-up of each name not known to be loaded until
  // enough unloaded ones are found: the steps grow with the names shown, not with the pool.
  const deferred = cache.deferred(ctx);
  const names: string[] = [];
  let more = false;
  for (const entry of deferred) {
    if (cache.isLoaded(ctx, entry.name)) continue;
    if (names.length === MAX_HINT_NAMES) {
      more = true;
      break;
    }
    names.push(entry.name);
  }
  const shown = names.join(', ');
  const tail = more ? `, and more (${deferred.length} deferred in all)` : '';
  const required =
    query && /(^|\s)\+\S/.test(query)
      ? ' A "+word" must appear in the tool\'s name; drop the "+" to search descriptions too.'
      : '';
  return names.length
    ? `Try other keywords, or load by name with "select:<name>".${required} Deferred tools not yet loaded: ${shown}${tail}.`
    : 'Every deferred tool is already loaded; call it directly.';
}

/** The deferred tools' index as one search sees it. */
interface CurrentIndex {
  readonly size: number;
  entry(name: string): CatalogEntry | undefined;
  /** The search group of a tool (its searchGroup, MCP server or family). */
  groupOf(name: string): string | undefined;
  /** The deferred tools of a group, by name. */
  members(group: string): readonly string[];
  search(query: string, maxResults: number): ToolSearchHit[] | Promise<ToolSearchHit[]>;
}

/**
 * The index over the deferred tools, kept beside the pool: while the pool's catalogue version
 * is unchanged a search neither lists the pool nor compares it (which at 20 000 tools cost 30
 * times the ranking); when it changes, or the catalogue has no version, the deferred tools are
 * listed and the index rebuilt only if they differ.
 */
class IndexCache {
  readonly #ranker: ToolRanker | AsyncToolRanker | undefined;
  #version: number | undefined;
  #key: string | undefined;
  #entries: readonly CatalogEntry[] = [];
  /**
   * Names seen loaded. A pool never unloads a tool, so these need no look-up again; whether any
   * other is loaded changes without a new catalogue version (a direct call loads it), so it is
   * looked up fresh.
   */
  #loaded = new Set<string>();
  /** Built on the first search of these entries: a session that only selects never builds it. */
  #current: CurrentIndex | undefined;

  constructor(ranker: ToolRanker | AsyncToolRanker | undefined) {
    this.#ranker = ranker;
  }

  /** The deferred tools (but ToolSearch), as listed at the current catalogue version; their `loaded` may be stale. */
  deferred(ctx: ToolContext): readonly CatalogEntry[] {
    const version = ctx.tools.version;
    if (this.#key !== undefined && typeof version === 'number' && version === this.#version) return this.#entries;
    const entries = searchable(ctx);
    const key = entries.map((e) => `${e.name}\u0001${e.description.length}\u0001${e.tool ? 1 : 0}`).join('\u0002');
    if (key !== this.#key) {
      this.#current = undefined;
      this.#loaded = new Set();
      this.#key = key;
    }
    this.#entries = entries;
    this.#version = typeof version === 'number' ? version : undefined;
    return entries;
  }

  /** Whether a tool is loaded: known, or looked up in the pool (and then known if it is). */
  isLoaded(ctx: ToolContext, name: string): boolean {
    if (this.#loaded.has(name)) return true;
    const loaded = ctx.tools.get(name)?.loaded === true;
    if (loaded) this.#loaded.add(name);
    return loaded;
  }

  markLoaded(names: readonly string[]): void {
    for (const name of names) this.#loaded.add(name);
  }

  current(ctx: ToolContext): CurrentIndex {
    const entries = this.deferred(ctx);
    return (this.#current ??= this.#build(entries));
  }

  #build(entries: readonly CatalogEntry[]): CurrentIndex {
    const tools = entries.map(searchableOf);
    const byName = new Map(entries.map((e) => [e.name, e]));
    const groups = new Map<string, string>();
    const members = new Map<string, string[]>();
    for (const tool of tools) {
      const server = /^mcp__(.+?)__/.exec(tool.name)?.[1];
      const group = tool.group ?? (server ? `mcp:${server}` : undefined);
      if (!group) continue;
      groups.set(tool.name, group);
      const list = members.get(group);
      if (list) list.push(tool.name);
      else members.set(group, [tool.name]);
    }
    const ranker = this.#ranker;
    let search: CurrentIndex['search'];
    if (ranker && 'async' in ranker && ranker.async) {
      const index = createToolIndex(tools, { ranker });
      search = (q, n) => index.search(q, { maxResults: n });
    } else {
      const index = createToolIndex(tools, ranker ? { ranker: ranker as ToolRanker } : {});
      search = (q, n) => index.search(q, { maxResults: n });
    }
    return {
      size: entries.length,
      entry: (name) => byName.get(name),
      groupOf: (name) => groups.get(name),
      members: (group) => members.get(group) ?? [],
      search,
    };
  }
}

function searchableOf(entry: CatalogEntry): SearchableTool {
  let inputSchema: JsonSchema | undefined;
  try {
    inputSchema = entry.tool ? toolInputJsonSchema(entry.tool) : undefined;
  } catch {
    inputSchema = undefined; // a schema that cannot be converted still has a name and description
  }
  return {
    name: entry.name,
    description: entry.description,
    searchHint: entry.searchHint,
    inputSchema,
    // The tool's own group (the MCP bridge gives the server), else MCP tools by the server in
    // their name, others by family.
    group: entry.searchGroup || (entry.isMcp ? undefined : `family:${entry.family}`),
  };
}

/** A query in quotes for the model, cut short: echoing a huge query back would cost its tokens twice. */
function quoted(query: string): string {
  return JSON.stringify(query.length > 200 ? `${query.slice(0, 200)}…` : query);
}

/**
 * Each definition's line, rendered once: the pool keeps one definition object per tool, and a
 * large schema costs more to stringify than to rank (weakly held, so it goes with the pool).
 */
const renderedLines = new WeakMap<ToolDefinition, string>();

function functionLine(def: ToolDefinition): string {
  let line = renderedLines.get(def);
  if (line === undefined) {
    line = `<function>${JSON.stringify({ description: def.description, name: def.name, parameters: def.inputSchema })}</function>`;
    renderedLines.set(def, line);
  }
  return line;
}

/** The text the model reads. */
function formatOutput(out: ToolSearchOutput): string {
  const lines: string[] = [];
  const what = out.kind === 'select' ? `for ${quoted(out.query)}` : `matching ${quoted(out.query)}`;
  if (out.tools.length) {
    const loaded = out.loaded.length ? `Loaded ${out.loaded.join(', ')}` : '';
    const already = out.alreadyLoaded.length
      ? `${loaded ? '; ' : ''}${out.alreadyLoaded.join(', ')} ${out.alreadyLoaded.length > 1 ? 'were' : 'was'} loaded already`
      : '';
    lines.push(
      `Found ${out.tools.length} tool${out.tools.length > 1 ? 's' : ''} ${what}. ${loaded}${already}. ${out.tools.length > 1 ? 'They are' : 'It is'} in your tool list for the rest of the session: call ${out.tools.length > 1 ? 'them' : 'it'} directly.`,
    );
    lines.push('<functions>');
    for (const def of out.tools) lines.push(functionLine(def));
    lines.push('</functions>');
  } else if (out.kind === 'search') {
    lines.push(
      `No deferred tool matches ${quoted(out.query)} (searched ${out.searched} deferred tool${out.searched === 1 ? '' : 's'}).`,
    );
  } else if (!out.alreadyAvailable.length) {
    lines.push(`No tool was loaded ${what}.`);
  }
  if (out.alreadyAvailable.length) {
    lines.push(
      `${out.alreadyAvailable.join(', ')} ${out.alreadyAvailable.length > 1 ? 'are' : 'is'} not deferred: already in your tool list, call ${out.alreadyAvailable.length > 1 ? 'them' : 'it'} directly.`,
    );
  }
  for (const miss of out.notFound) {
    lines.push(
      `No tool is named ${quoted(miss.name)}.${miss.suggestions.length ? ` Did you mean ${miss.suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''}`,
    );
  }
  if (out.siblings) {
    lines.push(
      `Other tools of ${out.siblings.group}, not loaded, for the task's other steps: ${out.siblings.names.join(', ')}. Load the ones you need with "select:<name>,<name>".`,
    );
  }
  if (out.failed.length)
    lines.push(
      `Could not load ${out.failed.join(', ')}: the code of ${out.failed.length > 1 ? 'their families' : 'its family'} failed to import (see the session's notices).`,
    );
  if (out.hint) lines.push(out.hint);
  return lines.join('\n');
}

/**
 * The ToolSearch tool with the default ranker; `toolSearch()` puts it in the session.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { toolSearchTool } from '@toolshed/toolsearch';
 * import { webTools } from '@toolshed/tool-web';
 *
 * const session = await createSession({ cwd: process.cwd(), tools: [toolSearchTool], families: [webTools()] });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'select:WebFetch' } }]);
 * ```
 */
export const toolSearchTool: AnyTool = createToolSearchTool();
