import { getTokenizer } from '@anthropic-ai/tokenizer';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/** Counts the tokens of a text with one tokenizer. */
export interface TokenCounter {
  /** A short key for the JSON: `claude`, `o200k`. */
  readonly name: string;
  /** Which tokenizer, from which npm package, and how exact it is. */
  readonly note: string;
  count(text: string): number;
  /** Frees the tokenizer's native memory; the counter must not be used after. */
  free(): void;
}

/**
 * The two tokenizers the token suite counts with, each built once and reused for every count:
 * `@anthropic-ai/tokenizer` (the Claude 2 BPE, the only Claude tokenizer shipped in an npm
 * package, approximate for Claude 3 and later) and `gpt-tokenizer`'s o200k_base (GPT-4o, o-series).
 *
 * @returns The counters; call `free()` on each when done.
 *
 * @example
 * ```ts
 * const counters = createTokenCounters();
 * counters.map((c) => c.count(JSON.stringify(session.toolsFor('anthropic'))));
 * for (const c of counters) c.free();
 * ```
 */
export function createTokenCounters(): TokenCounter[] {
  // getTokenizer() builds a tiktoken instance from a 1.7 MB rank table: once, not per count
  // (the package's own countTokens builds and frees one on every call).
  const claude = getTokenizer();
  let freed = false;
  return [
    {
      name: 'claude',
      note: '@anthropic-ai/tokenizer 0.0.4 (the Claude 2 tokenizer; approximate for Claude 3+ models, whose tokenizer is not published)',
      count: (text) => {
        if (freed) throw new Error('The Claude tokenizer was freed; create new counters');
        return claude.encode(text.normalize('NFKC'), 'all').length;
      },
      free: () => {
        if (!freed) claude.free();
        freed = true;
      },
    },
    {
      name: 'o200k',
      note: 'gpt-tokenizer 3 o200k_base (GPT-4o, GPT-4.1, o-series)',
      count: (text) => countO200k(text),
      free: () => {},
    },
  ];
}
