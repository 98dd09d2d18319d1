import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { type Arity, FILE_USE } from './_file_use.ts';
import { type HelpArity, parseHelp } from './testdata/help_options.ts';

/**
 * The option tables are checked against the real programs' `--help`: every option of a table
 * exists, with the arity the program gives it (`--lines=NUM` takes a value, `--width[=N]` an
 * optional one, `--quiet` none). A short option shares the arity of the long one written
 * beside it (`-n, --lines=NUM`). Programs not installed, or whose help has another layout, are
 * listed as skipped.
 */

function expected(arity: Arity): HelpArity | undefined {
  if (arity === 'flag') return 'flag';
  if (arity === 'optional') return 'optional';
  if (arity === 'value2' || arity === 'read2') return undefined;
  return 'required';
}

/** Programs with GNU-style `--help` whose tables are checked; the others are skipped. */
const CHECKED = [
  'cat',
  'tac',
  'nl',
  'head',
  'tail',
  'wc',
  'od',
  'base64',
  'cksum',
  'cmp',
  'diff',
  'comm',
  'stat',
  'sort',
  'date',
  'uniq',
  'cut',
  'paste',
  'fold',
  'fmt',
  'expand',
  'unexpand',
  'grep',
  'sed',
  'tee',
  'touch',
  'mkdir',
  'rm',
  'shred',
  'truncate',
  'cp',
  'ln',
  'install',
  'mv',
  'chmod',
  'chown',
  'chgrp',
  'du',
  'ls',
  'column',
];

/** Options a program accepts that its --help leaves out or spells differently (checked by hand). */
const UNLISTED: Readonly<Record<string, readonly string[]>> = {
  // -I is --iso-8601's short form; date's help writes it `-I[FMT], --iso-8601[=FMT]`.
  grep: ['--colour'],
  ls: ['-F'],
  // Written as placeholders: `--LTYPE-line-format=LFMT`, `--GTYPE-group-format=GFMT`.
  diff: [
    '--old-line-format',
    '--new-line-format',
    '--unchanged-line-format',
    '--old-group-format',
    '--new-group-format',
    '--changed-group-format',
    '--unchanged-group-format',
  ],
  // Written `-c  --format=FORMAT`, with two spaces.
  stat: ['-c', '--format'],
};

describe('the option tables agree with the real programs (--help)', () => {
  for (const name of CHECKED) {
    const use = FILE_USE[name];
    const help = spawnSync(name, ['--help'], { encoding: 'utf8', env: { ...process.env, LANG: 'C', LC_ALL: 'C' } });
    const text = `${help.stdout ?? ''}${help.stderr ?? ''}`;
    const missing = help.error !== undefined || !/--help/.test(text);
    // A program with no option table (cat, tee, rm) has nothing to check.
    if (!use?.options) continue;
    test.skipIf(missing)(`${name}: every option of the table exists with its arity`, () => {
      const options = parseHelp(text);
      const wrong: string[] = [];
      for (const [option, arity] of Object.entries(use!.options!)) {
        if (UNLISTED[name]?.includes(option)) continue;
        const real = options.get(option);
        if (real === undefined) {
          wrong.push(`${option} is not an option of ${name}`);
          continue;
        }
        const want = expected(arity);
        if (want !== undefined && real !== want)
          wrong.push(`${option}: the table says ${arity}, ${name} --help says ${real}`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
    // getopt takes a whole option as itself, not as the abbreviation of a longer one: the guard,
    // which takes a prefix of a table option for it, must know it (`grep --binary KEY .env` is
    // no `--binary-files KEY`, `column --table .env` no `--table-columns .env`).
    test.skipIf(missing)(`${name}: every option that begins a longer one is in the table`, () => {
      const table = use!.options!;
      const unknown = [...parseHelp(text).keys()].filter(
        (option) =>
          option.startsWith('--') &&
          !Object.hasOwn(table, option) &&
          Object.keys(table).some((k) => k !== option && k.startsWith(option) && table[k] !== 'flag'),
      );
      expect(unknown, `${name} takes these whole; the table would read them as a longer option`).toEqual([]);
    });
    if (missing) test.skip(`${name}: not installed or no --help (${help.error?.message ?? 'other layout'})`, () => {});
  }

  test('the help parser reads the GNU layouts it relies on', () => {
    const parsed = parseHelp(
      '  -n, --lines=[-]NUM       print\n  -w, --width[=BYTES]  x\n  -c, --bytes    y\n      --color[=WHEN]  z\n  -e PATTERNS, --regexp=PATTERNS  q\n',
    );
    expect(Object.fromEntries(parsed)).toEqual({
      '--lines': 'required',
      '-n': 'required',
      '--width': 'optional',
      '-w': 'optional',
      '--bytes': 'flag',
      '-c': 'flag',
      '--color': 'optional',
      '-e': 'required',
      '--regexp': 'required',
    });
  });
});
