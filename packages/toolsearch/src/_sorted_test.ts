import { expect, test } from 'vitest';
import { intersection, positionsIn } from './_sorted.ts';

/** A seeded generator, so a failure names the lists that made it. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function ascending(next: () => number, n: number, range: number): Int32Array {
  return Int32Array.from(new Set(Array.from({ length: n }, () => Math.floor(next() * range)))).sort();
}

test('positionsIn says where each ascending value stands in an ascending list, -1 where it is absent', () => {
  const list = Int32Array.of(1, 3, 5, 7);
  expect([...positionsIn(list, Int32Array.of(0, 1, 2, 5, 7, 8))]).toEqual([-1, 0, -1, 2, 3, -1]);
  expect([...positionsIn(new Int32Array(0), [4])]).toEqual([-1]);
  const next = random(7);
  for (let round = 0; round < 100; round++) {
    const long = ascending(next, Math.floor(next() * 300), 1000);
    const values = ascending(next, Math.floor(next() * 30), 1000);
    expect([...positionsIn(long, values)]).toEqual([...values].map((v) => long.indexOf(v)));
  }
});

test('intersection gives the numbers both ascending lists hold, whatever their lengths', () => {
  const next = random(19);
  for (let round = 0; round < 200; round++) {
    const a = ascending(next, Math.floor(next() * 40), 100);
    const b = ascending(next, Math.floor(next() * 400), 1000);
    const inB = new Set(b);
    const expected = [...a].filter((x) => inB.has(x));
    expect(intersection(a, b), `${a} ∩ ${b}`).toEqual(expected);
    expect(intersection(b, a)).toEqual(expected);
  }
  expect(intersection([], [1, 2])).toEqual([]);
  expect(intersection([5], [5])).toEqual([5]);
});
