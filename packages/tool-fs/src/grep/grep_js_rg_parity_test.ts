import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RIPGREP } from '../_test_engines.ts';
import { jsAnswer, rgAnswer } from './_test_rg_parity.ts';

// Each pattern is run by the real ripgrep and by the JS engine on the same file: both must
// refuse it, or both give the same lines and count.
const LINES = [
  'café!',
  'café',
  'xcafé',
  'é',
  'foo_bar',
  'naïve test',
  'a-b',
  '',
  'value = 1',
  'Ⓐb ٣x',
  'foo-bar',
  'end\r',
  '2024-05 the date',
  'x\u2028y a.b',
  'import { foo } from "./foo";',
  'important from here',
  'importfrom',
  'the café at the end',
  'id = getValue()',
];

// Escapes and classes RE2 reads otherwise than ripgrep: translated (\u), or refused by both.
const SYNTAX = [
  'x\\u2028y',
  'x\\u{2028}y',
  'x\\U00002028y',
  '\\Qa.b\\E',
  '[a&&b]',
  '[-a]b',
  '[\\w-]+',
  '(?s).',
  'ξ|\\p{Greek}',
];

const BOUNDARIES = [
  '\\bcafé\\b',
  'é\\b',
  '\\Bé',
  'é\\B',
  '\\bé',
  '\\b',
  '\\B',
  'a\\b',
  '\\b\\w+\\b',
  '\\bna',
  'ïve\\b',
  '\\b-',
  '\\B-\\B',
  '\\w+\\b\\s*=',
  'foo\\b-bar',
  '(?:\\bcafé|naïve\\b)',
  '\\b(?:café|test)\\b',
  '^\\bé',
  'é\\b$',
  '(?i)\\bCAFÉ\\b',
  '\\bⒶ',
  '٣\\b',
  'd\\b',
  '\\b\\d{4}-\\d{2}\\b',
];

// A boundary followed by a class that may be either kind, or may match nothing (`\b.*`): the
// patterns users write most (`\bimport\b.*from`).
const OPEN_AFTER = [
  '\\bimport\\b.*from',
  'import\\b.*\\bfrom\\b',
  '\\bthe\\b.*\\bend\\b',
  '\\b.',
  '\\B.',
  '\\w+\\b.*',
  'x\\b\\s*',
  '\\b\\w*',
  '\\w+\\b.*=',
  'café\\b.+',
  '\\bget\\w*\\b\\(?',
  '\\bfoo\\b.{1,3}from',
  '\\B.+?é',
];

const PAD = ['x '.repeat(12_000), '-'.repeat(30_000)];

// Patterns as the long lines' test runs them, with multiline or not.
const ON_LONG_LINES: [string, boolean][] = [
  ...[...BOUNDARIES, ...OPEN_AFTER].map((p): [string, boolean] => [p, false]),
  ['x\\u2028y', false],
  ['(?s)end.*?café', true],
  ['\\bcafé\\b', true],
  ['x \\w', true],
];

const MULTILINE_UNSURE = new Set(['\\b.', '\\B.', '\\B.+?é']);

const LINE_BREAKS = ['\\x0A', '\\n', 'a\\x{a}', '[\\n]', '[\\x0A]', '(?i)\\n', 'a|\\n', '[\\na]', '[^\\n]x', '\\s'];

// Refused by ripgrep for size (100 MB compiled), or taken by both (checked on ripgrep 13).
const SIZES = [
  '\\w{1000}\\d',
  '\\w{900}',
  '\\w{500}\\w{500}',
  '(?:\\w{10}\\s?){100}',
  '\\W{1000}',
  '\\w{1,1000}',
  '\\w{800}',
  '\\w{1,50}',
  '[0-9]{4}-[0-9]{2}',
  '.{0,200}',
  '\\d{1000}',
  '\\pL{1000}',
  '[a-z]{1000}',
];

describe.skipIf(RIPGREP === undefined)('the JS engine reads patterns as ripgrep does', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-parity-'));
    await writeFile(path.join(dir, 't.txt'), `${LINES.join('\n')}\n`);
    // The same lines, each one long (a minified bundle's): matched in the worker thread.
    await writeFile(path.join(dir, 'long.txt'), `${LINES.map((l, i) => `${PAD[i % 2]}${l}`).join('\n')}\n`);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const same = async (pattern: string, multiline: boolean) => {
    const options = { pattern, file: 't.txt', multiline };
    const [rg, js] = await Promise.all([rgAnswer(RIPGREP!, dir, options), jsAnswer(dir, options)]);
    if (rg.refused || js.refused)
      expect({ refused: js.refused }, JSON.stringify({ rg, js })).toEqual({ refused: rg.refused });
    else expect(js, JSON.stringify(rg)).toEqual(rg);
    return { rg, js };
  };

  test.each(ON_LONG_LINES)(
    '%s (multiline: %s) on lines of 12 000 to 30 000 characters: as ripgrep, matched in the worker or not',
    async (pattern, multiline) => {
      const options = { pattern, file: 'long.txt', multiline };
      const rg = await rgAnswer(RIPGREP!, dir, options);
      expect(await jsAnswer(dir, options), JSON.stringify(rg)).toEqual(rg);
      expect(await jsAnswer(dir, { ...options, inThreadMs: 0 }), JSON.stringify(rg)).toEqual(rg);
      expect(await jsAnswer(dir, { ...options, inThreadMs: Infinity }), JSON.stringify(rg)).toEqual(rg);
    },
  );

  test.each(BOUNDARIES)('word boundary %s: Unicode, as ripgrep', async (pattern) => {
    await same(pattern, false);
  });

  test.each(BOUNDARIES)('word boundary %s with multiline: the same lines and count', async (pattern) => {
    await same(pattern, true);
  });

  test.each(OPEN_AFTER)('%s: a boundary before what may be either kind is matched, not refused', async (pattern) => {
    const { js } = await same(pattern, false);
    expect(js.refused).toBe(false);
    // ripgrep 13's own multiline answers for a boundary next to any character disagree with
    // themselves (\b. on an ASCII file: -c 6, -o 5 lines, --json 3 submatches in one region).
    if (!MULTILINE_UNSURE.has(pattern)) await same(pattern, true);
  });

  test.each(LINE_BREAKS)('a line break in %s: refused without multiline when ripgrep refuses it', async (pattern) => {
    const { js } = await same(pattern, false);
    if (js.refused) expect(js.message).toMatch(/matches a line break .* set multiline: true/);
  });

  test.each(SYNTAX)('%s: as ripgrep reads it', async (pattern) => {
    await same(pattern, false);
    await same(pattern, true);
  });

  test.each(['[\\d--5]', '[a[b]]', '[\\w~~a]'])(
    'the class operation in %s is refused, not read as characters',
    async (pattern) => {
      const js = await jsAnswer(dir, { pattern, file: 't.txt', multiline: false });
      expect(js.refused && js.message).toMatch(/union or set operation of classes .* write the class out/);
    },
  );

  test.each(SIZES)('size of %s: refused where ripgrep refuses it', async (pattern) => {
    const { js } = await same(pattern, false);
    if (js.refused) expect(js.message).toMatch(/is too large: .* over ripgrep's limit of 100 MB.* Use a smaller count/);
  });
});
