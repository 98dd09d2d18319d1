/**
 * What a GNU sed script opens and runs, read command by command as sed reads it: `r`/`R` read a
 * file, `w`/`W` and the `w` flag of `s` write one, `e` and the `e` flag of `s` run a command.
 * Addresses (`1`, `$`, `1~2`, `/re/I`, `\%re%`, `0,/re/`, `+N`), `!`, blocks, labels and the text
 * of `a`/`i`/`c` are skipped as sed skips them, so `1!w F`, `s|a|b|w F` and `$e CMD` are seen
 * where a pattern over the text is not. Whatever this reader is not sure of is a problem.
 *
 * @module
 */

/** What {@linkcode sedScriptFiles} found. */
export interface SedScriptFiles {
  /** Files the script reads (`r F`, `R F`), as written. */
  reads: string[];
  /** Files the script writes (`w F`, `W F`, `s///w F`), as written. */
  writes: string[];
  /** Why what the script does cannot be known (it runs a command, or it could not be read), or undefined. */
  problem: string | undefined;
}

/** Commands that take nothing after them (`l`, `q`, `Q`, `L` take an optional number). */
const PLAIN = new Set([...'=dDgGhHlnNpPxzFqQL']);
/** Files sed opens itself rather than as paths. */
const SPECIAL_WRITES = new Set(['/dev/stdout', '/dev/stderr']);

/**
 * The index just after the bracket expression that opens at `start` (`[/]`, `[]/]`, `[^]/]`,
 * `[[:alpha:]/]`), or -1 when it does not end on its line.
 */
function bracketEnd(script: string, start: number): number {
  let j = start + 1;
  if (script[j] === '^') j++;
  if (script[j] === ']') j++;
  while (j < script.length && script[j] !== '\n') {
    const ch = script[j]!;
    if (ch === ']') return j + 1;
    const kind = script[j + 1];
    if (ch === '[' && (kind === ':' || kind === '.' || kind === '=')) {
      const end = script.indexOf(`${kind}]`, j + 2);
      if (end === -1 || script.slice(j, end).includes('\n')) return -1;
      j = end + 2;
    } else j++;
  }
  return -1;
}

/**
 * The files a sed script reads and writes, and whether it runs a command.
 *
 * @param script The whole script, as sed joins its `-e` pieces (with newlines).
 * @returns The files read and written, as written in the script, and a problem if any.
 *
 * @example
 * ```ts
 * import { sedScriptFiles } from './_sed_script.ts';
 *
 * sedScriptFiles('1!w out.txt').writes; // ['out.txt']
 * sedScriptFiles('s|a|b|w log').writes; // ['log']
 * sedScriptFiles('$e touch x').problem; // 'the sed script runs a command (`e`)'
 * sedScriptFiles('s/hello/world/g').writes; // []
 * ```
 */
export function sedScriptFiles(script: string): SedScriptFiles {
  const out: SedScriptFiles = { reads: [], writes: [], problem: undefined };
  const fail = (why: string): SedScriptFiles => ({ ...out, problem: why });
  let i = 0;
  const n = script.length;
  const blank = () => {
    while (i < n && /[ \t]/.test(script[i]!)) i++;
  };
  /** The rest of the line (a file name, a label, a command). */
  const restOfLine = () => {
    const end = script.indexOf('\n', i);
    const text = script.slice(i, end === -1 ? n : end);
    i = end === -1 ? n : end;
    return text;
  };
  /**
   * Skips a delimited part from just after its opening delimiter; false when it does not end. In a
   * regular expression GNU sed reads a bracket expression whole (`[/]`, `[]/]`, `[^]/]`,
   * `[[:alpha:]/]`): the delimiter and `\\` in it are plain characters.
   */
  const delimited = (delim: string, regex = false): boolean => {
    while (i < n) {
      const ch = script[i]!;
      if (ch === '[' && regex) {
        // A delimiter that is itself a bracket leaves this reader unsure where the part ends.
        if (delim === '[' || delim === ']') return false;
        i = bracketEnd(script, i);
        if (i === -1) return false;
      } else if (ch === '\\') i += 2;
      else if (ch === delim) {
        i++;
        return true;
      } else if (ch === '\n' && delim !== '\n') return false;
      else i++;
    }
    return false;
  };
  const address = (): boolean | 'none' => {
    const ch = script[i];
    if (ch === undefined) return 'none';
    if (/\d/.test(ch)) {
      while (i < n && /[\d~]/.test(script[i]!)) i++;
      return true;
    }
    if (ch === '$') {
      i++;
      return true;
    }
    if (ch === '/' || ch === '\\') {
      const delim = ch === '/' ? '/' : script[i + 1];
      if (delim === undefined || delim === '\n' || delim === '\\') return false;
      i += ch === '/' ? 1 : 2;
      if (!delimited(delim, true)) return false;
      while (i < n && /[IM]/.test(script[i]!)) i++;
      return true;
    }
    return 'none';
  };
  const file = (into: string[], special: Set<string>): boolean => {
    blank();
    const name = restOfLine();
    if (name === '') return false;
    if (!special.has(name)) into.push(name);
    return true;
  };
  while (i < n) {
    const ch = script[i]!;
    if (/[\s;]/.test(ch) || ch === '}') {
      i++;
      continue;
    }
    if (ch === '#') {
      restOfLine();
      continue;
    }
    const first = address();
    if (first === false) return fail('the sed script has an address that does not end');
    if (first === true) {
      blank();
      if (script[i] === ',') {
        i++;
        blank();
        if (script[i] === '+' || script[i] === '~') {
          i++;
          while (i < n && /\d/.test(script[i]!)) i++;
        } else if (address() !== true) return fail('the sed script has a range that does not end');
      }
    }
    blank();
    while (script[i] === '!' || script[i] === ' ' || script[i] === '\t') i++;
    const cmd = script[i];
    if (cmd === undefined) return fail('the sed script ends after an address');
    i++;
    if (cmd === '{') continue;
    if (cmd === '}') continue;
    if (PLAIN.has(cmd)) {
      blank();
      while (i < n && /\d/.test(script[i]!)) i++;
    } else if (cmd === ':' || cmd === 'b' || cmd === 't' || cmd === 'T' || cmd === 'v') {
      // A label ends at a `;`, a blank, a `}` or the end of the line (where sed reads a longer one,
      // what is left is not a command this reader knows, and it says so).
      blank();
      while (i < n && !/[\s;}]/.test(script[i]!)) i++;
    } else if (cmd === 'a' || cmd === 'i' || cmd === 'c') {
      // Text to the end of the line; `\` before a newline goes on to the next.
      while (i < n && script[i] !== '\n') i += script[i] === '\\' ? 2 : 1;
    } else if (cmd === 'r' || cmd === 'R') {
      if (!file(out.reads, new Set(['/dev/stdin']))) return fail(`the sed script's \`${cmd}\` names no file`);
    } else if (cmd === 'w' || cmd === 'W') {
      if (!file(out.writes, SPECIAL_WRITES)) return fail(`the sed script's \`${cmd}\` names no file`);
    } else if (cmd === 'e') {
      return fail('the sed script runs a command (`e`)');
    } else if (cmd === 's' || cmd === 'y') {
      const delim = script[i];
      if (delim === undefined || delim === '\n' || delim === '\\')
        return fail(`the sed script's \`${cmd}\` has no delimiter`);
      i++;
      if (!delimited(delim, cmd === 's') || !delimited(delim)) return fail(`the sed script's \`${cmd}\` does not end`);
      if (cmd === 'y') continue;
      while (i < n && /[gpiImMe\d]/.test(script[i]!)) {
        if (script[i] === 'e') return fail('the sed script runs a command (the `e` flag of `s`)');
        i++;
      }
      if (script[i] === 'w') {
        i++;
        if (!file(out.writes, SPECIAL_WRITES)) return fail("the sed script's `s///w` names no file");
      }
    } else return fail(`the sed script has a command the guard does not know (\`${cmd}\`)`);
    blank();
    const next = script[i];
    if (next !== undefined && !/[;\n}#]/.test(next)) return fail(`the sed script has \`${next}\` where a command ends`);
  }
  return out;
}
