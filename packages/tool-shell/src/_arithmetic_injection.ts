/**
 * bash evaluates the value of a variable used in arithmetic as an expression of its own, and an
 * array subscript in that value expands `$(…)`: `x='a[$(touch f)]'; (( x ))` runs `touch f`,
 * though no word of the command substitutes anything. This module finds a variable whose value is
 * not known to be harmless (assigned one with `[` or an expansion, or read: `read`, `mapfile`,
 * `printf -v`, `for NAME in`, a positional parameter) used where bash evaluates arithmetic:
 * `(( ))`, `$(( ))`, `$[ ]`, `let`, `[[ A -eq B ]]`, an array subscript or substring
 * (`${a[x]}`, `${s:x}`, `${@:x}`, `a=([x]=1)`, `unset 'a[x]'`), an indirection (`${!x}`),
 * `test -v`/`[[ -v ]]`, `declare -i`; and one bash expands as a prompt (`${x@P}` runs the `$(…)`
 * in it). A value assigned in `${x:=…}` counts as assigned.
 *
 * @module
 */

/** Words after which the names that follow are set from what is not known. */
const READERS = /\b(read|mapfile|readarray|getopts)\b([^;&|\n]*)/g;
/** An assignment: its name and its value as written (up to a blank outside quotes). */
const ASSIGNMENT =
  /(?:^|[\s;&|(])([A-Za-z_]\w*)(?:\[[^\]]*\])?\+?=((?:\$\(\([^()]*\)\)|\$\((?!\()[^()]*\)|`[^`]*`|'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s;&|)])*)/g;

/**
 * A command substitution whose output is a number, whatever it reads: `wc` counting its input
 * (`$(wc -l < f)`, `$(… | wc -l)`: no file operand, whose name it would print), `git rev-list
 * --count`, `nproc`. One pipeline, nothing after it (`a || b | wc -l` prints what `a` prints).
 */
const NUMBER_OUTPUT =
  /^(?:\$\(|`)(?:[^;&\n`()|]*\|(?!\|))*\s*(?:wc(?:\s+-[lcwmL]+)*(?:\s*<\s*[\w./-]+)?|git\s+rev-list\s+--count(?:\s+[\w./@~^-]+)*|nproc)(?:\s+2>\s*\/dev\/null)?\s*(?:\)|`)$/;

/**
 * Why the command may run what a variable's value holds when bash evaluates it as arithmetic, or
 * undefined when no variable of a value not known to be harmless is used there.
 *
 * @param command The command's text.
 * @returns The reason, for an unknown write.
 *
 * @example
 * ```ts
 * import { arithmeticInjection } from './_arithmetic_injection.ts';
 *
 * arithmeticInjection("x='a[$(touch f)]'; (( x ))"); // 'bash evaluates `x` as arithmetic …'
 * arithmeticInjection('n=0; n=$((n + 1))'); // undefined
 * ```
 */
export function arithmeticInjection(command: string): string | undefined {
  const regions = arithmeticRegions(command);
  if (regions.length === 0) return undefined;
  const risky = riskyNames(command);
  for (const region of regions) {
    if (/\$(\d|\{\d|[@*])/.test(region)) return explain(region, 'a positional parameter');
    for (const name of risky)
      if (new RegExp(`(^|[^\\w])${name}\\b`).test(region)) return explain(region, `\`${name}\``);
  }
  return undefined;
}

function explain(region: string, what: string): string {
  const shown = region.trim().slice(0, 60);
  if (/@P\}$/.test(region))
    return `bash expands ${what} as a prompt in \`${shown}\`, and a value such as \`$(cmd)\` runs cmd`;
  return `bash evaluates ${what} as arithmetic in \`${shown}\`, and a value such as \`a[$(cmd)]\` runs cmd`;
}

/** The names set, somewhere in the command, to what is not known to be harmless in arithmetic. */
function riskyNames(command: string): Set<string> {
  const risky = new Set<string>();
  const values = new Map<string, string[]>();
  for (const m of command.matchAll(ASSIGNMENT)) {
    const list = values.get(m[1]!) ?? [];
    list.push(m[2]!);
    values.set(m[1]!, list);
  }
  // `${x:=value}` and `${x=value}` assign too.
  for (const m of command.matchAll(/\$\{([A-Za-z_]\w*):?=([^}]*)\}/g)) {
    const list = values.get(m[1]!) ?? [];
    list.push(m[2]!);
    values.set(m[1]!, list);
  }
  for (const m of command.matchAll(READERS))
    for (const word of m[2]!.split(/\s+/)) if (/^[A-Za-z_]\w*$/.test(word)) risky.add(word);
  for (const m of command.matchAll(/\bprintf\s+-v\s+([A-Za-z_]\w*)/g)) risky.add(m[1]!);
  for (const m of command.matchAll(/\b(?:for|select)\s+([A-Za-z_]\w*)\s+in\b([^;\n]*)/g))
    if (
      !m[2]!
        .trim()
        .split(/\s+/)
        .every((w) => /^[\d{}.,-]*$/.test(w))
    )
      risky.add(m[1]!);
  // A value is harmless when a number, an arithmetic expansion, or a plain word naming no risky name.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, list] of values) {
      if (risky.has(name)) continue;
      const harmful = list.some((v) => {
        const plain = v.replace(/^'(.*)'$|^"(.*)"$/s, '$1$2');
        if (/^\$\(\([^()]*\)\)$/.test(plain) || /^-?\d*$/.test(plain) || NUMBER_OUTPUT.test(plain)) return false;
        if (/[[$`\\]/.test(plain)) return true;
        return [...risky].some((r) => new RegExp(`\\b${r}\\b`).test(plain));
      });
      if (harmful) {
        risky.add(name);
        changed = true;
      }
    }
  }
  return risky;
}

/** The text of each place bash evaluates arithmetic in the command. */
function arithmeticRegions(command: string): string[] {
  const regions: string[] = [];
  const closing = (from: number, open: string, close: string): number => {
    let depth = 0;
    for (let i = from; i < command.length; i++) {
      if (command[i] === open) depth++;
      else if (command[i] === close && --depth === 0) return i;
    }
    return command.length;
  };
  for (let i = command.indexOf('(('); i !== -1; i = command.indexOf('((', i + 2)) {
    const end = closing(i, '(', ')');
    regions.push(command.slice(i, end + 1));
  }
  for (let i = command.indexOf('$['); i !== -1; i = command.indexOf('$[', i + 2))
    regions.push(command.slice(i, closing(i + 1, '[', ']') + 1));
  for (let i = command.indexOf('${'); i !== -1; i = command.indexOf('${', i + 2)) {
    const inside = command.slice(i, closing(i + 1, '{', '}') + 1);
    // A subscript (`${a[x]}`), a substring (`${s:x}`, `${@:x}`, but not `${s:-x}` and kin), an
    // indirection (`${!x}` expands the variable x's value names, `a[…]` included) or a prompt
    // expansion (`${x@P}` runs the `$(…)` of x's value).
    if (/^\$\{#?!?\w+\[|^\$\{[\w@*]+:[^-=+?]|^\$\{!\w|@P\}$/.test(inside)) regions.push(inside);
  }
  for (const m of command.matchAll(/\[\[([^\]]|\](?!\]))*\]\]/g))
    if (/\s-(eq|ne|lt|le|gt|ge|v)\s/.test(m[0])) regions.push(m[0]);
  for (const m of command.matchAll(
    /\b(let|test\s+-v|\[\s+-v|(declare|typeset|local|export|readonly)\s+(-\w+\s+)*-\w*i\w*)\b([^;&|\n]*)/g,
  ))
    regions.push(m[0]);
  // An array element named (`a[x]=1`, `unset 'a[x]'`, `read "a[x]"`, `printf -v 'a[x]'`) or
  // assigned in a list (`a=([x]=1)`) evaluates its subscript too.
  for (const m of command.matchAll(/(?:\w|[\s(]|^)\[([^\]]*)\]/g))
    if (/^\w/.test(m[0]) || /^\]\+?=/.test(command.slice(m.index + m[0].length - 1))) regions.push(m[1]!);
  return regions;
}
