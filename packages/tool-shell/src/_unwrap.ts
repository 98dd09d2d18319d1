import type { ShellWord } from './bash_parser.ts';
import { WRAPPERS } from './read_only_rules.ts';

/** What {@linkcode unwrapOnce} found inside a wrapper. */
export interface Unwrapped {
  /** The wrapper's name without its directory (`timeout`, `env`, `xargs`, …). */
  wrapper: string;
  /** The command the wrapper runs, its arguments included. */
  inner: ShellWord[];
  /** `env NAME=value …`: the assignments change what the inner command does. */
  assigned: boolean;
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
  let i = 1;
  let leading = wrapper.leadingValues ?? 0;
  let assigned = false;
  while (i < words.length) {
    const v = words[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (v.startsWith('-') && v.length > 1) {
      i += optionWords(v, wrapper.optionsWithValue);
      continue;
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      assigned = true;
      i++;
      continue;
    }
    if (leading > 0) {
      leading--;
      i++;
      continue;
    }
    break;
  }
  return i < words.length ? { wrapper: name, inner: words.slice(i), assigned } : undefined;
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
