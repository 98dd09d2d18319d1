import { expect, test } from 'vitest';
import { escapeUnprintable, printableMessage, quoted } from './_printable.ts';

test('quoted writes escape codes, C1 controls and bidi overrides as \\uXXXX inside JSON quotes', () => {
  expect(quoted('issues\u001b[2K')).toBe('"issues\\u001b[2K"');
  expect(quoted('a\u009b2Jb')).toBe('"a\\u009b2Jb"');
  expect(quoted('evil\u202etxt.sh')).toBe('"evil\\u202etxt.sh"');
  expect(quoted('plain name')).toBe('"plain name"');
});

test('escapeUnprintable leaves printable text alone, accents and emoji included', () => {
  expect(escapeUnprintable('café ✓ 漢字')).toBe('café ✓ 漢字');
  expect(escapeUnprintable('a\u0007b\u2028c')).toBe('a\\u0007b\\u2028c');
});

test('printableMessage keeps the newlines and tabs that lay a message out, and escapes the rest', () => {
  expect(printableMessage('problems:\n-\tkey "model\u001b[1A"')).toBe('problems:\n-\tkey "model\\u001b[1A"');
  expect(printableMessage('a\rb')).toBe('a\\u000db');
});
