import type { AnalyzedQuery, AsyncToolRanker } from './ranker_types.ts';

/** Turns texts into vectors (one per text, all of one length); may call a model over the network. */
export type EmbedFunction = (
  texts: readonly string[],
) => Promise<readonly (readonly number[])[]> | readonly (readonly number[])[];

/** Options of {@linkcode embeddingRanker}. */
export interface EmbeddingRankerOptions {
  /** The integrator's embedding function. */
  embed: EmbedFunction;
  /** Texts per `embed` call while the catalogue is embedded. @default 64 */
  batchSize?: number;
}

/**
 * A ranker by cosine similarity of embeddings, with the embedding function the integrator
 * supplies (an API, a local model; {@linkcode openAiEmbeddings} makes one for any
 * OpenAI-compatible `/v1/embeddings` endpoint). The catalogue is embedded once, on the first
 * search; each query is embedded when it is searched. Where an embedder exists, the
 * recommended setting is `hybridRanker([lexicalRanker(), embeddingRanker({ embed })])`: the
 * embeddings reach tools that share no word with the request, the lexical ranks keep exact
 * names and rare words.
 *
 * @param options The embedding function and batch size.
 * @returns An asynchronous ranker: `createToolIndex(tools, { ranker })` gives an index whose `search` returns a promise.
 * @throws {TypeError} If `embed` is not a function.
 *
 * @example
 * ```ts
 * import { createToolIndex, embeddingRanker, hybridRanker, lexicalRanker, openAiEmbeddings, type SearchableTool } from '@toolshed/toolsearch';
 * declare const tools: SearchableTool[];
 *
 * const embed = openAiEmbeddings({ baseUrl: 'https://api.openai.com/v1', model: 'text-embedding-3-small', apiKey: process.env.OPENAI_API_KEY ?? '' });
 * const ranker = hybridRanker([lexicalRanker(), embeddingRanker({ embed })]);
 * const hits = await createToolIndex(tools, { ranker }).search('send a chat message');
 * ```
 */
export function embeddingRanker(options: EmbeddingRankerOptions): AsyncToolRanker {
  if (typeof options?.embed !== 'function')
    throw new TypeError(`embeddingRanker needs an embed function, got ${typeof options?.embed}`);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 64));
  return {
    name: 'embedding',
    async: true,
    prepare(tools) {
      let vectors: Promise<Float64Array[]> | undefined;
      const embedAll = async (): Promise<Float64Array[]> => {
        const out: Float64Array[] = [];
        for (let i = 0; i < tools.length; i += batchSize) {
          const batch = tools.slice(i, i + batchSize).map((t) => t.text);
          const got = await options.embed(batch);
          if (!Array.isArray(got) || got.length !== batch.length) {
            throw new TypeError(
              `The embed function returned ${Array.isArray(got) ? got.length : typeof got} vectors for ${batch.length} texts; return one vector per text`,
            );
          }
          for (const v of got) out.push(normalized(v));
        }
        return out;
      };
      return async (query: AnalyzedQuery) => {
        vectors ??= embedAll().catch((e: unknown) => {
          vectors = undefined; // a failed call (rate limit, network) may succeed next time
          throw e;
        });
        const docs = await vectors;
        const [raw] = await options.embed([query.text]);
        if (!raw) throw new TypeError('The embed function returned no vector for the query');
        const q = normalized(raw);
        const scores = new Float64Array(docs.length);
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i]!;
          if (d.length !== q.length)
            throw new TypeError(
              `Embedding lengths differ: the query has ${q.length} dimensions, tool ${i} has ${d.length}`,
            );
          let dot = 0;
          for (let j = 0; j < q.length; j++) dot += q[j]! * d[j]!;
          // Cosine in [-1, 1] moved to (0, 1], so every tool is a candidate and order is kept.
          scores[i] = (dot + 1) / 2 + Number.EPSILON;
        }
        return scores;
      };
    },
  };
}

function normalized(v: readonly number[]): Float64Array {
  const out = Float64Array.from(v);
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}
