import type { ShellWord } from './bash_parser.ts';

/**
 * Whether a word the guard cannot know before the command runs may turn into an option: it does
 * not start with a character that is known not to be `-` (`origin/$B` cannot; `$X`, `"$X"`,
 * `$(…)`, `*` can: a glob may match a file named `-o…`).
 *
 * @param word A word of the command.
 * @returns True when it may be an option.
 *
 * @example
 * ```ts
 * import { mayBeOption } from './_option_words.ts';
 *
 * mayBeOption({ text: '$X', value: '', literal: false }); // true
 * mayBeOption({ text: 'origin/$B', value: 'origin/', literal: false }); // false
 * ```
 */
export function mayBeOption(word: ShellWord): boolean {
  if (word.literal) return word.value.startsWith('-');
  const first = word.text.replace(/^["']+/, '')[0];
  return first === undefined || first === '-' || '$`\\*?[{~'.includes(first);
}
