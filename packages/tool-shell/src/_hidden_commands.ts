import { matchWildcardSpecifier, type PermissionRule } from '@toolshed/core';
import { analyzeCommand, type ShellWord } from './bash_parser.ts';
import { FILE_USE, NO_FILES } from './_file_use.ts';
import { splitCommand } from './command_matcher.ts';
import { READ_ONLY_PROGRAMS, SHELLS, WRAPPERS } from './read_only_rules.ts';
import { unwrapOnce } from './_unwrap.ts';

/** Names the guard reads with code of its own (builtins, git, find, sed, awk, archives…), beyond the tables. */
const HANDLED = new Set([
  'git',
  'find',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'dd',
  'script',
  'eval',
  'source',
  '.',
  'builtin',
  'command',
  'exec',
  'tar',
  'unzip',
  'split',
  'csplit',
  'patch',
  'hash',
  'history',
  'trap',
  'read',
  'mapfile',
  'readarray',
  'cd',
  'pushd',
  'popd',
  'kill',
]);

// Past this many places to look in one command, the check stops and says so (fail closed).
const MAX_CANDIDATES = 64;

/** What {@linkcode ruleBehindUnknownProgram} found. */
export interface HiddenCommand {
  /** The deny or ask rule that names what the program may run. */
  rule: PermissionRule;
  /** Why the rule may cover the command, for a person: the program and what it may run. */
  why: string;
}

/**
 * Whether the guard knows a program: it has a table (files it reads and writes, read-only
 * use, a wrapper) or code of its own. The arguments of a program it does not know may be a
 * command it runs (`perf stat rm x`, `firejail rm x`, `ssh host rm x`).
 *
 * @param name The program's name, without its folder.
 * @returns True when the guard reads its words.
 *
 * @example
 * ```ts
 * import { isKnownProgram } from './_hidden_commands.ts';
 *
 * isKnownProgram('cat'); // true
 * isKnownProgram('firejail'); // false
 * ```
 */
export function isKnownProgram(name: string): boolean {
  return (
    Object.hasOwn(FILE_USE, name) ||
    NO_FILES.has(name) ||
    Object.hasOwn(READ_ONLY_PROGRAMS, name) ||
    Object.hasOwn(WRAPPERS, name) ||
    SHELLS.includes(name) ||
    HANDLED.has(name)
  );
}

/**
 * The first deny or ask rule of `Bash(…)` that names a command a program the guard does not
 * know may run: `perf stat rm x` under `Bash(rm:*)` (its words from `rm` on), `fish -c 'rm x'`
 * (a word that is a command string), `at now <<< 'rm x'` (a here-string it is given), and any
 * command whose program is named only when it runs (`$x y`). Known
 * programs (`echo rm x`, `git rm x`) are not looked into: their words are not commands. Only
 * words that begin as a rule does are tried, so the cost follows the matches, not the length.
 *
 * @param command The command string.
 * @param rules The Bash deny and ask rules (with a specifier) to look for.
 * @returns The rule and why it may cover the command; undefined when none does.
 *
 * @example
 * ```ts
 * import { parseRule } from '@toolshed/core/internal';
 * import { loadBashParser } from './bash_parser.ts';
 * import { ruleBehindUnknownProgram } from './_hidden_commands.ts';
 *
 * await loadBashParser();
 * const rule = parseRule('Bash(rm:*)', { behavior: 'deny', source: 'options' });
 * ruleBehindUnknownProgram('perf stat rm x', [rule])?.why;
 * // '`perf` is a program the guard does not know, and its words may run `rm x`'
 * ```
 */
export function ruleBehindUnknownProgram(command: string, rules: readonly PermissionRule[]): HiddenCommand | undefined {
  const withContent = rules.filter((r) => r.ruleContent !== undefined && r.ruleContent.trim() !== '');
  if (withContent.length === 0) return undefined;
  const heads = new Set(withContent.map((r) => firstWord(r.ruleContent!)).filter((w) => w !== ''));
  const analysis = analyzeCommand(command);
  if (!analysis.ok) return undefined; // The matcher's rough split already covers what does not parse.
  for (const cmd of analysis.commands) {
    if (cmd.kind !== 'command' || !cmd.name) continue;
    const words = innermost([cmd.name, ...cmd.args]);
    const head = words[0];
    if (!head) continue;
    // `$x y`, `rm\${IFS}x`: which program runs is known only when it runs; any rule may cover it.
    if (!head.literal)
      return {
        rule: withContent[0]!,
        why: `the program \`${head.text}\` is named only when the command runs, so it may be what a rule names`,
      };
    const program = head.value.replace(/^.*\//, '');
    if (isKnownProgram(program)) continue;
    const candidates = candidatesOf(words.slice(1), heads);
    for (const r of cmd.redirects) if (r.operator === '<<<' && r.target?.literal) candidates.push(r.target.value);
    const unknown = `\`${program}\` is a program the guard does not know`;
    if (candidates.length > MAX_CANDIDATES)
      return {
        rule: withContent[0]!,
        why: `${unknown}, and ${candidates.length} places in its words may be commands, too many to check`,
      };
    for (const text of candidates) {
      const forms = splitCommand(text).parts.flatMap((p) => p.denyForms);
      for (const rule of withContent) {
        const form = forms.find((f) => matchWildcardSpecifier(rule.ruleContent!, f));
        if (form !== undefined) return { rule, why: `${unknown}, and its words may run \`${form}\`` };
      }
    }
  }
  return undefined;
}

/** The command inside known wrappers: `nice perf stat rm x` → `perf stat rm x`. */
function innermost(words: ShellWord[]): ShellWord[] {
  for (let guard = 0; guard < 8; guard++) {
    const found = unwrapOnce(words);
    if (!found) break;
    words = found.inner;
  }
  return words;
}

/** The texts that may be a command: the words from one a rule begins with on, and each command string. */
function candidatesOf(args: readonly ShellWord[], heads: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.literal) continue;
    if (heads.has(word.value.replace(/^.*\//, '')))
      out.push(
        args
          .slice(i)
          .map((w) => w.value)
          .join(' '),
      );
    else if (/[\s;&|]/.test(word.value)) out.push(word.value);
  }
  return out;
}

/** A rule's first word: `rm` of `rm:*`, `git` of `git push:*`; empty when it begins with a wildcard. */
function firstWord(content: string): string {
  const word = content.trim().split(/[\s:]/)[0] ?? '';
  return word.includes('*') ? '' : word.replace(/^.*\//, '');
}
