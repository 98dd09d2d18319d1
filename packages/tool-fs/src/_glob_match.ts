/** A compiled glob: see {@linkcode compileGlob}. */
export interface GlobMatcher {
  /** Whether the whole path matches. */
  test(path: string): boolean;
  /**
   * Work done so far by this matcher, in steps: one per character read, plus one per automaton
   * state looked at when a transition is computed for the first time. For a fixed glob it grows
   * linearly with the length of the paths tested.
   */
  readonly steps: number;
}

const SLASH = 47;

/** A character test of the automaton. */
type CharTest = (cp: number) => boolean;

/** The parsed glob. */
type Node =
  | { kind: 'char'; test: CharTest }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'star'; body: Node };

/** Thompson automaton states: a character test to pass, a fork, or the end. */
type State = { kind: 'char'; test: CharTest; next: number } | { kind: 'split'; outs: number[] } | { kind: 'match' };

/** A state of the lazily built deterministic automaton: a set of character states. */
interface DState {
  chars: number[];
  accept: boolean;
  /** Transitions already computed, for ASCII. */
  ascii: (DState | undefined)[];
  /** Transitions already computed, beyond ASCII. */
  other: Map<number, DState>;
}

/** Deterministic states kept before the cache is dropped (it is rebuilt as needed: only speed is lost). */
const MAX_DSTATES = 4096;

/**
 * Compiles a glob into a matcher over slash-separated relative paths, with the semantics of
 * fast-glob and picomatch: `*` and `?` stay within one path segment, `**` spans segments, `[…]`
 * is a character class (`[!…]` or `[^…]` negated), `{a,b}` alternatives (nested), `\` escapes;
 * dotfiles match (hidden files are searched).
 *
 * Matching takes time linear in the path, whatever the glob: it runs an automaton (Thompson's
 * construction, turned deterministic lazily and cached as paths are tested) rather than a
 * backtracking regular expression, under which `*a*a*a*a*a*a*a*a*b` took seconds on 20 names.
 *
 * @param glob The pattern, e.g. `src/**\/*.{ts,tsx}`; a leading `./` is dropped.
 * @returns The matcher.
 * @throws {SyntaxError} For an unclosed `[` or `{`, or a class range out of order, naming the position.
 *
 * @example
 * ```ts
 * import { compileGlob } from './_glob_match.ts';
 *
 * compileGlob('src/**\/*.ts').test('src/a/b.ts'); // true
 * compileGlob('*.ts').test('src/b.ts');           // false
 * ```
 */
export function compileGlob(glob: string): GlobMatcher {
  const pattern = glob.replace(/^\.\//, '');
  const tree = parse(pattern, 0, false).node;
  const states: State[] = [];
  const add = (s: State) => states.push(s) - 1;
  const matchState = add({ kind: 'match' });
  const build = (node: Node, next: number): number => {
    switch (node.kind) {
      case 'char':
        return add({ kind: 'char', test: node.test, next });
      case 'seq': {
        let at = next;
        for (let i = node.items.length - 1; i >= 0; i--) at = build(node.items[i]!, at);
        return at;
      }
      case 'alt':
        return add({ kind: 'split', outs: node.options.map((o) => build(o, next)) });
      case 'star': {
        const fork = add({ kind: 'split', outs: [] });
        (states[fork] as { outs: number[] }).outs.push(build(node.body, fork), next);
        return fork;
      }
    }
  };
  const start = build(tree, matchState);

  let steps = 0;
  let cache = new Map<string, DState>();
  const marks = new Int32Array(states.length);
  let generation = 0;
  const stateOf = (seeds: readonly number[]): DState => {
    // The ε-closure of the seeds: every character state reachable through forks.
    generation++;
    const chars: number[] = [];
    let accept = false;
    const stack = [...seeds];
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (marks[s] === generation) continue;
      marks[s] = generation;
      steps++;
      const st = states[s]!;
      if (st.kind === 'char') chars.push(s);
      else if (st.kind === 'match') accept = true;
      else for (let i = st.outs.length - 1; i >= 0; i--) stack.push(st.outs[i]!);
    }
    chars.sort((a, b) => a - b);
    const key = `${accept ? 1 : 0}:${chars.join(',')}`;
    let d = cache.get(key);
    if (d === undefined) {
      if (cache.size >= MAX_DSTATES) cache = new Map();
      d = { chars, accept, ascii: [], other: new Map() };
      cache.set(key, d);
    }
    return d;
  };
  let initial = stateOf([start]);
  const transition = (d: DState, cp: number): DState => {
    const seeds: number[] = [];
    for (const s of d.chars) {
      steps++;
      const st = states[s] as { test: CharTest; next: number };
      if (st.test(cp)) seeds.push(st.next);
    }
    const size = cache.size;
    const next = stateOf(seeds);
    if (cache.size < size) initial = stateOf([start]); // the cache was dropped: start afresh
    if (cp < 128) d.ascii[cp] = next;
    else d.other.set(cp, next);
    return next;
  };
  return {
    test(path) {
      let d = initial;
      for (let i = 0; i < path.length; i++) {
        let cp = path.charCodeAt(i);
        if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < path.length) {
          const low = path.charCodeAt(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            cp = ((cp - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
            i++;
          }
        }
        steps++;
        d = (cp < 128 ? d.ascii[cp] : d.other.get(cp)) ?? transition(d, cp);
        if (d.chars.length === 0 && !d.accept) return false; // nothing can match any more
      }
      return d.accept;
    },
    get steps() {
      return steps;
    },
  };
}

const notSlash: CharTest = (cp) => cp !== SLASH;
const anyChar: CharTest = () => true;
const literal =
  (c: number): CharTest =>
  (cp) =>
    cp === c;
const char = (test: CharTest): Node => ({ kind: 'char', test });

/** Parses from `start` to the end, or (in a brace) to the `,` or `}` that ends one alternative. */
function parse(p: string, start: number, inBrace: boolean): { node: Node; end: number } {
  const items: Node[] = [];
  let i = start;
  while (i < p.length) {
    const c = p[i]!;
    if (inBrace && (c === ',' || c === '}')) break;
    if (c === '\\') {
      items.push(char(literal((p[i + 1] ?? '\\').codePointAt(0)!)));
      i += p[i + 1] === undefined ? 1 : 1 + (p[i + 1]!.codePointAt(0)! > 0xffff ? 2 : 1);
    } else if (c === '*') {
      if (p[i + 1] === '*') {
        const atStart = i === 0 || p[i - 1] === '/';
        const atEnd = i + 2 === p.length || p[i + 2] === '/' || (inBrace && (p[i + 2] === ',' || p[i + 2] === '}'));
        if (atStart && atEnd) {
          if (p[i + 2] === '/') {
            // `**/`: any number of whole segments.
            items.push({
              kind: 'star',
              body: { kind: 'seq', items: [{ kind: 'star', body: char(notSlash) }, char(literal(SLASH))] },
            });
            i += 3;
          } else {
            items.push({ kind: 'star', body: char(anyChar) });
            i += 2;
          }
          continue;
        }
        items.push({ kind: 'star', body: char(notSlash) });
        i += 2;
        continue;
      }
      items.push({ kind: 'star', body: char(notSlash) });
      i++;
    } else if (c === '?') {
      items.push(char(notSlash));
      i++;
    } else if (c === '[') {
      const close = p.indexOf(']', i + 2);
      if (close === -1) throw new SyntaxError(`The glob "${p}" has an unclosed "[" at position ${i}.`);
      items.push(char(classTest(p, i, p.slice(i + 1, close))));
      i = close + 1;
    } else if (c === '{') {
      const options: Node[] = [];
      let j = i + 1;
      for (;;) {
        const part = parse(p, j, true);
        options.push(part.node);
        if (part.end >= p.length) throw new SyntaxError(`The glob "${p}" has an unclosed "{" at position ${i}.`);
        j = part.end + 1;
        if (p[part.end] === '}') break;
      }
      items.push({ kind: 'alt', options });
      i = j;
    } else {
      const cp = p.codePointAt(i)!;
      items.push(char(literal(cp)));
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return { node: { kind: 'seq', items }, end: i };
}

/** A `[…]` class: literal characters and `a-z` ranges; negated (`!` or `^`), it never matches `/`. */
function classTest(p: string, at: number, raw: string): CharTest {
  let body = raw;
  let negate = false;
  if (body.startsWith('!') || body.startsWith('^')) {
    negate = true;
    body = body.slice(1);
  }
  const cps = [...body].map((ch) => ch.codePointAt(0)!);
  const singles = new Set<number>();
  const ranges: [number, number][] = [];
  for (let k = 0; k < cps.length; k++) {
    if (k + 2 < cps.length && cps[k + 1] === 45 /* - */) {
      const [lo, hi] = [cps[k]!, cps[k + 2]!];
      if (lo > hi)
        throw new SyntaxError(
          `The glob "${p}" has the range "${String.fromCodePoint(lo)}-${String.fromCodePoint(hi)}" out of order in the class at position ${at}.`,
        );
      ranges.push([lo, hi]);
      k += 2;
    } else {
      singles.add(cps[k]!);
    }
  }
  const inClass = (cp: number) => singles.has(cp) || ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  return negate ? (cp) => cp !== SLASH && !inClass(cp) : inClass;
}
