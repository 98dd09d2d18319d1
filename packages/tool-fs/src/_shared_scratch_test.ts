import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  dropFreeScratch,
  giveBackScratch,
  lendScratch,
  SCRATCH_IDLE_MS,
  SCRATCH_POOL_MAX_BYTES,
  scratchStats,
} from './_shared_scratch.ts';

// Other test files in the same worker (vitest runs them without isolation) may have given
// memory back: each test starts from an empty pool.
beforeEach(() => {
  dropFreeScratch();
});
afterEach(() => {
  dropFreeScratch();
});

describe('lendScratch / giveBackScratch', () => {
  test('memory given back serves the next lease of its size or less; a lease out is never lent twice', () => {
    const first = lendScratch(3_000_000);
    expect(first.length).toBe(3_000_000);
    expect(first.buffer).toBeInstanceOf(SharedArrayBuffer);
    const second = lendScratch(3_000_000);
    expect(second.buffer).not.toBe(first.buffer);
    const { made, reused } = scratchStats();
    giveBackScratch(first);
    const third = lendScratch(2_500_000);
    expect(third.buffer).toBe(first.buffer);
    expect(third.length).toBe(2_500_000);
    expect(scratchStats()).toMatchObject({ made, reused: reused + 1 });
    // Larger than any free buffer: a new one.
    giveBackScratch(third);
    const fourth = lendScratch(5_000_000);
    expect(fourth.buffer).not.toBe(first.buffer);
    expect(scratchStats().made).toBe(made + 1);
    giveBackScratch(second);
    giveBackScratch(fourth);
  });

  test('the smallest free buffer that fits is lent', () => {
    const small = lendScratch(1 << 20);
    const large = lendScratch(1 << 24);
    giveBackScratch(large);
    giveBackScratch(small);
    expect(lendScratch(1000).buffer).toBe(small.buffer);
    expect(lendScratch(1 << 21).buffer).toBe(large.buffer);
  });

  test('giving back twice, or memory that was never lent, changes nothing', () => {
    const bytes = lendScratch(1 << 20);
    giveBackScratch(bytes);
    giveBackScratch(bytes);
    giveBackScratch(Buffer.alloc(10));
    giveBackScratch(new Uint8Array(new SharedArrayBuffer(1 << 20)));
    expect(scratchStats().freeBytes).toBe(1 << 20);
    const a = lendScratch(1 << 20);
    const b = lendScratch(1 << 20);
    expect(a.buffer).toBe(bytes.buffer);
    expect(b.buffer).not.toBe(bytes.buffer);
  });

  test('a view of lent memory gives it back', () => {
    const bytes = lendScratch(1 << 20);
    giveBackScratch(bytes.subarray(10, 20));
    expect(lendScratch(1 << 20).buffer).toBe(bytes.buffer);
  });

  test('the pool keeps at most its bound: the oldest free buffers go, a buffer over it is not kept', () => {
    const quarter = SCRATCH_POOL_MAX_BYTES / 4;
    const leases = Array.from({ length: 5 }, () => lendScratch(quarter));
    for (const lease of leases) giveBackScratch(lease);
    expect(scratchStats().freeBytes).toBe(SCRATCH_POOL_MAX_BYTES);
    // The first given back was dropped.
    const again = Array.from({ length: 4 }, () => lendScratch(quarter).buffer);
    expect(again).not.toContain(leases[0]!.buffer);
    expect(again).toContain(leases[4]!.buffer);
    dropFreeScratch();
    giveBackScratch(lendScratch(SCRATCH_POOL_MAX_BYTES + 1));
    expect(scratchStats().freeBytes).toBe(0);
  });

  test('free memory is dropped after a while without a lease', () => {
    vi.useFakeTimers();
    giveBackScratch(lendScratch(1 << 20));
    expect(scratchStats().freeBytes).toBe(1 << 20);
    vi.advanceTimersByTime(SCRATCH_IDLE_MS - 1);
    expect(scratchStats().freeBytes).toBe(1 << 20);
    vi.advanceTimersByTime(1);
    expect(scratchStats().freeBytes).toBe(0);
  });
});
