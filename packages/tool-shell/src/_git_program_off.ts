/**
 * Settings a repository's config may name a program in that git runs: given empty on the command
 * line (`-c core.fsmonitor=`), git runs none (git 2.39: `-c diff.external=`, `-c diff.x.textconv=`,
 * `-c filter.x.clean=` each stop theirs).
 */
const PROGRAM_SETTING_OFF =
  /^(core\.(fsmonitor|pager|sshcommand|askpass)|diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|gpg\.program|gpg\..+\.program|pager\.[^.]+|credential\.helper)=$/i;

/**
 * The key a `-c KEY=` word turns off, as `gitProgramSettings` names it (section and key in lower
 * case, the subsection as written), when it is one of {@linkcode PROGRAM_SETTING_OFF}.
 *
 * @param word The word after `-c`.
 * @returns The key, or undefined when the word sets something else (or sets it to a value).
 *
 * @example
 * ```ts
 * import { programTurnedOff } from './_git_program_off.ts';
 *
 * programTurnedOff('Diff.X.TextConv='); // 'diff.X.textconv'
 * programTurnedOff('core.fsmonitor=./x'); // undefined
 * ```
 */
export function programTurnedOff(word: string): string | undefined {
  if (!PROGRAM_SETTING_OFF.test(word)) return undefined;
  const parts = word.slice(0, -1).split('.');
  const section = parts.shift()!.toLowerCase();
  const key = parts.pop()!.toLowerCase();
  return parts.length === 0 ? `${section}.${key}` : `${section}.${parts.join('.')}.${key}`;
}
