import type { ShellWord } from './bash_parser.ts';
import { sedScriptFiles } from './_sed_script.ts';

/** Options of {@linkcode declareSedScript}. */
export interface SedScriptOptions {
  /** Declares a path the script reads or writes (relative to the command's folder). */
  add: (word: ShellWord, access: 'read' | 'write') => void;
  /** Declares what cannot be known. */
  addUnknown: (what: string, access: 'read' | 'write') => void;
}

/** The scripts of a sed command (`-e`, `--expression`, or the first operand) and its script files (`-f`). */
function sedScripts(args: readonly ShellWord[]): { scripts: string[]; files: ShellWord[] } {
  const scripts: string[] = [];
  const files: ShellWord[] = [];
  const operands: string[] = [];
  let ended = false;
  const word = (value: string, arg: ShellWord): ShellWord => ({ ...arg, text: value, value });
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (ended || !v.startsWith('-') || v === '-') {
      operands.push(v);
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    if (v.startsWith('--')) {
      // GNU getopt takes a unique abbreviation: `--e` is `--expression`, `--fi` is `--file`.
      const eq = v.indexOf('=');
      const name = eq === -1 ? v : v.slice(0, eq);
      const value = eq === -1 ? undefined : v.slice(eq + 1);
      if (name.length >= 3 && '--expression'.startsWith(name)) scripts.push(value ?? args[++i]?.value ?? '');
      else if (name.length >= 4 && '--file'.startsWith(name)) {
        const f = value !== undefined ? word(value, args[i]!) : args[++i];
        if (f) files.push(f);
      } else if (name.length >= 3 && '--line-length'.startsWith(name) && value === undefined) i++;
      continue;
    }
    for (let c = 1; c < v.length; c++) {
      const letter = v[c]!;
      if (letter === 'i') break; // the rest is the backup suffix
      if (letter !== 'e' && letter !== 'f' && letter !== 'l') continue;
      const rest = v.slice(c + 1);
      const value = rest !== '' ? word(rest, args[i]!) : args[++i];
      if (letter === 'e') scripts.push(value?.value ?? '');
      if (letter === 'f' && value) files.push(value);
      break;
    }
  }
  if (scripts.length === 0 && files.length === 0 && operands[0] !== undefined) scripts.push(operands[0]);
  return { scripts, files };
}

/**
 * Declares what a sed command's script opens and runs: the files of `r`/`R` as reads, of `w`/`W`
 * and `s///w` as writes; a script that runs a command (`e`, `s///e`), one this reader is not sure
 * of, or one in a file (`-f F`, whose text is not known before it runs) is an unknown write. The
 * words must be known (the caller declares a word not known before the command runs as unknown).
 *
 * @param args sed's words after its name.
 * @param options How to declare paths and what cannot be known.
 *
 * @example
 * ```ts
 * import { declareSedScript } from './_sed_command.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const written: string[] = [];
 * declareSedScript([word('-n'), word('1!w out.txt'), word('in.txt')], {
 *   add: (w, access) => void written.push(`${access}:${w.value}`),
 *   addUnknown: () => {},
 * });
 * written; // ['write:out.txt']
 * ```
 */
export function declareSedScript(args: readonly ShellWord[], { add, addUnknown }: SedScriptOptions): void {
  const { scripts, files } = sedScripts(args);
  for (const f of files)
    addUnknown(
      `what sed's script file \`${f.text}\` does (its text is not known before it runs: \`w\` writes a file, \`e\` runs a command)`,
      'write',
    );
  if (scripts.length === 0) return;
  const found = sedScriptFiles(scripts.join('\n'));
  const name = (value: string): ShellWord => ({ text: `sed's ${value}`, value, literal: true });
  for (const f of found.writes) add(name(f), 'write');
  for (const f of found.reads) add(name(f), 'read');
  if (found.problem !== undefined) addUnknown(`what \`sed ${scripts.join(' -e ')}\` does: ${found.problem}`, 'write');
}
