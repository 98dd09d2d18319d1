/** Longer names are compared by their first this many characters: no real name is that long, and the work stays bounded. */
const MAX_COMPARED_LENGTH = 128;

/**
 * The names closest to `name` by edit distance (case-insensitive), for "did you mean" hints.
 *
 * The cost is bounded whatever the input: names are compared by their first 128 characters, a
 * candidate whose length alone puts it too far away is skipped without a distance, and each
 * distance stops as soon as it passes the worst of the `max` best found so far (so a pool of
 * 10 000 names and a name of 1 000 characters take a few milliseconds).
 *
 * @param name What was asked for.
 * @param candidates What exists.
 * @param options `max` results (default 3); `maxDistance` relative to the name's length (default 0.5);
 *   `steps` to count the work.
 * @returns Up to `max` candidates, closest first.
 *
 * @example
 * ```ts
 * import { closestNames } from '@toolshed/core/internal';
 *
 * closestNames('Reed', ['Read', 'Edit', 'Write']); // ['Read']
 * ```
 */
export function closestNames(name: string, candidates: Iterable<string>, options: ClosestNamesOptions = {}): string[] {
  const max = options.max ?? 3;
  if (max <= 0) return [];
  const steps = options.steps;
  const lower = name.slice(0, MAX_COMPARED_LENGTH).toLowerCase();
  const limit = Math.max(2, Math.ceil(lower.length * (options.maxDistance ?? 0.5)));
  // The best `max` so far, sorted; once full, a candidate must do at least as well as the last.
  const best: { candidate: string; distance: number }[] = [];
  const bound = () => (best.length < max ? limit : best[best.length - 1]!.distance);
  // A short name is the pattern of every comparison: its bit vectors are made once, not per candidate.
  const pattern = lower.length > 0 && lower.length <= 32 ? new MyersPattern(lower) : undefined;
  try {
    for (const candidate of candidates) {
      const c = candidate.slice(0, MAX_COMPARED_LENGTH).toLowerCase();
      const cut = bound();
      const gap = Math.abs(c.length - lower.length);
      if (gap / 2 > cut) continue; // too far by length alone, even as a part of the other
      let distance: number;
      if (c.includes(lower) || lower.includes(c)) distance = gap / 2;
      else if (gap > cut)
        continue; // an edit distance is at least the difference in length
      else if (pattern !== undefined && c.length > 0) distance = pattern.distance(c, Math.floor(cut), steps);
      else distance = boundedLevenshtein(lower, c, Math.floor(cut), steps);
      if (distance > cut) continue;
      const entry = { candidate, distance };
      let at = best.length;
      while (at > 0 && compare(best[at - 1]!, entry) > 0) at--;
      best.splice(at, 0, entry);
      if (best.length > max) best.pop();
    }
  } finally {
    pattern?.release();
  }
  return best.map((s) => s.candidate);
}

/** Options of {@linkcode closestNames}. */
export interface ClosestNamesOptions {
  /** How many names to return. @default 3 */
  max?: number;
  /** How far a name may be, as a share of the asked name's length. @default 0.5 */
  maxDistance?: number;
  /**
   * Counts the work: `count` grows by one per column (bit-parallel form, up to 32 cells) or row
   * (banded form) of an edit-distance table computed, so a test can see that it
   * is bounded by the pool and the 128-character cap, whatever the name.
   */
  steps?: { count: number };
}

function compare(a: { candidate: string; distance: number }, b: { candidate: string; distance: number }): number {
  return a.distance - b.distance || a.candidate.localeCompare(b.candidate);
}

let rowA = new Int32Array(MAX_COMPARED_LENGTH + 1);
let rowB = new Int32Array(MAX_COMPARED_LENGTH + 1);
/** Per character code, the positions of the 32-character pattern where it occurs (Myers' bit vectors). */
let peq: Int32Array | undefined;
let peqInUse = false;
/** The pattern object of single comparisons (both names longer than 32 characters never reach it). */
let reusable: MyersPattern | undefined;

/**
 * Levenshtein distance, or more than `cap` when it exceeds `cap`. When one side has at most 32
 * characters, Myers' bit-parallel algorithm does a column in a few word operations; otherwise a
 * band of the table around its diagonal, stopped once a whole row is past `cap`. Written here
 * rather than pulled in: a few lines, and core keeps few dependencies.
 */
function boundedLevenshtein(a: string, b: string, cap: number, steps?: { count: number }): number {
  if (a.length === 0 || b.length === 0) return a.length + b.length;
  if (b.length <= 32) return MyersPattern.once(b, a, cap, steps);
  if (a.length <= 32) return MyersPattern.once(a, b, cap, steps);
  return bandedLevenshtein(a, b, cap, steps);
}

/**
 * Myers (1999): the bit vectors of a pattern of 1 to 32 characters, made once, to take its edit
 * distance to many texts. One table is shared by all patterns (`release` clears it).
 */
class MyersPattern {
  #pattern = '';
  readonly #table: Int32Array;
  /** @param own Whether to keep a table of its own (the one for single comparisons) rather than borrow the shared one. */
  constructor(pattern: string, own = false) {
    // A candidate list that asks for names itself (a generator) must not share a table in use.
    if (own || peqInUse) this.#table = new Int32Array(65536);
    else {
      this.#table = peq ??= new Int32Array(65536);
      peqInUse = true;
    }
    this.#load(pattern);
  }

  #load(pattern: string): void {
    this.#pattern = pattern;
    for (let i = 0; i < pattern.length; i++) this.#table[pattern.charCodeAt(i)]! |= 1 << i;
  }

  /** The distance to `text`, or more than `cap`: it stops once the rest of the text cannot bring the score back. */
  distance(text: string, cap: number, steps?: { count: number }): number {
    const table = this.#table;
    const n = this.#pattern.length;
    const last = 1 << (n - 1);
    let pv = -1;
    let mv = 0;
    let score = n;
    const end = text.length;
    for (let j = 0; j < end; j++) {
      const eq = table[text.charCodeAt(j)]!;
      const xv = eq | mv;
      const xh = (((eq & pv) + pv) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      if (ph & last) score++;
      if (mh & last) score--;
      ph = (ph << 1) | 1;
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
      // Each remaining column lowers the score by one at most.
      if (score - (end - 1 - j) > cap) {
        if (steps) steps.count += j + 1;
        return cap + 1;
      }
    }
    if (steps) steps.count += end;
    return score;
  }

  /** {@linkcode MyersPattern.distance} for one text, without a pattern object per comparison. */
  static once(pattern: string, text: string, cap: number, steps?: { count: number }): number {
    const made = (reusable ??= new MyersPattern(pattern, true));
    made.#load(pattern);
    try {
      return made.distance(text, cap, steps);
    } finally {
      made.release();
    }
  }

  release(): void {
    for (let i = 0; i < this.#pattern.length; i++) this.#table[this.#pattern.charCodeAt(i)] = 0;
    if (this.#table === peq) peqInUse = false;
  }
}

/** Ukkonen's band: only cells within `cap` of the diagonal can stay within `cap`. */
function bandedLevenshtein(a: string, b: string, cap: number, steps?: { count: number }): number {
  const over = cap + 1;
  if (rowA.length <= b.length) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  let prev = rowA;
  let row = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j <= cap ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - cap);
    const to = Math.min(b.length, i + cap);
    row[from - 1] = from === 1 && i <= cap ? i : over;
    let rowMin = row[from - 1]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const v = Math.min(over, prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      row[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (to < b.length) row[to + 1] = over;
    if (steps) steps.count++;
    if (rowMin > cap) return over;
    const t = prev;
    prev = row;
    row = t;
  }
  return prev[b.length]!;
}
