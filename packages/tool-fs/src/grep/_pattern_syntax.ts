/**
 * What a character can be, for word boundaries: a word character (Rust's Unicode `\w`), or any
 * other character or the edge of the line ("non-word").
 */
export interface CharKinds {
  word: boolean;
  other: boolean;
}

/** One element of a parsed ripgrep pattern, with where it is in the pattern (UTF-16 indexes). */
export type PatternNode = { start: number; end: number } & (
  | { type: 'char'; cp: number; fold: boolean }
  | { type: 'set'; kinds: CharKinds; weight: number; newlineOnly: boolean }
  | { type: 'assert'; what: '^' | '$' | 'A' | 'z' | 'b' | 'B' }
  | { type: 'flags' }
  | { type: 'group'; alts: PatternNode[][] }
  | { type: 'repeat'; sub: PatternNode; min: number; max: number | undefined }
);

/**
 * Rust's Unicode `\w` (Alphabetic, marks, decimal digits, connector punctuation, the joiners),
 * as a JavaScript class: whether one character is a word character.
 */
const WORD_CHAR =
  /^[\p{L}\p{M}\p{Nd}\p{Pc}\p{Nl}\u200C\u200D\u{24B6}-\u{24E9}\u{1F130}-\u{1F149}\u{1F150}-\u{1F169}\u{1F170}-\u{1F189}]$/u;
const BOTH: CharKinds = { word: true, other: true };
const WORD: CharKinds = { word: true, other: false };
const OTHER: CharKinds = { word: false, other: true };

/**
 * Approximate bytes ripgrep 13 compiles an element to, measured with `rg` (the count at which
 * `(?:X){n}` passes its 100 MB limit): Unicode classes compile to UTF-8 automata of thousands of states.
 */
const BYTES = {
  char: 50,
  folded: 160,
  dot: 1200,
  d: 6600,
  D: 19300,
  w: 116600,
  W: 107400,
  s: 1100,
  S: 2530,
  p: 100000,
};
const ESCAPED_SETS: Record<string, [CharKinds, number]> = {
  d: [WORD, BYTES.d],
  D: [BOTH, BYTES.D],
  w: [WORD, BYTES.w],
  W: [OTHER, BYTES.W],
  s: [OTHER, BYTES.s],
  S: [BOTH, BYTES.S],
};
const CONTROL: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };
const WORD_POSIX = new Set(['alpha', 'alnum', 'digit', 'upper', 'lower', 'word', 'xdigit']);
const OTHER_POSIX = new Set(['space', 'blank', 'cntrl']);
const WORD_PROPERTIES = new Set(['L', 'Letter', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'M', 'Mn', 'Mc', 'Me', 'Nd', 'Pc']);
const OTHER_PROPERTIES = new Set(['Z', 'Zs', 'Zl', 'Zp']);

/** Whether a code point is a word character as ripgrep's `\w` and `\b` read it. */
export function isWordChar(cp: number): boolean {
  return WORD_CHAR.test(String.fromCodePoint(cp));
}

/**
 * Parses a ripgrep (Rust regex) pattern far enough to reason about it: sequences, alternation,
 * groups, counted repetition, classes and what each can match. Lenient: what it does not know
 * becomes a class that may match anything, and a malformed pattern is left to RE2 to refuse.
 *
 * @param pattern The pattern.
 * @param ignoreCase Whether `-i` is set (letters then weigh as case-folded).
 * @returns The pattern's alternatives, each a sequence of elements.
 *
 * @example
 * ```ts
 * import { parsePattern } from './_pattern_syntax.ts';
 *
 * parsePattern('\\bfoo', false)[0]![0]!.type; // 'assert'
 * ```
 */
export function parsePattern(pattern: string, ignoreCase: boolean): PatternNode[][] {
  // Long because: one recursive-descent parser, whose parts (groups, escapes, classes) are
  // closures sharing the cursor `i`; split into functions, each would pass and return it.
  let i = 0;
  const group = (fold: boolean): PatternNode[][] => {
    const alts: PatternNode[][] = [[]];
    while (i < pattern.length) {
      const c = pattern[i]!;
      const seq = alts[alts.length - 1]!;
      const at = i;
      if (c === ')') return alts;
      if (c === '|') {
        alts.push([]);
        i++;
      } else if (c === '(') {
        const flags = /^\(\?([a-zA-Z-]*)([:)])/.exec(pattern.slice(i));
        if (flags?.[2] === ')') {
          fold = flagFold(flags[1]!, fold);
          i += flags[0].length;
          seq.push({ type: 'flags', start: at, end: i });
          continue;
        }
        const opener = flags?.[0] ?? /^\((\?P?<[^>=!]*>|\?[=!]|\?<[=!])?/.exec(pattern.slice(i))![0];
        i += opener.length;
        const alts = group(flags ? flagFold(flags[1]!, fold) : fold);
        if (pattern[i] === ')') i++;
        seq.push({ type: 'group', alts, start: at, end: i });
      } else if ('*+?{'.includes(c) && seq.length > 0 && quantifier(pattern, i)) {
        const q = quantifier(pattern, i)!;
        const sub = seq.pop()!;
        i += q.length;
        seq.push({ type: 'repeat', sub, min: q.min, max: q.max, start: sub.start, end: i });
      } else if (c === '[') {
        seq.push(parseClass());
      } else if (c === '\\') {
        seq.push(parseEscape(fold));
      } else if (c === '.') {
        i++;
        seq.push({ type: 'set', kinds: BOTH, weight: BYTES.dot, newlineOnly: false, start: at, end: i });
      } else if (c === '^' || c === '$') {
        i++;
        seq.push({ type: 'assert', what: c, start: at, end: i });
      } else {
        const cp = pattern.codePointAt(i)!;
        i += cp > 0xffff ? 2 : 1;
        seq.push({ type: 'char', cp, fold, start: at, end: i });
      }
    }
    return alts;
  };
  const parseEscape = (fold: boolean): PatternNode => {
    const at = i;
    const next = pattern[i + 1] ?? '';
    i += 2;
    const set = ESCAPED_SETS[next];
    if (set) return { type: 'set', kinds: set[0], weight: set[1], newlineOnly: false, start: at, end: i };
    if (next === 'b' || next === 'B' || next === 'A' || next === 'z')
      return { type: 'assert', what: next, start: at, end: i };
    if (next === 'p' || next === 'P') {
      const name = /^\{\^?([^}]*)\}|^./.exec(pattern.slice(i));
      i += name?.[0].length ?? 0;
      const prop = name?.[1] ?? name?.[0] ?? '';
      const kinds =
        next === 'P' || name?.[0].startsWith('{^')
          ? BOTH
          : WORD_PROPERTIES.has(prop)
            ? WORD
            : OTHER_PROPERTIES.has(prop)
              ? OTHER
              : BOTH;
      return { type: 'set', kinds, weight: BYTES.p, newlineOnly: false, start: at, end: i };
    }
    const digits = { x: 2, u: 4, U: 8 }[next];
    const hex = digits
      ? new RegExp(`^\\{([0-9a-fA-F]{1,8})\\}|^([0-9a-fA-F]{${digits}})`).exec(pattern.slice(i))
      : null;
    if (hex) i += hex[0].length;
    const cp = hex
      ? Number.parseInt(hex[1] ?? hex[2]!, 16)
      : (CONTROL[next] ?? (/^[\p{L}\p{N}]/u.test(next) ? undefined : pattern.codePointAt(at + 1)));
    if (cp === undefined || cp > 0x10ffff)
      return { type: 'set', kinds: BOTH, weight: BYTES.char, newlineOnly: false, start: at, end: i };
    if (!hex && cp > 0xffff) i++;
    return { type: 'char', cp, fold, start: at, end: i };
  };
  const parseClass = (): PatternNode => {
    const at = i;
    i++;
    const negated = pattern[i] === '^';
    if (negated) i++;
    let word = false;
    let other = false;
    let heavy = 0;
    let light = 0;
    let onlyNewline = true;
    let allWord = false;
    const add = (kinds: CharKinds, weight: number, newline: boolean) => {
      word ||= kinds.word;
      other ||= kinds.other;
      if (weight >= 1000) heavy = Math.max(heavy, weight);
      else light += weight;
      onlyNewline &&= newline;
    };
    let depth = 1;
    let first = true;
    while (i < pattern.length && depth > 0) {
      const c = pattern[i]!;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
      if (posix) {
        i += posix[0].length;
        const name = posix[2]!;
        const kinds = posix[1] ? BOTH : WORD_POSIX.has(name) ? WORD : OTHER_POSIX.has(name) ? OTHER : BOTH;
        add(kinds, BYTES.char * 2, false);
      } else if (c === ']' && !first) {
        depth--;
        i++;
      } else if (c === '[') {
        depth++;
        i++;
        add(BOTH, BYTES.char, false);
      } else {
        allWord ||= /^\\w/.test(pattern.slice(i));
        const lo = classChar();
        if (pattern[i] === '-' && pattern[i + 1] !== ']' && lo.cp !== undefined) {
          i++;
          const hi = classChar();
          add(rangeKinds(lo.cp, hi.cp), BYTES.char, lo.cp === 10 && hi.cp === 10);
        } else add(lo.kinds, lo.weight, lo.cp === 10);
      }
      first = false;
    }
    const weight = Math.min(heavy + light, BYTES.w);
    // The complement of a class holding all of \w is non-word; any other complement may be either.
    const kinds: CharKinds = negated ? (allWord ? OTHER : BOTH) : { word, other };
    return {
      type: 'set',
      kinds,
      weight: negated ? Math.max(weight, BYTES.dot) : weight,
      newlineOnly: !negated && onlyNewline,
      start: at,
      end: i,
    };
  };
  // One character (or escape) inside a class.
  const classChar = (): { cp: number | undefined; kinds: CharKinds; weight: number } => {
    if (pattern[i] === '\\') {
      const node = parseEscape(false);
      if (node.type === 'char') return { cp: node.cp, kinds: charKinds(node.cp), weight: BYTES.char };
      if (node.type === 'set') return { cp: undefined, kinds: node.kinds, weight: node.weight };
      return { cp: undefined, kinds: BOTH, weight: BYTES.char };
    }
    const cp = pattern.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    return { cp, kinds: charKinds(cp), weight: BYTES.char };
  };
  const alts = group(ignoreCase);
  // A stray `)`: the rest is parsed as a sequence of its own (RE2 refuses the pattern anyway).
  while (i < pattern.length) {
    i++;
    alts.push(...group(ignoreCase));
  }
  return alts;
}

/** The bytes ripgrep would compile a folded or plain character to (see {@linkcode BYTES}). */
export function charBytes(node: { cp: number; fold: boolean }): number {
  const letter =
    node.fold && String.fromCodePoint(node.cp).toLowerCase() !== String.fromCodePoint(node.cp).toUpperCase();
  return letter ? BYTES.folded : node.cp < 0x80 ? BYTES.char : BYTES.char + 20;
}

/**
 * The kind of one character, for what may stand beside a `\\b` (shared objects: read, never changed).
 *
 * @param cp Its code point.
 * @returns Word or other.
 *
 * @example
 * ```ts
 * import { charKinds } from './_pattern_syntax.ts';
 *
 * charKinds(0xe9); // { word: true, other: false } (é)
 * ```
 */
export function charKinds(cp: number): CharKinds {
  return isWordChar(cp) ? WORD : OTHER;
}

function rangeKinds(lo: number | undefined, hi: number | undefined): CharKinds {
  if (lo === undefined || hi === undefined || hi < lo || hi - lo > 4096) return BOTH;
  let word = false;
  let other = false;
  for (let cp = lo; cp <= hi && !(word && other); cp++) {
    if (isWordChar(cp)) word = true;
    else other = true;
  }
  return { word, other };
}

function flagFold(flags: string, fold: boolean): boolean {
  const [on, off = ''] = flags.split('-');
  return off.includes('i') ? false : on!.includes('i') ? true : fold;
}

/** The quantifier at `pattern[i]` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy), if one is there. */
function quantifier(pattern: string, i: number): { min: number; max: number | undefined; length: number } | undefined {
  const m = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(pattern.slice(i));
  if (!m) return undefined;
  if (m[1]) return { min: m[1] === '+' ? 1 : 0, max: m[1] === '?' ? 1 : undefined, length: m[0].length };
  const min = Number(m[2]);
  const max = m[3] === undefined ? min : m[4] === '' ? undefined : Number(m[4]);
  return { min, max, length: m[0].length };
}
