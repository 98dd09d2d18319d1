/**
 * A count as previews and notes print it (`5,000,000`).
 *
 * @param n The count.
 * @returns The count with thousands separators.
 *
 * @example
 * ```ts
 * import { formatCount } from './_format_count.ts';
 *
 * formatCount(5_000_000); // '5,000,000'
 * ```
 */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
