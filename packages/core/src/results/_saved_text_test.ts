import { expect, test } from 'vitest';
import { savedText } from './_saved_text.ts';
import { unfold } from './_test_unfold.ts';

test('an output whose lines Read shows whole is saved as it is, with no note', () => {
  const text = `${'x'.repeat(2_000)}\nshort`;
  expect(savedText(text)).toEqual({ text, note: '' });
});

test('JSON with a long line is saved re-indented when that makes every line short, and the note says so', () => {
  const text = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, name: `n${i}` })));
  const saved = savedText(text);
  expect(saved.note).toMatch(/one JSON value .* re-indented/);
  expect(JSON.parse(saved.text)).toEqual(JSON.parse(text));
  expect(Math.max(...saved.text.split('\n').map((l) => l.length))).toBeLessThan(100);
});

test('JSON holding a string too long for one line is folded instead, and the note says that', () => {
  const text = JSON.stringify({ blob: 'b'.repeat(10_000) });
  const saved = savedText(text);
  expect(saved.note).toMatch(/folded every 2,000 characters/);
  expect(unfold(saved.text)).toBe(text);
});

test('deeply nested JSON is folded, not re-indented, and saving it does not fail', () => {
  const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
  const { text, note } = savedText(deep);
  expect(note).toMatch(/folded every 2,000 characters/);
  expect(text.split('\n').every((line) => line.length <= 2_000)).toBe(true);
});

test('an output with a NUL is saved with ␀ in its place, even with short lines', () => {
  const { text, note } = savedText('a\u0000b');
  expect(text).toBe('a\u2400b');
  expect(note).toMatch(/NUL/);
});
