import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { ShellWord } from './bash_parser.ts';
import { expandWord } from './_expand_word.ts';

/** Where `git diff` runs: the folder it resolves paths in, and the top of its repository. */
export interface NoIndexPlace {
  /** The folder git runs in (`-C`'s, else the shell's); undefined when not known. */
  folder: string | undefined;
  /** The top of the repository git finds there; undefined outside any. */
  top: string | undefined;
  /** What `~` stands for. */
  home: string;
}

/**
 * The two paths `git diff` compares as `git diff --no-index` does, reading every file below them
 * whether git tracks it or not: git does so, as its own code says, when given exactly two paths
 * (after its options, or after `--`) and one of them is outside the repository
 * (`git diff /tmp/empty .` shows `.env`), or when it runs outside any repository. A path not
 * known before the command runs may be outside.
 *
 * @param words The words after `diff`.
 * @param place Where git runs (see {@linkcode NoIndexPlace}).
 * @returns The two words, or undefined when git diffs the repository.
 *
 * @example
 * ```ts
 * import { noIndexOperands } from './_git_no_index.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const place = { folder: '/repo', top: '/repo', home: '/home/u' };
 * noIndexOperands([word('/tmp/empty'), word('.')], place); // [/tmp/empty, .]
 * noIndexOperands([word('a.txt'), word('src')], place); // undefined
 * ```
 */
export function noIndexOperands(words: readonly ShellWord[], place: NoIndexPlace): ShellWord[] | undefined {
  let at = 0;
  for (; at < words.length; at++) {
    const v = words[at]!.value;
    if (words[at]!.literal && v === '--') {
      at++;
      break;
    }
    if (!words[at]!.literal || !v.startsWith('-')) break;
  }
  const operands = words.slice(at);
  if (operands.length !== 2) return undefined;
  return operands.some((w) => !inside(w, place)) ? operands : undefined;
}

/** Whether a path is surely inside the repository, as written and as the kernel resolves it. */
function inside(word: ShellWord, { folder, top, home }: NoIndexPlace): boolean {
  if (!word.literal || folder === undefined || top === undefined) return false;
  const expanded = expandWord(word, { cwd: folder, home });
  if (expanded === undefined || expanded.length !== 1) return false;
  const full = path.resolve(folder, expanded[0]!);
  const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);
  if (!under(full, top)) return false;
  try {
    return under(realpathSync(full), realpathSync(top));
  } catch {
    // A path that does not exist is judged as written.
    return true;
  }
}
