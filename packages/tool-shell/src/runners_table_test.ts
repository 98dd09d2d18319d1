import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { WRAPPERS } from './read_only_rules.ts';
import { parseHelp } from './testdata/help_options.ts';

/**
 * The wrappers' option tables against the real programs' `--help`: an option that takes a value
 * and is missing from `optionsWithValue` makes the guard read its value as the command
 * (`flock -w 5 F rm x` read as a command `5`), so every such option must be listed, and every
 * listed one must take a value. Programs not installed, builtins and helps of another layout
 * are listed as skipped.
 */

/** What a program's help says differently from how it parses (checked by hand). */
const HELP_QUIRKS: Readonly<Record<string, { notValues?: readonly string[]; values?: readonly string[] }>> = {
  // `-q, --quiet=attach,personality` says what -q means: -q, -x and -Y take no value, and
  // --quiet, --decode-fds, --tips and --strings-in-hex take one only attached (tried: `strace --quiet -o /dev/null echo` runs echo).
  strace: {
    notValues: ['-q', '-x', '-Y', '--quiet', '--decode-fds', '--absolute-timestamps', '--tips', '--strings-in-hex'],
  },
  // `-c CMD` / `--command CMD` come after the lock file (read as its command string); `--wait` is
  // --timeout's other name, left out of the help (tried: `flock --wait 1 F echo` runs echo).
  flock: { notValues: ['-c', '--command'], values: ['--wait'] },
  // `-a TYPE` and `-c CLASS` (BSD auth and login classes) exist in builds with them; Linux's help leaves them out.
  sudo: { values: ['-a', '-c', '--auth-type', '--login-class'] },
  // `-a NAME` / `--argv0` are coreutils 9.7's; older helps do not list them.
  env: { values: ['-a', '--argv0'] },
  // GNU time's help writes `-f, --format=FORMAT` and `-o, --output=FILE` on lines that begin with more spaces.
  time: { values: ['-f', '--format', '-o', '--output'] },
};

const isOption = (name: string) => /^-[A-Za-z0-9]$/.test(name) || /^--[A-Za-z0-9][\w-]+$/.test(name);

/** Shell builtins: no program to ask (their options are bash's, checked by hand). */
const BUILTINS = new Set(['command', 'builtin', 'exec']);

/** doas prints only a usage line (`usage: doas [-Lns] [-C config] [-u user] command [args]`): its `[-X value]` groups. */
function usageOptions(text: string): Map<string, 'required'> {
  return new Map([...text.matchAll(/\[(-[A-Za-z]) [a-z]+\]/g)].map((m) => [m[1]!, 'required' as const]));
}

describe('the wrappers agree with the real programs (--help)', () => {
  for (const [name, wrapper] of Object.entries(WRAPPERS)) {
    if (BUILTINS.has(name)) continue;
    const help = spawnSync(name, ['--help'], { encoding: 'utf8', env: { ...process.env, LANG: 'C', LC_ALL: 'C' } });
    const text = `${help.stdout ?? ''}${help.stderr ?? ''}`;
    if (name === 'doas' && /usage: doas/.test(text)) {
      test("doas: its options with a value are exactly the table's (its usage line)", () => {
        expect([...usageOptions(text).keys()].sort()).toEqual([...wrapper.optionsWithValue].sort());
      });
      continue;
    }
    const missing = help.error !== undefined || !/--help/.test(text);
    if (missing) {
      test.skip(`${name}: not installed, a builtin, or no GNU --help (${help.error?.message ?? 'other layout'})`, () => {});
      continue;
    }
    test(`${name}: its options with a value are exactly the table's`, () => {
      const quirks = HELP_QUIRKS[name] ?? {};
      const options = parseHelp(text);
      const takesValue = new Set(
        [...options]
          .filter(([option, arity]) => isOption(option) && arity === 'required')
          .map(([option]) => option)
          .filter((option) => !quirks.notValues?.includes(option)),
      );
      for (const v of quirks.values ?? []) takesValue.add(v);
      const unlisted = [...takesValue].filter((o) => !wrapper.optionsWithValue.includes(o));
      const notValues = wrapper.optionsWithValue.filter((o) => !takesValue.has(o));
      expect({ unlisted, notValues }, `${name} --help`).toEqual({ unlisted: [], notValues: [] });
    });
  }
});
