import type { ShellWord, SimpleCommand } from './bash_parser.ts';

/**
 * The builtin a command runs and its words, through `builtin` and `command` (command's `-p`, and
 * `--` after either): `builtin source f` and `command -p -- eval x` are `source f` and `eval x`. A
 * name not known before it runs is `eval` with that word, which runs what cannot be known.
 *
 * @param cmd A simple command.
 * @returns Its name as bash runs it, and the words after the name.
 *
 * @example
 * ```ts
 * import { analyzeCommand, loadBashParser } from './bash_parser.ts';
 * import { namedBuiltin } from './_named_builtin.ts';
 *
 * await loadBashParser();
 * namedBuiltin(analyzeCommand('command -p eval "cat .env"').commands[0]!).name; // 'eval'
 * ```
 */
export function namedBuiltin(cmd: SimpleCommand): { name: string; args: readonly ShellWord[] } {
  let name = cmd.name?.value ?? '';
  let args = cmd.args;
  while ((name === 'builtin' || name === 'command') && args.length > 0) {
    let at = name === 'command' ? args.findIndex((a) => !(a.literal && /^-p+$/.test(a.value))) : 0;
    if (at >= 0 && args[at]?.literal && args[at]!.value === '--') at++;
    const next = at < 0 ? undefined : args[at];
    if (next === undefined) break;
    if (!next.literal) return { name: 'eval', args: [next] };
    name = next.value;
    args = args.slice(at + 1);
  }
  return { name, args };
}
