import { charBytes, type PatternNode } from './_pattern_syntax.ts';
import { GrepQueryError } from './_types.ts';

/** ripgrep 13's `--regex-size-limit` default (its error: "Compiled regex exceeds size limit of 104857600 bytes"). */
export const RG_SIZE_LIMIT = 100 * 1024 * 1024;
/**
 * Copies of a pattern that counted repetitions may make in all, for the JS engine: RE2's own
 * limit for one repetition (`{1000}`, nested counts multiplied), applied to the whole pattern.
 */
export const MAX_REPEAT_COPIES = 1000;

/**
 * Refuses a pattern whose compiled program would be too large, before it is compiled.
 *
 * Why by hand: re2js compiles `\w` to one instruction whatever its size, so its `programSize()`
 * says nothing of what ripgrep refuses, and it is only known after compiling. ripgrep refuses a
 * pattern whose program passes 100 MB: a counted repetition copies its pattern that many times,
 * and a Unicode class (`\w`, `\pL`) compiles to a UTF-8 automaton of ~100 KB, so `\w{900}` is
 * refused and `a{100000}` is not. That is estimated here from the parsed pattern with the sizes
 * measured on ripgrep 13 (see `BYTES` in `_pattern_syntax.ts`). Then the JS engine's own bound:
 * RE2's matcher, once its DFA cache overflows, steps every copy on every character (~30 ns
 * each: `\w{1000}\d` took 28 s on a 1 MB line), so the copies counted repetitions make are
 * limited to {@linkcode MAX_REPEAT_COPIES} in all (`.{1000}.{1000}` too, which ripgrep takes).
 *
 * @param pattern The pattern as written (quoted in the error).
 * @param alts The pattern parsed ({@linkcode parsePattern}).
 * @throws {GrepQueryError} Naming the limit, the largest repetition and what to write instead.
 *
 * @example
 * ```ts
 * import { checkPatternSize } from './_pattern_size.ts';
 * import { parsePattern } from './_pattern_syntax.ts';
 *
 * checkPatternSize('\\w{1,50}', parsePattern('\\w{1,50}', false)); // fine
 * ```
 */
export function checkPatternSize(pattern: string, alts: PatternNode[][]): void {
  const parts: { node: PatternNode; bytes: number; copies: number }[] = [];
  let bytes = 0;
  let copies = 0;
  const measure = (node: PatternNode, outermost: boolean): { bytes: number; copies: number } => {
    switch (node.type) {
      case 'char':
        return { bytes: charBytes(node), copies: 1 };
      case 'set':
        return { bytes: node.weight, copies: 1 };
      case 'assert':
      case 'flags':
        return { bytes: 50, copies: 0 };
      case 'group': {
        const sum = { bytes: 0, copies: 0 };
        for (const seq of node.alts)
          for (const n of seq) {
            const m = measure(n, outermost);
            sum.bytes += m.bytes;
            sum.copies += m.copies;
          }
        return sum;
      }
      case 'repeat': {
        const counted = (node.max ?? node.min + 1) > 1 && /\}\??$/.test(pattern.slice(node.start, node.end));
        const sub = measure(node.sub, outermost && !counted);
        const times = counted ? Math.max(node.max ?? node.min + 1, 1) : 1;
        const m = { bytes: sub.bytes * times, copies: sub.copies * times };
        if (counted && outermost) parts.push({ node, ...m });
        return m;
      }
    }
  };
  for (const seq of alts)
    for (const n of seq) {
      const m = measure(n, true);
      bytes += m.bytes;
    }
  for (const part of parts) copies += part.copies;
  const largest = (key: 'bytes' | 'copies') => parts.reduce((a, b) => (b[key] > a[key] ? b : a), parts[0]!);
  if (bytes > RG_SIZE_LIMIT && parts.length > 0) {
    const part = largest('bytes');
    throw new GrepQueryError(
      `The regex ${JSON.stringify(pattern)} is too large: it would compile to about ${mb(bytes)} MB, over ripgrep's limit of ${mb(RG_SIZE_LIMIT)} MB (ripgrep refuses it too: "Compiled regex exceeds size limit"). Its largest part is ${quote(pattern, part.node)} (about ${mb(part.bytes)} MB): a count copies its pattern that many times, and \\w, \\d, \\s, \\pL and their negations are Unicode classes of thousands of states each. Use a smaller count (\\w{1,50}), + or * (\\w+), or an ASCII class ([a-zA-Z0-9_] for \\w, [0-9] for \\d).`,
    );
  }
  if (bytes > RG_SIZE_LIMIT) {
    throw new GrepQueryError(
      `The regex ${JSON.stringify(pattern)} is too large: it would compile to about ${mb(bytes)} MB, over ripgrep's limit of ${mb(RG_SIZE_LIMIT)} MB. Search for fewer alternatives at a time.`,
    );
  }
  if (copies > MAX_REPEAT_COPIES) {
    const part = largest('copies');
    throw new GrepQueryError(
      `The regex ${JSON.stringify(pattern)} is too large for the JS engine: its counted repetitions make ${copies} copies of their pattern, over its limit of ${MAX_REPEAT_COPIES} in all (each copy is stepped on every character: a long line would take minutes). Its largest part is ${quote(pattern, part.node)} (${part.copies} copies). Use smaller counts, or + or * (.+ for .{1000}).`,
    );
  }
}

function mb(bytes: number): string {
  return String(Math.round(bytes / (1024 * 1024)));
}

function quote(pattern: string, node: PatternNode): string {
  return JSON.stringify(pattern.slice(node.start, node.end));
}
