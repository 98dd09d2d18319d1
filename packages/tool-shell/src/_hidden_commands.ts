import { matchWildcardSpecifier, type PermissionRule } from '@toolshed/core';
import { analyzeCommand, type ShellWord } from './bash_parser.ts';
import { FILE_USE, NO_FILES } from './_file_use.ts';
import { splitCommand } from './command_matcher.ts';
import { READ_ONLY_PROGRAMS, SHELLS, WRAPPERS } from './read_only_rules.ts';
import { innermostCommand } from './_unwrap.ts';

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

/**
 * Programs whose first words are subcommands of their own (`docker rm web`, `npm rm x`, `aws s3
 * rm s3://b/k`): a word there is not a program, so only what comes after `--`, or a string given
 * to a shell (`docker exec c sh -c 'rm x'`), is looked at as a command.
 */
const SUBCOMMAND_CLIS = new Set([
  'docker',
  'podman',
  'nerdctl',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'deno',
  'aws',
  'gcloud',
  'az',
  'gh',
  'glab',
  'kubectl',
  'helm',
  'cargo',
  'go',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'conda',
  'brew',
  'apt',
  'apt-get',
  'dnf',
  'yum',
  'snap',
  'systemctl',
  'terraform',
  'dotnet',
  'gem',
  'bundle',
  'composer',
  'rustup',
]);

/** Programs that join their words into one command line for a remote shell (`ssh host 'r"m"' x` runs `rm x`). */
const REJOINING = new Set(['ssh', 'rsh', 'slogin', 'autossh']);
const MAX_REJOINED = 16;

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
  const any = (why: string): HiddenCommand => ({ rule: withContent[0]!, why });
  for (const cmd of analysis.commands) {
    if (cmd.kind !== 'command' || !cmd.name) continue;
    const words = innermostCommand([cmd.name, ...cmd.args]);
    if (!words) return any(`\`${cmd.text}\` is more wrappers deep than the guard reads, so what it runs is not known`);
    const head = words[0]!;
    // `$x y`, `rm\${IFS}x`: which program runs is known only when it runs; any rule may cover it.
    if (!head.literal)
      return any(`the program \`${head.text}\` is named only when the command runs, so it may be what a rule names`);
    const program = head.value.replace(/^.*\//, '');
    if (isKnownProgram(program)) continue;
    const unknown = `\`${program}\` is a program the guard does not know`;
    const args = words.slice(1);
    const expansion = SUBCOMMAND_CLIS.has(program) ? undefined : args.find(isWholeExpansion);
    if (expansion) return any(`${unknown}, and its word \`${expansion.text}\` is known only when it runs`);
    const candidates = SUBCOMMAND_CLIS.has(program) ? afterDoubleDash(args, heads) : candidatesOf(args, heads);
    if (REJOINING.has(program)) candidates.push(...rejoined(args));
    // A here-string it reads (a here-document's body is not kept: a shell fed one asks as an unknown write).
    for (const r of cmd.redirects) if (r.operator === '<<<' && r.target?.literal) candidates.push(r.target.value);
    if (candidates.length > MAX_CANDIDATES)
      return any(`${unknown}, and ${candidates.length} places in its words may be commands, too many to check`);
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

/**
 * The commands a program the guard does not know may run, read from its words, for the path
 * guard: its words from each one that names a program the guard knows on (`perf stat cp a b` →
 * `cp a b`), each command string (`gdb -ex 'shell cp a b'` → `shell cp a b` and `cp a b`), as
 * shell text.
 *
 * @param args The program's words after its name.
 * @returns The texts; undefined when there are more than the guard reads (then what it runs is unknown).
 *
 * @example
 * ```ts
 * import { analyzeCommand, loadBashParser } from './bash_parser.ts';
 * import { hiddenCommandTexts } from './_hidden_commands.ts';
 *
 * await loadBashParser();
 * hiddenCommandTexts(analyzeCommand('perf stat cp a b').commands[0]!.args); // ['cp a b']
 * ```
 */
export function hiddenCommandTexts(args: readonly ShellWord[]): string[] | undefined {
  const out = wordsThatMayRun(args, isKnownProgram, 'text');
  return out.length > MAX_CANDIDATES ? undefined : out;
}

/** The texts that may be a command: the words from one a rule begins with on, and each command string. */
function candidatesOf(args: readonly ShellWord[], heads: ReadonlySet<string>): string[] {
  return wordsThatMayRun(args, (name) => heads.has(name), 'value');
}

/**
 * The texts in a program's words that may be a command it runs: its words from each one that
 * names a program (`names`) on, joined as written (`text`, for the path guard) or as their values
 * (for rules), and each command string with its own word suffixes (`vim -c ':!rm z'`). Stops
 * past {@linkcode MAX_CANDIDATES}.
 */
function wordsThatMayRun(
  args: readonly ShellWord[],
  names: (name: string) => boolean,
  join: 'text' | 'value',
): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length && out.length <= MAX_CANDIDATES; i++) {
    const word = args[i]!;
    if (!word.literal) continue;
    if (names(word.value.replace(/^.*\//, '')))
      out.push(
        args
          .slice(i)
          .map((w) => w[join])
          .join(' '),
      );
    else if (/[\s;&|]/.test(word.value)) out.push(word.value, ...tokenSuffixes(word.value, names));
  }
  return out;
}

/** For a subcommand CLI: its words after `--`, and strings given to a shell's `-c` (`docker exec c sh -c 'rm x'`). */
function afterDoubleDash(args: readonly ShellWord[], heads: ReadonlySet<string>): string[] {
  const dash = args.findIndex((w) => w.value === '--');
  const out = dash === -1 ? [] : candidatesOf(args.slice(dash + 1), heads);
  for (let i = 1; i < args.length; i++) {
    const before = args[i - 1]!.value;
    if ((before === '-c' || before === '--command') && args[i]!.literal && i <= (dash === -1 ? args.length : dash))
      out.push(args[i]!.value);
  }
  return out;
}

/**
 * A command string's words from each one that, without leading punctuation, names a program
 * (`:!rm z` of vim, `shell rm y` of gdb): `rm z`, `rm y`.
 */
function tokenSuffixes(text: string, names: (name: string) => boolean): string[] {
  const tokens = text.split(/[\s;&|()`'"]+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < tokens.length && out.length <= MAX_CANDIDATES; i++) {
    const bare = tokens[i]!.replace(/^[^A-Za-z0-9_./]+/, '');
    if (bare !== tokens[i] || i > 0) {
      if (names(bare.replace(/^.*\//, ''))) out.push([bare, ...tokens.slice(i + 1)].join(' '));
    }
  }
  return out;
}

/** `ssh host 'r"m"' x`: the remote shell reads the words joined by spaces, from each one on. */
function rejoined(args: readonly ShellWord[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.min(args.length, MAX_REJOINED); i++) {
    if (!args[i]!.literal) continue;
    out.push(
      args
        .slice(i)
        .map((w) => w.value)
        .join(' '),
    );
  }
  return out;
}

/** A word that is one expansion and nothing else (`$X`, `${X}`, `$(cmd)`, `` `cmd` ``): it may be any program. */
function isWholeExpansion(word: ShellWord): boolean {
  return !word.literal && /^(\$\{?\w+\}?|\$\(.*\)|`.*`|"\$\{?\w+\}?")$/s.test(word.text);
}

/** A rule's first word: `rm` of `rm:*`, `git` of `git push:*`; empty when it begins with a wildcard. */
function firstWord(content: string): string {
  const word = content.trim().split(/[\s:]/)[0] ?? '';
  return word.includes('*') ? '' : word.replace(/^.*\//, '');
}
