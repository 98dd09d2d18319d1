import type { ShellWord, SimpleCommand } from './bash_parser.ts';
import { namedBuiltin } from './_named_builtin.ts';

/** A subscript with an expansion in it: `x[$(cmd)]`, `x[`cmd`]`, `x[$i]`. */
const EXPANDING_SUBSCRIPT = /\[[^\]]*[$`]/;

/** Options of `read` and of `mapfile`/`readarray` that take a value that is not a name (`-p PROMPT`). */
const READ_VALUES = new Set(['-d', '-i', '-n', '-N', '-p', '-t', '-u']);
const MAPFILE_VALUES = new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']);

/**
 * The words of a builtin that bash takes as variable names (`printf -v NAME`, `read NAME…`,
 * `test -v NAME`, `getopts OPTS NAME`, `wait -p NAME`; every word of `let`, `declare` and kin,
 * `unset` and `[[ ]]`, whose operands may be arithmetic), or none for other programs.
 */
function nameWords(c: SimpleCommand, name: string, args: readonly ShellWord[]): readonly ShellWord[] {
  if (c.kind === 'declaration' || c.kind === 'test') return c.args;
  const after = (flag: string) =>
    args.flatMap((a, i) =>
      a.value === flag && args[i + 1] ? [args[i + 1]!] : a.value.startsWith(flag) && a.value !== flag ? [a] : [],
    );
  switch (name) {
    case 'let':
    // Through `builtin`, declarations parse as a plain command: every word may be a name.
    case 'declare':
    case 'typeset':
    case 'local':
    case 'export':
    case 'readonly':
    case 'unset':
      return args;
    case 'printf':
      return after('-v');
    case 'test':
    case '[':
      return after('-v');
    case 'wait':
      return after('-p');
    case 'getopts':
      return args.filter((a) => !a.value.startsWith('-')).slice(1, 2);
    case 'read':
    case 'mapfile':
    case 'readarray': {
      const values = name === 'read' ? READ_VALUES : MAPFILE_VALUES;
      return args.filter((a, i) => !values.has(args[i - 1]?.value ?? '') && !/^-[a-zA-Z]$/.test(a.value));
    }
    default:
      return [];
  }
}

/**
 * Why a command may run what a quoted variable name's subscript holds, or undefined: bash
 * evaluates the subscript of an indexed array's element it assigns or tests as arithmetic, which
 * expands the `$(…)` or `` `…` `` in it, though the word was quoted (`printf -v 'x[$(cmd)]' %s 1`,
 * `read 'x[$(cmd)]'`, `test -v 'x[$(cmd)]'`, `declare`, `unset`, `let`, `[[ -v ]]`); and
 * `mapfile -C CALLBACK` runs CALLBACK as a command.
 *
 * @param commands The simple commands of the analysis.
 * @returns The reason, for an unknown write.
 *
 * @example
 * ```ts
 * import { analyzeCommand, loadBashParser } from './bash_parser.ts';
 * import { subscriptInjection } from './_subscript_names.ts';
 *
 * await loadBashParser();
 * subscriptInjection(analyzeCommand("printf -v 'x[$(touch f)]' %s 1").commands); // 'what … runs: bash evaluates …'
 * subscriptInjection(analyzeCommand('printf -v x %s 1').commands); // undefined
 * ```
 */
export function subscriptInjection(commands: readonly SimpleCommand[]): string | undefined {
  for (const c of commands) {
    // `builtin printf -v …` and `command mapfile -C …` run the same builtin.
    const { name, args } = namedBuiltin(c);
    if ((name === 'mapfile' || name === 'readarray') && args.some((a) => /^-[a-zA-Z]*C/.test(a.value)))
      return `what \`${c.text.slice(0, 80)}\` runs: ${name} -C runs its callback as a command`;
    const word = nameWords(c, name, args).find((a) => EXPANDING_SUBSCRIPT.test(a.value));
    if (word !== undefined)
      return `what \`${c.text.slice(0, 80)}\` runs: bash evaluates the subscript of \`${word.text}\` as arithmetic, and \`$(cmd)\` in it runs cmd`;
  }
  return undefined;
}
