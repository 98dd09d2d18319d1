import type { RE2JS } from 're2js';
import { checkPatternSize } from './_pattern_size.ts';
import { type PatternNode, parsePattern } from './_pattern_syntax.ts';
import { GrepQueryError, type GrepQuery } from './_types.ts';
import { unicodeWordBoundaries } from './_word_boundary.ts';

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
  /**
   * Whether `test` on a whole text is true whenever it is true on one of its lines, so that a
   * text without a match can be skipped at once. False for a pattern that anchors at the text's
   * ends (`\A`, `\z`, `(?-m)^`), which ripgrep anchors at each line's ends.
   */
  readonly wholeTextTest: boolean;
  /**
   * A bound on what one character of text may cost this pattern, in nanoseconds, whatever the
   * text (measured; see {@linkcode worstNsPerChar}): the JS engine matches a text on its own
   * thread only when the text times this is small, and hands longer ones to a worker.
   */
  readonly nsPerChar: number;
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
  const key = `${query.ignoreCase ? 'i' : ''}${query.multiline ? 'm' : ''}:${query.pattern}`;
  const known = compiledRe2.get(key);
  if (known !== undefined) {
    // Most recently used last, so that the first key is the one to drop.
    compiledRe2.delete(key);
    compiledRe2.set(key, known);
    return known;
  }
  const compiled = await compileAfresh(query);
  // Only RE2's: its compiled program holds no state between calls (a RegExp's `lastIndex` does, and costs microseconds).
  if (compiled.engine === 're2') {
    compiledRe2.set(key, compiled);
    if (compiledRe2.size > COMPILED_KEPT) compiledRe2.delete(compiledRe2.keys().next().value!);
  }
  return compiled;
}

/**
 * RE2 patterns compiled lately, by flags and pattern: compiling one took 0.57–1.1 ms for three ordinary patterns here
 * (timed with a script), and a Grep call of the JS engine compiles its pattern twice (once to check the input, once
 * to search), and an agent often runs the same pattern again.
 */
const compiledRe2 = new Map<string, CompiledPattern>();
const COMPILED_KEPT = 32;

async function compileAfresh(query: Pick<GrepQuery, 'pattern' | 'ignoreCase' | 'multiline'>): Promise<CompiledPattern> {
  const { pattern } = query;
  const alts = parsePattern(pattern, query.ignoreCase);
  if (!query.multiline) refuseLineBreak(pattern, alts);
  if (/(^|[^\\])(\\\\)*\\[<>]/.test(pattern)) {
    throw new GrepQueryError(
      `The regex ${JSON.stringify(pattern)} uses \\< or \\>, which ripgrep reads as the start or end of a word (and older ripgrep refuses); write \\b for a word boundary, or < and > without the backslash for the characters.`,
    );
  }
  const inline = /^\(\?([ims]+)\)/.exec(pattern);
  const literal = literalAlternatives(inline ? pattern.slice(inline[0].length) : pattern);
  if (literal !== undefined) {
    const ignoreCase = query.ignoreCase || (inline?.[1]!.includes('i') ?? false);
    return regExpPattern(new RegExp(literal.map(escapeRegExp).join('|'), ignoreCase ? 'giu' : 'gu'), {
      nsPerChar: worstNsPerChar({ literalChars: literal.join('').length, ignoreCase }),
    });
  }
  checkPatternSize(pattern, alts);
  const boundaries = unicodeWordBoundaries(pattern, alts, { multiline: query.multiline });
  // Loaded on first use: most searches are plain text, and the CLI starts without it.
  const { RE2JS: RE2 } = await import('re2js');
  let flags = RE2.MULTILINE;
  if (query.ignoreCase) flags |= RE2.CASE_INSENSITIVE;
  if (query.multiline) flags |= RE2.DOTALL;
  if (boundaries.lookbehind) flags |= RE2.LOOKBEHINDS;
  const translated = unicodeClasses(boundaries.pattern, pattern);
  let re: RE2JS;
  try {
    re = RE2.compile(translated, flags);
  } catch (translatedError) {
    // The complaint about the pattern as written, not as translated by unicodeClasses.
    let e = translatedError;
    try {
      RE2.compile(pattern, flags);
    } catch (original) {
      e = original;
    }
    // re2js quotes the pattern with the flags it was given written in front (`(?m)foo(`).
    const message = (e as Error).message.replace(/^error parsing regexp: /, '').replace(/`\(\?[imsU]+\)/, '`');
    const hint = /\(\?[a-zA-Z-]*[:)]/.test(pattern)
      ? ' Inline flags may be i, m, s and U, as (?i) or (?i:…); set -i or multiline instead of (?x).'
      : /\\[1-9]|\(\?<?[=!]/.test(pattern)
        ? ' Lookaround and backreferences are not supported (ripgrep refuses them too); match the text itself.'
        : '';
    throw new GrepQueryError(`The regex ${JSON.stringify(pattern)} is invalid: ${message}.${hint}`);
  }
  // ripgrep matches line by line: \A, \z and (?-m)^ anchor at each line's ends there, at the text's here.
  return re2Pattern(re, {
    wholeTextTest: query.multiline || !/\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m/.test(pattern),
    endGroups: boundaries.endGroups,
    nsPerChar: worstNsPerChar({ re2ProgramSize: re.programSize() }),
  });
}

/**
 * ripgrep refuses a pattern that holds a line break as such (`\n`, `\x0A`, `[\n]`) unless it
 * searches across lines ("the literal '\n' is not allowed in a regex"); a class holding more than
 * the line break (`[\na]`, `\s`) it takes, without the line break.
 */
function refuseLineBreak(pattern: string, alts: PatternNode[][]): void {
  const find = (nodes: PatternNode[]): PatternNode | undefined => {
    for (const n of nodes) {
      if ((n.type === 'char' && n.cp === 10) || (n.type === 'set' && n.newlineOnly)) return n;
      const inner = n.type === 'group' ? find(n.alts.flat()) : n.type === 'repeat' ? find([n.sub]) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  const n = find(alts.flat());
  if (n) {
    throw new GrepQueryError(
      `The regex ${JSON.stringify(pattern)} matches a line break (${JSON.stringify(pattern.slice(n.start, n.end))}), which ripgrep refuses when it searches line by line ("the literal '\\n' is not allowed in a regex"); set multiline: true to match across lines.`,
    );
  }
}

/** The characters a ripgrep pattern gives a meaning to; escaped, each stands for itself. */
const SPECIAL = new Set('\\^$.|?*+()[]{}');
/**
 * The characters every ripgrep version reads escaped as themselves (its meta characters); ripgrep
 * 13 refuses any other escape, and ripgrep 14 reads `\<` and `\>` as word boundaries.
 */
const ESCAPABLE = new Set('\\.+*?()|[]{}^$#&-~');

/**
 * Rust's Unicode `\w` in RE2 class syntax: Alphabetic (letters, letter numbers, and marks and the
 * circled and squared Latin letters of Other_Alphabetic), marks, decimal digits, connector
 * punctuation and the joiners. And its `\s`: White_Space.
 */
const WORD =
  '\\p{L}\\p{M}\\p{Nd}\\p{Pc}\\p{Nl}\\x{200C}\\x{200D}\\x{24B6}-\\x{24E9}\\x{1F130}-\\x{1F149}\\x{1F150}-\\x{1F169}\\x{1F170}-\\x{1F189}';
const SPACE = '\\t-\\r\\x{85}\\p{Z}';

/**
 * The pattern with `\w`, `\d`, `\s` and their negations written as the Unicode classes ripgrep
 * reads them as (RE2 reads them as ASCII: `^\w+$` would miss `café`). A small scan by hand: it
 * only needs to tell escapes and class brackets apart, which no library exposes for RE2 syntax.
 * Also `\u0041`, `\u{41}` and `\U00000041`, which ripgrep reads and RE2 does not, as `\x{41}`.
 * @param pattern The pattern to translate.
 * @param original The pattern as written, quoted in errors.
 * @throws {GrepQueryError} For `\W` or `\S` inside a class, which RE2 cannot write in Unicode; a
 *   nested class or a class operation (`[a[b]]`, `[\w--\d]`, `&&`, `~~`), which RE2 reads as
 *   characters; and `\Q…\E`, which ripgrep refuses.
 */
function unicodeClasses(pattern: string, original: string): string {
  const quoted = JSON.stringify(original);
  let out = '';
  let depth = 0; // nesting of [...] (Rust allows [a[b]])
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      i++;
      const code =
        next === 'u' || next === 'U' ? /^\{([0-9a-fA-F]{1,8})\}|^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 1)) : null;
      if (code && (next === 'u' || code[1] !== undefined || /^[0-9a-fA-F]{8}/.test(pattern.slice(i + 1)))) {
        const hex = code[1] ?? (next === 'U' ? pattern.slice(i + 1, i + 9) : code[0]);
        out += `\\x{${hex}}`;
        i += code[1] !== undefined ? code[0].length : next === 'U' ? 8 : 4;
        continue;
      }
      if (next === 'Q') {
        throw new GrepQueryError(
          `The regex ${quoted} uses \\Q…\\E, which ripgrep does not support; escape each special character instead (a\\.b for a.b).`,
        );
      }
      if (depth === 0) {
        out +=
          { w: `[${WORD}]`, W: `[^${WORD}]`, d: '\\p{Nd}', D: '\\P{Nd}', s: `[${SPACE}]`, S: `[^${SPACE}]` }[next] ??
          `\\${next}`;
      } else if (next === 'W' || next === 'S') {
        throw new GrepQueryError(
          `The regex ${quoted} has \\${next} inside a class, which the JS engine cannot match as ripgrep does (Unicode); write the class negated with \\${next.toLowerCase()} inside, as [^\\${next.toLowerCase()}], or use ripgrep.`,
        );
      } else {
        out += { w: WORD, d: '\\p{Nd}', D: '\\P{Nd}', s: SPACE }[next] ?? `\\${next}`;
      }
      continue;
    }
    if (c === '[') {
      const posix = depth > 0 ? /^\[:\^?[a-z]+:\]/.exec(pattern.slice(i)) : null;
      if (posix) {
        out += posix[0];
        i += posix[0].length - 1;
        continue;
      }
      if (depth > 0) throw classOperation(quoted, 'a class inside a class');
      depth++;
      out += c;
      // A ] right after [ or [^ is the character itself.
      const lead = /^\^?\]?/.exec(pattern.slice(i + 1))![0];
      out += lead;
      i += lead.length;
      continue;
    }
    if (c === ']' && depth > 0) depth--;
    const pair = pattern.slice(i, i + 2);
    if (depth > 0 && (pair === '&&' || pair === '--' || pair === '~~')) throw classOperation(quoted, pair);
    out += c;
  }
  return out;
}

function classOperation(quoted: string, what: string): GrepQueryError {
  return new GrepQueryError(
    `The regex ${quoted} has ${what === 'a class inside a class' ? what : `the class operation ${what}`}, which ripgrep reads as a union or set operation of classes and the JS engine's RE2 as plain characters; write the class out (for [\\d--5], [0-46-9]), or use alternatives ((?:a|b)).`,
  );
}

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
      if (next === undefined || !ESCAPABLE.has(next)) return undefined;
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

/**
 * The worst a character of text may cost a pattern, in nanoseconds, from measures on a 2-core
 * machine (Node 20) with a margin of about two. RE2 (`re2js`), once its DFA gives up, steps every
 * instruction of its program on every character: up to ~50 ns each (`\w{1,850}\d`, 1702
 * instructions, 60-80 µs a character over a line of letters; `a{1000}[0-9]` ~10 µs). RegExp over
 * literal alternatives: ~1-2 ns for one word (up to 14 ns before V8 has optimised it), ~0.05 ns
 * more per character of the alternatives; with `-i` and thousands of alternatives V8 leaves its
 * compiled code for something that grows with the square of the pattern (2 000 words: 70 µs a
 * character, 16 000: 2.7 ms).
 */
function worstNsPerChar(of: { re2ProgramSize: number } | { literalChars: number; ignoreCase: boolean }): number {
  if ('re2ProgramSize' in of) return 100 * Math.max(of.re2ProgramSize, 8);
  const n = of.literalChars;
  return 10 + 0.1 * n + (of.ignoreCase ? 2e-4 * n * n : 0);
}

function regExpPattern(re: RegExp, { nsPerChar }: { nsPerChar: number }): CompiledPattern {
  return {
    engine: 'literal',
    wholeTextTest: true,
    nsPerChar,
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

function re2Pattern(
  re: RE2JS,
  options: { wholeTextTest: boolean; endGroups: string[]; nsPerChar: number },
): CompiledPattern {
  const { wholeTextTest, endGroups, nsPerChar } = options;
  return {
    engine: 're2',
    wholeTextTest,
    nsPerChar,
    test: (text) => re.test(text),
    *matches(text) {
      const m = re.matcher(text);
      if (endGroups.length === 0) {
        while (m.find()) yield { start: m.start(), end: m.end() };
        return;
      }
      // A boundary written as the character after it (see unicodeWordBoundaries): the match ends
      // before that character, and the next one is looked for from there.
      for (let from = 0; from <= text.length && m.find(from); ) {
        const start = m.start();
        let end = m.end();
        for (const g of endGroups) if (m.start(g) >= 0) end = m.start(g);
        yield { start, end };
        from = end > start ? end : end + (text.codePointAt(end)! > 0xffff ? 2 : 1);
      }
    },
  };
}
