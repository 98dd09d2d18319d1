/**
 * GNU getopt takes a long option spelled out or cut short to any prefix that no other option of
 * the program shares (`--files0=F` is `--files0-from=F`, `--comp=sh` is `--compress-program=sh`).
 * The guard's tables hold some of a program's options, not all: a prefix of a table option is
 * taken for it (the program either means that one or refuses the prefix as ambiguous).
 *
 * @module
 */

/**
 * Whether a word is the long option `full`, spelled out or abbreviated, with or without `=value`
 * (`--comp=sh`, `--compress-program`); `--` alone and short options are not.
 *
 * @param word A word of the command, as written (`--comp=sh`).
 * @param full The long option (`--compress-program`).
 * @returns True when getopt may read the word as `full`.
 *
 * @example
 * ```ts
 * import { abbreviates } from './_long_option.ts';
 *
 * abbreviates('--comp=sh', '--compress-program'); // true
 * abbreviates('--', '--compress-program'); // false
 * ```
 */
export function abbreviates(word: string, full: string): boolean {
  const name = word.replace(/=.*/s, '');
  return name.length >= 3 && name.startsWith('--') && full.startsWith(name);
}

/**
 * How a table takes a long option: exact, else the most a table option it abbreviates does
 * (a file read or named, written, values), undefined when it abbreviates none that takes a word.
 *
 * @param table The program's long and short options with how each uses the words after it.
 * @param flag The option as written, without `=value` (`--files0`).
 * @returns The use of the option the word stands for.
 *
 * @example
 * ```ts
 * import { longOption } from './_long_option.ts';
 *
 * longOption({ '--files0-from': 'names', '--debug': 'flag' }, '--files0'); // 'names'
 * ```
 */
export function longOption<Use extends string>(table: Readonly<Record<string, Use>>, flag: string): Use | undefined {
  if (Object.hasOwn(table, flag)) return table[flag];
  const uses = Object.keys(table)
    .filter((k) => k.startsWith('--') && abbreviates(flag, k))
    .map((k) => table[k]!);
  return MOST.find((use) => (uses as string[]).includes(use)) as Use | undefined;
}

/** The uses an abbreviation shared by several table options is taken as, the most it could do first. */
const MOST = ['names', 'paths', 'read2', 'read', 'write', 'value2', 'value', 'optional'];
