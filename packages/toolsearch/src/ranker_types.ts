import type { NameParts } from './_analyze.ts';

/** A tool as an index sees it: any catalogue of tools, not only a session's. */
export interface SearchableTool {
  name: string;
  description: string;
  /** Extra words to match on (Toolshed's `searchHint`). */
  searchHint?: string | undefined;
  /** The input's JSON Schema; its property names and descriptions are searched too. */
  inputSchema?: Record<string, unknown> | undefined;
  /**
   * Tools of one group are searched also as a whole (a family, an MCP server, an API).
   * @default the MCP server of an `mcp__server__tool` name, else the part before `__`, else the server the description names (`(server: x)`, `x MCP server`), else the tool alone
   */
  group?: string | undefined;
}

/** A tool after analysis: what a ranker indexes. */
export interface AnalyzedTool {
  readonly tool: SearchableTool;
  /** The name's words and stems, and whether it is an MCP tool. */
  readonly name: NameParts;
  /** Stemmed content words of the search hint. */
  readonly hint: readonly string[];
  /** Stemmed content words of the description, those of its first sentence first (see `descriptionLead`). */
  readonly description: readonly string[];
  /** Stemmed content words of the parameters' names and descriptions. */
  readonly parameters: readonly string[];
  /**
   * The content words of the hint, description and parameters as written (lower-case, not
   * stemmed; stopwords and one-letter words left out), in order: what `hint`, `description` and
   * `parameters` hold before stemming.
   */
  readonly words: {
    readonly hint: readonly string[];
    readonly description: readonly string[];
    readonly parameters: readonly string[];
  };
  /**
   * How many of `description`'s terms, and of `words.description`, come from the description's
   * first sentence (they come first): what the tool does, where the rest says how to call it.
   */
  readonly descriptionLead: { readonly terms: number; readonly words: number };
  /** The tool's group (see {@linkcode SearchableTool.group}). */
  readonly group: string;
  /** Name, hint, description and parameters as one text (for embedding rankers). */
  readonly text: string;
}

/** A query after analysis. */
export interface AnalyzedQuery {
  /** The query as given, without `+` marks. */
  readonly text: string;
  /** Stemmed content words, required ones included, without duplicates. */
  readonly terms: readonly string[];
  /** Lower-case words marked `+` that every result's name must contain. */
  readonly required: readonly string[];
}

/**
 * Ranks tools. `prepare` runs once per catalogue and returns the scorer; the scorer gives a
 * score per tool (same order as the catalogue), where a score above 0 means the tool matches.
 *
 * The index passes the scorer `scores`: a zeroed array of one slot per tool, which the scorer
 * may fill and return instead of allocating its own (the index reads it before it calls the
 * scorer again). A scorer that ignores it and returns its own array is just as right; over a
 * large catalogue a fresh array per query costs more than the search of a few keywords.
 */
export interface ToolRanker {
  readonly name: string;
  prepare(tools: readonly AnalyzedTool[]): (query: AnalyzedQuery, scores?: Float64Array) => ArrayLike<number>;
}

/** A ranker whose scorer is asynchronous (an embedding model behind a network call, say). */
export interface AsyncToolRanker {
  readonly name: string;
  readonly async: true;
  prepare(tools: readonly AnalyzedTool[]): (query: AnalyzedQuery) => Promise<ArrayLike<number>>;
}
