import { describe, expect, test } from 'vitest';
import { MetricsRecorder } from './metrics.ts';

/** 1..n in a scrambled order, so nothing depends on the order of recording. */
function scrambled(n: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = out.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('MetricsRecorder', () => {
  test('an empty recorder reports zeros and no tools', () => {
    expect(new MetricsRecorder().snapshot()).toEqual({
      tools: {},
      total: { calls: 0, errors: 0, persisted: 0, totalMs: 0, meanMs: 0, p95Ms: 0, maxMs: 0 },
    });
  });

  test('record counts calls, errors and persisted results per tool and in total', () => {
    const m = new MetricsRecorder();
    m.record('Read', { durationMs: 10, isError: false });
    m.record('Read', { durationMs: 30, isError: true });
    m.record('Grep', { durationMs: 5, isError: false, persisted: true });
    const snap = m.snapshot();
    expect(Object.keys(snap.tools)).toEqual(['Grep', 'Read']);
    expect(snap.tools['Read']).toEqual({
      calls: 2,
      errors: 1,
      persisted: 0,
      totalMs: 40,
      meanMs: 20,
      p95Ms: 30,
      maxMs: 30,
    });
    expect(snap.tools['Grep']).toEqual({
      calls: 1,
      errors: 0,
      persisted: 1,
      totalMs: 5,
      meanMs: 5,
      p95Ms: 5,
      maxMs: 5,
    });
    expect(snap.total).toEqual({ calls: 3, errors: 1, persisted: 1, totalMs: 45, meanMs: 15, p95Ms: 30, maxMs: 30 });
  });

  test('p95 is the nearest-rank percentile of the recorded durations', () => {
    const m = new MetricsRecorder();
    for (const d of scrambled(100)) m.record('Bash', { durationMs: d, isError: false });
    expect(m.snapshot().tools['Bash']?.p95Ms).toBe(95);

    const twenty = new MetricsRecorder();
    for (const d of scrambled(20)) twenty.record('Bash', { durationMs: d * 10, isError: false });
    // ceil(0.95 * 20) = 19th smallest
    expect(twenty.snapshot().tools['Bash']?.p95Ms).toBe(190);

    const three = new MetricsRecorder();
    for (const d of [1, 2, 300]) three.record('Bash', { durationMs: d, isError: false });
    // ceil(0.95 * 3) = 3rd smallest: with few samples the p95 is the max
    expect(three.snapshot().tools['Bash']?.p95Ms).toBe(300);
  });

  test('p95 covers only the last 1000 durations, while counts, mean and max cover every call', () => {
    const m = new MetricsRecorder();
    for (let i = 0; i < 1_000; i++) m.record('Read', { durationMs: 1_000, isError: false });
    expect(m.snapshot().tools['Read']?.p95Ms).toBe(1_000);
    for (let i = 0; i < 1_000; i++) m.record('Read', { durationMs: 1, isError: false });
    const read = m.snapshot().tools['Read']!;
    expect(read.p95Ms).toBe(1);
    expect(read.maxMs).toBe(1_000);
    expect(read.calls).toBe(2_000);
    expect(read.meanMs).toBe(500.5);
    expect(m.snapshot().total.p95Ms).toBe(1);
  });

  test('the sample window slides one duration at a time', () => {
    const m = new MetricsRecorder({ maxSamples: 20 });
    for (let i = 0; i < 20; i++) m.record('X', { durationMs: 1, isError: false });
    m.record('X', { durationMs: 500, isError: false });
    // 19 ones and one 500: the 19th smallest is still 1.
    expect(m.snapshot().tools['X']?.p95Ms).toBe(1);
    m.record('X', { durationMs: 500, isError: false });
    // 18 ones and two 500s: the 19th smallest is 500.
    expect(m.snapshot().tools['X']?.p95Ms).toBe(500);
  });

  test('a snapshot does not change when more calls are recorded', () => {
    const m = new MetricsRecorder();
    m.record('Read', { durationMs: 1, isError: false });
    const before = m.snapshot();
    m.record('Read', { durationMs: 99, isError: true });
    expect(before.tools['Read']?.calls).toBe(1);
    expect(before.total.errors).toBe(0);
  });

  test('a tool named __proto__ is reported like any other', () => {
    const m = new MetricsRecorder();
    m.record('__proto__', { durationMs: 3, isError: false });
    const snap = m.snapshot();
    expect(Object.hasOwn(snap.tools, '__proto__')).toBe(true);
    expect(snap.tools['__proto__']?.calls).toBe(1);
  });

  test('record rejects a duration that is negative, NaN or infinite', () => {
    const m = new MetricsRecorder();
    expect(() => m.record('Read', { durationMs: -1, isError: false })).toThrow(/durationMs.*'Read'.*-1/);
    expect(() => m.record('Read', { durationMs: Number.NaN, isError: false })).toThrow(RangeError);
    expect(() => m.record('Read', { durationMs: Infinity, isError: false })).toThrow(RangeError);
    expect(m.snapshot().total.calls).toBe(0);
  });

  test('the constructor rejects a maxSamples that is not a positive integer', () => {
    expect(() => new MetricsRecorder({ maxSamples: 0 })).toThrow(/maxSamples.*0/);
  });
});
