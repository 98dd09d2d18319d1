/** What {@linkcode rssGrowth} measured. */
export interface RssGrowth<T> {
  /** What `operation` returned. */
  value: T;
  /** How far the process's resident memory rose above where it was, at its highest, in MiB. */
  growthMb: number;
}

/**
 * Runs `operation` while sampling the process's resident memory, for a test (or a bench) that a
 * call's memory follows what it returns, not what its source produces: the peak rise over the
 * RSS at the start. A sample every `sampleMs` can miss a shorter spike; bound generously.
 *
 * @param operation The work to measure.
 * @param options `sampleMs` between samples. @default 10
 * @returns Its value and the peak growth in MiB.
 *
 * @example
 * ```ts
 * import { rssGrowth } from '@toolshed/core/testing';
 *
 * const { growthMb } = await rssGrowth(async () => Buffer.alloc(1 << 20).fill(1).length);
 * growthMb < 300; // true
 * ```
 */
export async function rssGrowth<T>(
  operation: () => Promise<T>,
  options: { sampleMs?: number } = {},
): Promise<RssGrowth<T>> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, options.sampleMs ?? 10);
  try {
    const value = await operation();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, growthMb: (peak - before) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}
