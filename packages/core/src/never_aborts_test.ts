import { describe, expect, test } from 'vitest';
import { cannotAbort, neverAbortingSignal } from './never_aborts.ts';

describe('neverAbortingSignal', () => {
  test('makes a signal that is not aborted and that cannotAbort recognises; every other signal can abort', () => {
    const never = neverAbortingSignal();
    expect(never.aborted).toBe(false);
    expect(cannotAbort(never)).toBe(true);
    expect(cannotAbort(neverAbortingSignal())).toBe(true);
    const controller = new AbortController();
    for (const other of [controller.signal, AbortSignal.any([never]), AbortSignal.timeout(60_000), AbortSignal.abort()])
      expect(cannotAbort(other)).toBe(false);
  });
});
