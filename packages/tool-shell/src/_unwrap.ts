import type { ShellWord } from './bash_parser.ts';
import { WRAPPERS, type Wrapper } from './read_only_rules.ts';

/** What {@linkcode unwrapOnce} found inside a wrapper. */
export interface Unwrapped {
  /** The wrapper's name without its directory (`timeout`, `env`, `xargs`, …). */
  wrapper: string;
  /**
   * The command the wrapper runs, its arguments included. A command string it runs through the
   * shell (`flock F -c 'rm x'`) comes as `sh -c 'rm x'`, which is what it runs.
   */
  inner: ShellWord[];
  /** `env NAME=value …`: the assignments change what the inner command does. */
  assigned: boolean;
  /** The files the wrapper writes itself: its lock file, its log (`flock F`, `strace -o LOG`). */
  writes: ShellWord[];
  /** The wrapper's own words: its options, their values, assignments and leading values. */
  own: ShellWord[];
}

/**
 * The command a known wrapper runs: `timeout -s KILL 5 rm x` → `rm x`, skipping the wrapper's
 * options (with their values, separate or attached), `env`'s assignments and leading values
 * such as `timeout`'s duration. Shared by the permission matcher and the path guard's reading
 * of file arguments, so both look through wrappers the same way.
 *
 * @param words The command's words, its name first.
 * @returns The inner command, or undefined when the words are not a wrapper around a command.
 *
 * @example
 * ```ts
 * import { analyzeCommand } from '@toolshed/tool-shell/internal';
 * import { unwrapOnce } from './_unwrap.ts';
 *
 * const cmd = analyzeCommand('nice -n5 cat .env').commands[0]!;
 * unwrapOnce([cmd.name!, ...cmd.args])?.inner.map((w) => w.value); // ['cat', '.env']
 * ```
 */
export function unwrapOnce(words: readonly ShellWord[]): Unwrapped | undefined {
  const name = words[0]?.value.replace(/^.*\//, '');
  if (!name || !Object.hasOwn(WRAPPERS, name)) return undefined;
  const wrapper = WRAPPERS[name]!;
  const writes: ShellWord[] = [];
  let i = 1;
  let leading = wrapper.leadingValues ?? 0;
  // `setarch [ARCH] [OPTIONS] CMD`: an architecture only as the first word.
  if (wrapper.leadingFirst && words[1]?.value.startsWith('-')) leading = 0;
  let assigned = false;
  // After `--` no word is an option, but the leading values still come (`timeout -- 5 cmd`).
  let optionsEnded = false;
  while (i < words.length) {
    const v = words[i]!.value;
    if (v === '--' && !optionsEnded) {
      optionsEnded = true;
      i++;
      continue;
    }
    if (!optionsEnded && v.startsWith('-') && v.length > 1 && !(wrapper.leadingFirst && leading > 0)) {
      const taken = optionWords(v, wrapper.optionsWithValue);
      const value = optionValue(words, i, wrapper, taken);
      if (value) writes.push(value);
      i += taken;
      continue;
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      assigned = true;
      i++;
      continue;
    }
    if (leading > 0) {
      if (wrapper.makesLeadingFile && leading === (wrapper.leadingValues ?? 0)) writes.push(words[i]!);
      leading--;
      i++;
      // `flock F -c 'cmd'`: the command string comes right after the leading values.
      if (leading === 0 && wrapper.commandString) {
        const run = commandStringAt(words, i, wrapper.commandString);
        if (run) return { wrapper: name, inner: run, assigned, writes, own: words.slice(1, i) };
      }
      continue;
    }
    break;
  }
  return i < words.length
    ? { wrapper: name, inner: words.slice(i), assigned, writes, own: words.slice(1, i) }
    : undefined;
}

/**
 * The command inside every known wrapper (`nice timeout 5 rm x` → `rm x`); undefined when it is
 * more than eight wrappers deep, which the guard does not read (a caller fails closed).
 *
 * @param words The command's words, its name first.
 * @returns The innermost command's words, or undefined.
 *
 * @example
 * ```ts
 * import { analyzeCommand } from '@toolshed/tool-shell/internal';
 * import { innermostCommand } from './_unwrap.ts';
 *
 * const cmd = analyzeCommand('nice setsid rm x').commands[0]!;
 * innermostCommand([cmd.name!, ...cmd.args])?.map((w) => w.value); // ['rm', 'x']
 * ```
 */
export function innermostCommand(words: readonly ShellWord[]): readonly ShellWord[] | undefined {
  for (let guard = 0; guard < 8; guard++) {
    const found = unwrapOnce(words);
    if (!found) return words;
    words = found.inner;
  }
  return unwrapOnce(words) ? undefined : words;
}

/** The value of a wrapper's option that writes a file (`-o LOG`, `-oLOG`, `--output=LOG`, `--out LOG`), if it is one. */
function optionValue(words: readonly ShellWord[], at: number, wrapper: Wrapper, taken: 1 | 2): ShellWord | undefined {
  if (!wrapper.writes) return undefined;
  const word = words[at]!;
  const v = word.value;
  const attached = (rest: string): ShellWord => ({ ...word, text: rest, value: rest });
  if (v.startsWith('--')) {
    const eq = v.indexOf('=');
    const option = eq === -1 ? v : v.slice(0, eq);
    const full = wrapper.writes.filter((o) => o.startsWith('--') && option.length >= 3 && o.startsWith(option));
    if (full.length === 0) return undefined;
    return eq === -1 ? (taken === 2 ? words[at + 1] : undefined) : attached(v.slice(eq + 1));
  }
  // The option with a value in a bundle is its last letter with a value: `-ao F`, `-oF`.
  for (let c = 1; c < v.length; c++) {
    if (!wrapper.optionsWithValue.includes(`-${v[c]}`)) continue;
    if (!wrapper.writes.includes(`-${v[c]}`)) return undefined;
    return c + 1 < v.length ? attached(v.slice(c + 1)) : words[at + 1];
  }
  return undefined;
}

/** `-c 'cmd'`, `--command 'cmd'`, `--command='cmd'` at `at`: the words `sh -c 'cmd'`. */
function commandStringAt(words: readonly ShellWord[], at: number, options: readonly string[]): ShellWord[] | undefined {
  const word = words[at];
  if (!word) return undefined;
  const sh: ShellWord = { text: 'sh', value: 'sh', literal: true };
  const dashC: ShellWord = { text: '-c', value: '-c', literal: true };
  const eq = word.value.indexOf('=');
  if (word.value.startsWith('--') && eq !== -1 && options.includes(word.value.slice(0, eq))) {
    const rest = word.value.slice(eq + 1);
    return [sh, dashC, { ...word, text: rest, value: rest }];
  }
  if (!options.includes(word.value)) return undefined;
  const script = words[at + 1];
  // `flock F -c` with nothing after it: the shell gets no script, flock fails.
  return script ? [sh, dashC, script] : [sh, dashC];
}

/**
 * How many words a wrapper's option takes, as GNU getopt reads it: a bundle of short options
 * (`-iC DIR`, `-iu NAME`) takes the next word when its first letter with a value is its last
 * (`-ks` is `-k s`), and a long option may be a unique abbreviation (`time --out F`).
 */
function optionWords(v: string, withValue: readonly string[]): 1 | 2 {
  if (v.startsWith('--')) {
    if (v.includes('=')) return 1;
    const takes =
      withValue.includes(v) || (v.length >= 3 && withValue.some((o) => o.startsWith('--') && o.startsWith(v)));
    return takes ? 2 : 1;
  }
  for (let c = 1; c < v.length; c++) if (withValue.includes(`-${v[c]}`)) return c === v.length - 1 ? 2 : 1;
  return 1;
}
