import { type CharKinds, charKinds, type PatternNode } from './_pattern_syntax.ts';
import { GrepQueryError } from './_types.ts';

/** The pattern with its `\b` and `\B` rewritten, and what matching it needs. */
export interface WordBoundaries {
  /** The pattern, `\w` still to translate. */
  pattern: string;
  /** Whether it uses a lookbehind (re2js's LOOKBEHINDS flag; RE2's DFA cannot run it). */
  lookbehind: boolean;
  /**
   * Named groups holding a character matched after a match's end only to see that it is there
   * (multiline): a match ends where the one that matched starts.
   */
  endGroups: string[];
}

interface Side extends CharKinds {
  /** Nothing of the pattern is on this side: a character there may be taken into the match. */
  open: boolean;
}

const ANY: Side = { word: true, other: true, open: true };
const NEVER = '[^\\x00-\\x{10FFFF}]';
/** The kinds of the characters on either side of `\\b`, and of `\\B`. */
const CHANGES = [
  ['word', 'other'],
  ['other', 'word'],
];
const SAME = [
  ['word', 'word'],
  ['other', 'other'],
];

type Boundary = PatternNode & { type: 'assert'; what: 'b' | 'B' };
/** Where a node is: its sequence, its index there, and what follows the sequence. */
interface At {
  seq: PatternNode[];
  j: number;
  outer: Side;
}

/**
 * Rewrites `\b` and `\B` as ripgrep reads them. RE2's are ASCII (é is not a word character, so
 * `\bcafé\b` misses `café!`); ripgrep's follow Unicode `\w`. RE2 has no lookahead, so each is
 * written from what the pattern says of its two sides: a side that the pattern fixes
 * (`\bfoo`: the next character is a word character) needs nothing; the other side is checked by
 * taking that character into the match at the pattern's ends (`(?:^|[^\w\n])foo`: whether a
 * line matches is unchanged; with multiline the taken character is cut off again), or, before it,
 * by a lookbehind. A boundary whose next character is neither fixed nor at the pattern's end
 * (`\w+\b.*`) cannot be written exactly and is refused.
 *
 * @param pattern The pattern as written.
 * @param alts The pattern parsed ({@linkcode parsePattern}).
 * @param options `multiline`: whether matches must keep their exact ends.
 * @returns The rewritten pattern, unchanged when it has no `\b` or `\B`.
 * @throws {GrepQueryError} For a boundary that cannot be written exactly, saying what to write.
 *
 * @example
 * ```ts
 * import { parsePattern } from './_pattern_syntax.ts';
 * import { unicodeWordBoundaries } from './_word_boundary.ts';
 *
 * unicodeWordBoundaries('\\bcafé\\b', parsePattern('\\bcafé\\b', false), { multiline: false }).pattern;
 * // '(?:(?:^|[^\\w\\n]))café(?:(?:$|[^\\w\\n]))'
 * ```
 */
export function unicodeWordBoundaries(
  pattern: string,
  alts: PatternNode[][],
  options: { multiline: boolean },
): WordBoundaries {
  const edits: { start: number; end: number; text: string }[] = [];
  const result: WordBoundaries = { pattern, lookbehind: false, endGroups: [] };
  /**
   * The boundary written for the sides `prev` and `next`, or undefined where the next character
   * is neither fixed nor at the pattern's end. `consumed`: the next character is taken by the
   * class written there, and checked behind once taken (a lookbehind).
   */
  const written = (node: Boundary, prev: Side, next: Side, consumed?: { text: string; kinds: CharKinds }) => {
    const pieces: string[] = [];
    for (const [p, n] of (node.what === 'b' ? CHANGES : SAME) as [keyof CharKinds, keyof CharKinds][]) {
      if (!prev[p] || !(consumed ? consumed.kinds : next)[n]) continue;
      const needPrev = prev.word && prev.other;
      const needNext = consumed ? consumed.kinds.word && consumed.kinds.other : next.word && next.other;
      if (!needPrev && !needNext && !consumed) return '';
      let piece = '';
      if (needPrev && prev.open && !options.multiline) piece += p === 'word' ? '[\\w]' : '(?:^|[^\\w\\n])';
      else if (needPrev) {
        piece += p === 'word' ? '(?<=[\\w])' : '(?<![\\w])';
        result.lookbehind = true;
      }
      if (consumed) {
        piece += `(?:${consumed.text})`;
        if (needNext) {
          piece += n === 'word' ? '(?<=[\\w])' : '(?<![\\w])';
          result.lookbehind = true;
        }
      } else if (needNext && !next.open) return undefined;
      else if (needNext) {
        const name = `tsb${result.endGroups.length}`;
        const taken = options.multiline
          ? `(?P<${name}>${n === 'word' ? '[\\w]' : '[^\\w\\n]'})`
          : n === 'word'
            ? '[\\w]'
            : '[^\\w\\n]';
        if (options.multiline) result.endGroups.push(name);
        piece += n === 'word' ? taken : `(?:$|${taken})`;
      }
      pieces.push(piece);
    }
    return pieces.length === 0 ? NEVER : `(?:${pieces.join('|')})`;
  };
  const boundary = (node: Boundary, at: At, prev: Side, next: Side) => {
    const text = written(node, prev, next);
    if (text !== undefined) return edits.push({ start: node.start, end: node.end, text });
    // The next character is the first of a class right after it (`\b.*`, `\b\s+`, `\b.`): taken
    // by that class and checked behind; or, where the class may match nothing, the one after it.
    const after = at.seq[at.j + 1];
    const one = after?.type === 'repeat' ? after.sub : after;
    if (after === undefined || (one!.type !== 'set' && one!.type !== 'char')) throw refusal(pattern, node);
    const oneText = pattern.slice(one!.start, one!.end);
    let rest = '';
    if (after.type === 'repeat') {
      const quantifier = pattern.slice(one!.end, after.end);
      const lazy = quantifier.length > 1 && quantifier.endsWith('?') ? '?' : '';
      const lo = Math.max(after.min - 1, 0);
      const hi = after.max === undefined ? '' : String(after.max - 1);
      if (after.max !== 1) rest = `(?:${oneText}){${lo},${hi}}${lazy}`;
    }
    const kinds = one!.type === 'set' ? one!.kinds : charKinds(one!.cp);
    const taken = written(node, prev, next, { text: oneText, kinds });
    const alternatives = [`${taken}${rest}`];
    if (after.type === 'repeat' && after.min === 0) {
      const skipped = written(node, prev, side(at.seq, at.j + 1, 1, at.outer));
      if (skipped === undefined) throw refusal(pattern, node);
      alternatives.push(skipped);
    }
    edits.push({ start: node.start, end: after.end, text: `(?:${alternatives.join('|')})` });
  };
  const visit = (node: PatternNode, at: At, prev: Side, next: Side): void => {
    if (node.type === 'assert' && (node.what === 'b' || node.what === 'B')) boundary(node as Boundary, at, prev, next);
    else if (node.type === 'group') walk(node.alts, prev, next);
    else if (node.type === 'repeat') {
      // A later copy follows an earlier one: neither end is open then.
      const again = (node.max ?? 2) > 1;
      const subFirst = first(node.sub);
      const subLast = last(node.sub);
      visit(
        node.sub,
        { seq: [node.sub], j: 0, outer: next },
        again ? { word: prev.word || subLast.word, other: prev.other || subLast.other, open: false } : prev,
        again ? { word: next.word || subFirst.word, other: next.other || subFirst.other, open: false } : next,
      );
    }
  };
  const walk = (alts: PatternNode[][], prev: Side, next: Side): void => {
    for (const seq of alts)
      for (let j = 0; j < seq.length; j++)
        visit(seq[j]!, { seq, j, outer: next }, side(seq, j, -1, prev), side(seq, j, 1, next));
  };
  walk(alts, ANY, ANY);
  let out = pattern;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  result.pattern = out;
  return result;
}

/** What is next to `seq[j]` on one side (`dir` -1: before it), the enclosing context included. */
function side(seq: PatternNode[], j: number, dir: -1 | 1, outer: Side): Side {
  const kinds = { word: false, other: false };
  let open = true;
  for (let k = j + dir; k >= 0 && k < seq.length; k += dir) {
    const node = seq[k]!;
    if (node.type !== 'flags') open = false;
    const edge = dir === -1 ? last(node) : first(node);
    kinds.word ||= edge.word;
    kinds.other ||= edge.other;
    if (!edge.nullable) return { ...kinds, open: false };
  }
  return { word: kinds.word || outer.word, other: kinds.other || outer.other, open: open && outer.open };
}

interface Edge extends CharKinds {
  nullable: boolean;
}

/** What the first character a node matches can be, and whether it can match nothing. */
function first(node: PatternNode): Edge {
  return edge(node, 1);
}

function last(node: PatternNode): Edge {
  return edge(node, -1);
}

function edge(node: PatternNode, dir: -1 | 1): Edge {
  switch (node.type) {
    case 'char':
      return { ...charKinds(node.cp), nullable: false };
    case 'set':
      return { ...node.kinds, nullable: false };
    case 'assert':
      // Past ^ (going back) or $ (going on) is a line's edge or its line break: non-word.
      if (
        (dir === -1 && (node.what === '^' || node.what === 'A')) ||
        (dir === 1 && (node.what === '$' || node.what === 'z'))
      )
        return { word: false, other: true, nullable: false };
      return { word: false, other: false, nullable: true };
    case 'flags':
      return { word: false, other: false, nullable: true };
    case 'repeat': {
      const sub = edge(node.sub, dir);
      return { ...sub, nullable: sub.nullable || node.min === 0 };
    }
    case 'group': {
      const out: Edge = { word: false, other: false, nullable: false };
      for (const seq of node.alts) {
        let nullable = true;
        for (let k = dir === 1 ? 0 : seq.length - 1; k >= 0 && k < seq.length && nullable; k += dir) {
          const e = edge(seq[k]!, dir);
          out.word ||= e.word;
          out.other ||= e.other;
          nullable = e.nullable;
        }
        out.nullable ||= nullable;
      }
      return out;
    }
  }
}

function refusal(pattern: string, node: PatternNode & { type: 'assert' }): GrepQueryError {
  return new GrepQueryError(
    `The regex ${JSON.stringify(pattern)} has \\${node.what} where the JS engine cannot match it as ripgrep does: ripgrep's word boundary is Unicode-aware (é is a word character), RE2's is ASCII, and RE2 has no lookahead, so the JS engine writes \\${node.what} from the character after it, which must be fixed by the pattern (\\bfoo\\b, foo\\b-, \\w+\\b\\s*=), be at its end, or be the first of a class or a repeated class right after it in the same group (\\b.*, \\b\\s+). Put a literal or a class right after it, outside any group or alternation (write (?:foo\\b|bar).* as (?:foo\\b.*|bar.*)), or drop it.`,
  );
}
