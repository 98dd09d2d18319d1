// Searches in ascending lists of tool indices (postings), for walks that move forward only.

/**
 * The first position at or after `from` whose value is at least `x` in an ascending list (its
 * length when there is none): galloping, then halving, so a walk that looks up ascending values
 * costs the log of each step's distance, not of the list.
 */
function gallop(list: ArrayLike<number>, from: number, x: number): number {
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < list.length && list[hi]! < x) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, list.length);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Where each of `values` (ascending) stands in the ascending `list`, or -1 where it is not there:
 * one forward walk, each step a galloping search from the last.
 *
 * @example
 * ```ts
 * import { positionsIn } from './_sorted.ts';
 *
 * positionsIn(Int32Array.of(1, 3, 5, 7), Int32Array.of(3, 4, 7)); // Int32Array [1, -1, 3]
 * ```
 */
export function positionsIn(list: ArrayLike<number>, values: ArrayLike<number>): Int32Array {
  const out = new Int32Array(values.length);
  let at = 0;
  for (let j = 0; j < values.length; j++) {
    at = gallop(list, at, values[j]!);
    out[j] = at < list.length && list[at] === values[j] ? at : -1;
  }
  return out;
}

/**
 * The numbers in both ascending lists, ascending: each number of the shorter list looked up in the
 * longer one from where the last look-up ended (a common word's list can be most of the
 * catalogue, and the other word's a few tools).
 *
 * @example
 * ```ts
 * import { intersection } from './_sorted.ts';
 *
 * intersection([1, 4, 9], Int32Array.of(0, 1, 2, 3, 9)); // [1, 9]
 * ```
 */
export function intersection(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const out: number[] = [];
  let at = 0;
  for (let i = 0; i < short.length && at < long.length; i++) {
    const x = short[i]!;
    at = gallop(long, at, x);
    if (long[at] === x) out.push(x);
  }
  return out;
}
