import { addTerms, Bm25, zeroedScores } from './_bm25.ts';
import { isStopword } from './_analyze.ts';
import type { AnalyzedQuery, ToolRanker } from './ranker_types.ts';

/** Options of {@linkcode bm25Ranker}. */
export interface Bm25RankerOptions {
  /** Term saturation. @default 1.2 */
  k1?: number;
  /** Length normalization. @default 0.75 */
  b?: number;
}

/**
 * A plain BM25 ranker, the baseline the bench compares the default ranker against: one bag of
 * lower-case words from the name, description and parameter names, split on anything that is
 * not a letter or digit, English stopwords dropped (as any search library's analyzer does); no
 * stemming, no camelCase splitting, no field weights, no name awareness.
 *
 * @param options BM25's constants.
 * @returns The ranker, for `createToolIndex(tools, { ranker })`.
 *
 * @example
 * ```ts
 * import { bm25Ranker, createToolIndex, type SearchableTool } from '@toolshed/toolsearch';
 * declare const tools: SearchableTool[];
 *
 * const baseline = createToolIndex(tools, { ranker: bm25Ranker() });
 * baseline.search('weather forecast'); // [{ name, score }, …]
 * ```
 */
export function bm25Ranker(options: Bm25RankerOptions = {}): ToolRanker {
  const params = { k1: options.k1 ?? 1.2, b: options.b ?? 0.75 };
  return {
    name: 'bm25',
    prepare(tools) {
      const docs = tools.map((t) => {
        const m = new Map<string, number>();
        const names = Object.keys((t.tool.inputSchema as { properties?: object } | undefined)?.properties ?? {});
        addTerms(m, plainWords(`${t.tool.name} ${t.tool.description} ${names.join(' ')}`));
        return m;
      });
      const bm25 = new Bm25(docs, params);
      return (query: AnalyzedQuery, into?: Float64Array) => {
        const scores = zeroedScores(into, tools.length);
        bm25.accumulate([...new Set(plainWords(query.text))], scores);
        return scores;
      };
    },
  };
}

function plainWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !isStopword(w));
}
