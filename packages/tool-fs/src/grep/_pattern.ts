import type { RE2JS } from 're2js';
import { GrepQueryError, type GrepQuery } from './_types.ts';

/** A Grep pattern compiled for the JS engine. */
export interface CompiledPattern {
  /** Whether `text` holds a match (`^` and `$` match at every line's ends). */
  test(text: string): boolean;
  /** Each match in `text`, in order: where it starts and ends (UTF-16 indexes). */
  matches(text: string): Iterable<{ start: number; end: number }>;
  /**
   * `literal`: plain text (or alternatives of it), matched by JavaScript's own RegExp, which takes
   * time in proportion to the text for those; `re2`: anything else, matched in time linear in
   * the text whatever the pattern (RE2, as ripgrep's own engine).
   */
  readonly engine: 'literal' | 're2';
}

/**
 * Compiles a ripgrep-syntax pattern for the JS engine. ripgrep's regex engine takes time linear
 * in the text for any pattern; JavaScript's RegExp backtracks, so a pattern such as `(a+)+$`
 * takes seconds on a line of thirty letters and hours on a longer one, with nothing able to stop
 * it. So only plain text (or alternatives of it, `TODO|FIXME`), which cannot backtrack, goes to
 * RegExp; every other pattern to RE2 (the `re2js` port), whose syntax is close to ripgrep's:
 * inline flags anywhere (`(?i)`, `(?s:…)`), `[[:alpha:]]`, `\pL`, `\x{e9}`; no lookaround or
 * backreferences, which ripgrep refuses too.
 *
 * @param query The pattern and the `-i` and `multiline` switches.
 * @returns The compiled pattern (RE2 is loaded on the first pattern that needs it).
 * @throws {GrepQueryError} For a pattern that does not compile, or one that matches a line
 *   break without `multiline`, saying what to do instead.
 *
 * @example
 * ```ts
 * import { compilePattern } from './_pattern.ts';
 *
 * (await compilePattern({ pattern: '(?i)todo', ignoreCase: false, multiline: false })).test('a TODO'); // true
 * (await compilePattern({ pattern: '(a+)+$', ignoreCase: false, multiline: false })).engine; // 're2'
 * ```
 */
export async function compilePattern(
  query: Pick<GrepQuery, 'pattern' | 'ignoreCase' | 'multiline'>,
): Promise<CompiledPattern> {
  const { pattern } = query;
  if (!query.multiline && /(^|[^\\])(\\\\)*\\n/.test(pattern)) {
    throw new GrepQueryError(
      `The regex ${JSON.stringify(pattern)} matches a line break ("\\n"), which only works with multiline: true.`,
    );
  }
  const inline = /^\(\?([ims]+)\)/.exec(pattern);
  const literal = literalAlternatives(inline ? pattern.slice(inline[0].length) : pattern);
  if (literal !== undefined) {
    const ignoreCase = query.ignoreCase || (inline?.[1]!.includes('i') ?? false);
    return regExpPattern(new RegExp(literal.map(escapeRegExp).join('|'), ignoreCase ? 'giu' : 'gu'));
  }
  // Loaded on first use: most searches are plain text, and the CLI starts without it.
  const { RE2JS: RE2 } = await import('re2js');
  let flags = RE2.MULTILINE;
  if (query.ignoreCase) flags |= RE2.CASE_INSENSITIVE;
  if (query.multiline) flags |= RE2.DOTALL;
  let re: RE2JS;
  try {
    re = RE2.compile(pattern, flags);
  } catch (e) {
    // re2js quotes the pattern with the flags it was given written in front (`(?m)foo(`).
    const message = (e as Error).message.replace(/^error parsing regexp: /, '').replace(/`\(\?[imsU]+\)/, '`');
    const hint = /\(\?[a-zA-Z-]*[:)]/.test(pattern)
      ? ' Inline flags may be i, m, s and U, as (?i) or (?i:…); set -i or multiline instead of (?x).'
      : /\\[1-9]|\(\?<?[=!]/.test(pattern)
        ? ' Lookaround and backreferences are not supported (ripgrep refuses them too); match the text itself.'
        : '';
    throw new GrepQueryError(`The regex ${JSON.stringify(pattern)} is invalid: ${message}.${hint}`);
  }
  return re2Pattern(re);
}

/** The characters a ripgrep pattern gives a meaning to; escaped, each stands for itself. */
const SPECIAL = new Set('\\^$.|?*+()[]{}');

/**
 * The alternatives of a pattern that is plain text, or alternatives of plain text (`a|b`), as
 * the strings they match; undefined for any other pattern. An escaped punctuation character
 * (`\.`, `\(`) is itself; any other escape (`\d`, `\b`, `\x41`) makes it a regex.
 */
function literalAlternatives(source: string): string[] | undefined {
  const parts: string[] = [''];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined || /[0-9A-Za-z\s]/.test(next)) return undefined;
      parts[parts.length - 1] += next;
      i++;
    } else if (c === '|') parts.push('');
    else if (SPECIAL.has(c)) return undefined;
    else parts[parts.length - 1] += c;
  }
  return parts.length > 0 && parts.every((p) => p !== '') ? parts : undefined;
}

function escapeRegExp(text: string): string {
  // Only the characters RegExp's Unicode mode lets be escaped.
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

function regExpPattern(re: RegExp): CompiledPattern {
  return {
    engine: 'literal',
    test(text) {
      re.lastIndex = 0;
      return re.test(text);
    },
    *matches(text) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length };
    },
  };
}

function re2Pattern(re: RE2JS): CompiledPattern {
  return {
    engine: 're2',
    test: (text) => re.test(text),
    *matches(text) {
      const m = re.matcher(text);
      while (m.find()) yield { start: m.start(), end: m.end() };
    },
  };
}
