/**
 * `@toolshed/toolsearch`: deferred tool loading and the ToolSearch tool. Deferred tools stay out
 * of the request (only their names are in the system prompt) until the model loads them with
 * ToolSearch, which saves most of the tokens tool definitions cost. The ranking is exported on its
 * own, for any catalogue.
 *
 * ```ts
 * import { createSession, type Family } from '@toolshed/core';
 * import { toolSearch, createToolIndex, type SearchableTool } from '@toolshed/toolsearch';
 * declare const families: Family[];
 * declare const myCatalogue: SearchableTool[];
 *
 * const session = await createSession({ cwd: process.cwd(), families: [toolSearch({ mode: 'always' }), ...families] });
 * const system = session.deferredNotice();           // names the deferred tools
 * const tools = session.toolsFor('anthropic');       // ToolSearch + tools not deferred
 * await session.run([{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'select:WebFetch' } }]);
 * session.toolsFor('anthropic');                     // now with WebFetch
 *
 * createToolIndex(myCatalogue).search('send slack message', { maxResults: 5 }); // [{ name, score }]
 * ```
 *
 * @module
 */
export { toolSearch, type ToolSearchOptions } from './family.ts';
export {
  createToolSearchTool,
  toolSearchTool,
  type ToolSearchOutput,
  type ToolSearchToolOptions,
} from './tool_search_tool.ts';
export {
  createDeferralPolicy,
  TOOL_SEARCH_NAME,
  type DeferralMode,
  type DeferralPolicyOptions,
} from './deferral_policy.ts';
export {
  analyzeQuery,
  analyzeTool,
  createToolIndex,
  MAX_QUERY_TERMS,
  type AnalyzedQuery,
  type AnalyzedTool,
  type AsyncToolIndex,
  type AsyncToolRanker,
  type SearchableTool,
  type ToolIndex,
  type ToolIndexOptions,
  type ToolRanker,
  type ToolSearchHit,
  type IndexSearchOptions,
} from './tool_index.ts';
export { lexicalRanker, type FieldWeights, type KeywordPoints, type LexicalRankerOptions } from './lexical_ranker.ts';
export { bm25Ranker, type Bm25RankerOptions } from './bm25_ranker.ts';
export { embeddingRanker, type EmbedFunction, type EmbeddingRankerOptions } from './embedding_ranker.ts';
export { hybridRanker, type HybridRankerOptions } from './hybrid_ranker.ts';
export { openAiEmbeddings, type OpenAiEmbeddingsOptions } from './openai_embeddings.ts';
