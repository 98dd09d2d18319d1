import type { ShellWord } from './bash_parser.ts';

/** What {@linkcode scriptWords} read. */
export interface ScriptWords {
  /** The command string it runs through the shell (`-c CMD`); undefined: an interactive shell. */
  command: ShellWord | undefined;
  /** The files it writes: its log options' values and the typescript file (`./typescript` by default). */
  writes: ShellWord[];
}

// Options that take the next word (or an attached value); the log options write their value.
const LOGS = ['-I', '-O', '-B', '-T'];
const LONG_LOGS = ['--log-in', '--log-out', '--log-io', '--log-timing'];
const WITH_VALUE = [...LOGS, '-m', '-E', '-o', '-c'];
const LONG_WITH_VALUE = [...LONG_LOGS, '--logging-format', '--echo', '--output-limit', '--command'];
const TYPESCRIPT: ShellWord = { text: 'typescript', value: 'typescript', literal: true };

/**
 * How util-linux `script` reads its words: the command string it runs (`-c CMD`, `-qc CMD`,
 * `--command=CMD`, `--comm CMD`: getopt takes an abbreviation), the log files it writes (`-O F`,
 * `-OF`, `--log-in=F`, `-t[F]`, `--timing=F`) and the typescript file (its first other word, else
 * `./typescript`).
 *
 * @param args The words after `script`.
 * @returns The command and the files written.
 *
 * @example
 * ```ts
 * import { analyzeCommand } from '@toolshed/tool-shell/internal';
 * import { scriptWords } from './_script_words.ts';
 *
 * const { command, writes } = scriptWords(analyzeCommand("script -qc 'make' log").commands[0]!.args);
 * command?.value; // 'make'
 * writes.map((w) => w.value); // ['log']
 * ```
 */
export function scriptWords(args: readonly ShellWord[]): ScriptWords {
  let command: ShellWord | undefined;
  const writes: ShellWord[] = [];
  const positional: ShellWord[] = [];
  const attached = (word: ShellWord, rest: string): ShellWord => ({ ...word, text: rest, value: rest });
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const v = word.value;
    if (v === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const option = eq === -1 ? v : v.slice(0, eq);
      const full = LONG_WITH_VALUE.filter((o) => option.length >= 4 && o.startsWith(option));
      // `--timing[=F]`: its value only attached.
      if (option.length >= 4 && '--timing'.startsWith(option)) {
        if (eq !== -1) writes.push(attached(word, v.slice(eq + 1)));
        continue;
      }
      if (full.length !== 1) continue;
      const value = eq === -1 ? args[++i] : attached(word, v.slice(eq + 1));
      if (!value) continue;
      if (full[0] === '--command') command = value;
      else if (LONG_LOGS.includes(full[0]!)) writes.push(value);
      continue;
    }
    if (v.startsWith('-') && v.length > 1) {
      for (let c = 1; c < v.length; c++) {
        const letter = `-${v[c]}`;
        // `-tF`: the timing log, attached only.
        if (letter === '-t') {
          if (c + 1 < v.length) writes.push(attached(word, v.slice(c + 1)));
          break;
        }
        if (!WITH_VALUE.includes(letter)) continue;
        const value = c + 1 < v.length ? attached(word, v.slice(c + 1)) : args[++i];
        if (value && letter === '-c') command = value;
        else if (value && LOGS.includes(letter)) writes.push(value);
        break;
      }
      continue;
    }
    positional.push(word);
  }
  // Without a log option, the first other word names the typescript file.
  if (positional.length > 0) writes.push(positional[0]!);
  else if (writes.length === 0) writes.push(TYPESCRIPT);
  return { command, writes };
}
