import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { isDirectory } from './_is_directory.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-isdir-'));
writeFileSync(path.join(dir, 'file.txt'), '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const word = (value: string, literal = true) => ({ text: value, value, literal });

test('a folder is one, a file or a missing path is not, and a word not known before the command runs may be', () => {
  expect(isDirectory(word('.'), dir)).toBe(true);
  expect(isDirectory(word('file.txt'), dir)).toBe(false);
  expect(isDirectory(word('missing'), dir)).toBe(false);
  expect(isDirectory(word('"$X"', false), dir)).toBe(true);
});
