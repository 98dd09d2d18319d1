import { programTurnedOff } from './_git_program_off.ts';
import { awkProgramProblem } from './_awk_program.ts';
import {
  analyzeCommand,
  type AnalyzeOptions,
  type ShellAnalysis,
  type ShellRedirect,
  type ShellWord,
  type SimpleCommand,
} from './bash_parser.ts';
import {
  AWK_SAFE_FLAGS,
  FIND_UNSAFE_PRIMARIES,
  GIT_BRANCH_LIST_FLAGS,
  GIT_CONFIG_READ_FLAGS,
  GIT_GLOBAL_OPTIONS,
  GIT_LIST_SUBCOMMANDS,
  GIT_LISTING_WITH_ARGS,
  GIT_SUBCOMMANDS,
  GIT_UNSAFE_FLAGS,
  type ProgramRule,
  READ_ONLY_PROGRAMS,
  SED_SAFE_FLAGS,
} from './read_only_rules.ts';

/** What {@linkcode classifyCommand} decided, and why. */
export interface Classification {
  readOnly: boolean;
  /** One sentence: the first thing that is not read-only, or what every part does. */
  reason: string;
}

const SAFE_CONSTRUCTS = new Set<string>();
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

const CONSTRUCT_REASONS: Record<string, string> = {
  command_substitution: 'command substitution runs another command',
  process_substitution: 'process substitution runs another command',
  arithmetic: 'arithmetic expansion can run commands through array subscripts',
  function_definition: 'it defines a function, which can redefine any command',
  control_flow: 'loops and conditionals are not classified',
  background: 'it starts a background job',
  complex_expansion: 'a parameter expansion with an operator can assign or look up variables indirectly',
  prompt_expansion: 'a ${x@P} expansion can run commands',
  heredoc_expansion: 'the here-document expands variables or runs commands',
  test: '[[ … ]] tests are not classified',
  array: 'array assignments are not classified',
  carriage_return: 'a carriage return splits words for the parser but not for bash',
  control_character: 'a control character may be read differently by bash and by the parser',
};

/**
 * Decides whether a command string only reads, so it can run without asking: parsed with a
 * real bash grammar, every part must be a program of the allowlist in
 * {@linkcode READ_ONLY_PROGRAMS} with only safe flags, and the whole must have no substitution,
 * no executing expansion, no output redirection to a file, no assignment or environment prefix,
 * no function definition and no background job. Anything not understood is not read-only.
 *
 * @param command The command string.
 * @param options Parser limits and caching.
 * @returns The decision and its reason.
 *
 * @example
 * ```ts
 * import { classifyCommand } from '@toolshed/tool-shell';
 * import { loadBashParser } from '@toolshed/tool-shell/internal';
 *
 * await loadBashParser();
 * classifyCommand('git log --oneline -5 | head -3').readOnly; // true
 * classifyCommand('find . -name "*.tmp" -delete').reason;     // '`find -delete` deletes files'
 * ```
 */
export function classifyCommand(command: string, options?: AnalyzeOptions): Classification {
  return classifyAnalysis(analyzeCommand(command, options));
}

/**
 * {@linkcode classifyCommand} for an analysis already made.
 *
 * @param analysis What {@linkcode analyzeCommand} returned.
 * @returns The decision and its reason.
 *
 * @example
 * ```ts
 * import { analyzeCommand, classifyAnalysis } from '@toolshed/tool-shell/internal';
 *
 * classifyAnalysis(analyzeCommand('ls -la')).readOnly; // true
 * ```
 */
export function classifyAnalysis(analysis: ShellAnalysis): Classification {
  if (!analysis.ok) return no(`the command could not be fully parsed (${analysis.error})`);
  for (const construct of analysis.constructs) {
    if (SAFE_CONSTRUCTS.has(construct)) continue;
    return no(
      CONSTRUCT_REASONS[construct] ??
        `it contains a construct that is not classified (${construct.replace(/^unknown:/, '')})`,
    );
  }
  if (analysis.commands.length === 0) return no('there is no command');
  for (const redirect of analysis.redirects) {
    const problem = redirectProblem(redirect);
    if (problem) return no(problem);
  }
  const secret = secretExpansion(analysis);
  if (secret) return no(`it expands \`${secret}\`, a variable whose name looks secret, which would show its value`);
  const used: string[] = [];
  for (const command of analysis.commands) {
    const problem = commandProblem(command);
    if (problem) return no(problem);
    const name = command.name!.value;
    if (!used.includes(name)) used.push(name);
  }
  return {
    readOnly: true,
    reason: `every part only reads: ${used.map((n) => `${n} (${READ_ONLY_PROGRAMS[n]!.reason})`).join(', ')}`,
  };
}

/** A variable name that looks like it holds a secret: `*_KEY`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*CREDENTIAL*`. */
const SECRET_NAME = /(_KEY$|^KEY$|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;

/** The first expansion (`$API_KEY`, `${GH_TOKEN}`, `${!x}` aside) of a secret-looking variable, if any. */
function secretExpansion(analysis: ShellAnalysis): string | undefined {
  const words: ShellWord[] = [];
  for (const c of analysis.commands) {
    if (c.name) words.push(c.name);
    words.push(...c.args, ...c.assignments);
  }
  for (const r of analysis.redirects) if (r.target) words.push(r.target);
  for (const w of words) {
    if (w.text.startsWith("'")) continue;
    for (const m of w.text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g))
      if (SECRET_NAME.test(m[1]!)) return m[0]!.startsWith('${') ? `${m[0]}}` : m[0]!;
  }
  return undefined;
}

function no(reason: string): Classification {
  return { readOnly: false, reason };
}

function redirectProblem(r: ShellRedirect): string | undefined {
  const op = r.operator;
  const target = r.target;
  if (op === '<<' || op === '<<-' || op === '<<<') return undefined;
  if (op === '<') {
    if (!target?.literal)
      return `the input redirection \`<${target?.text ?? ''}\` is expanded at run time and could open a network connection`;
    // bash itself opens /dev/tcp and /dev/udp paths as sockets.
    if (/^\/dev\/(tcp|udp)\//.test(target.value))
      return `the input redirection \`<${target.text}\` opens a network connection`;
    return undefined;
  }
  if ((op === '>&' || op === '<&') && target?.literal && /^\d+$/.test(target.value) && Number(target.value) > 2) {
    // Only 0, 1 and 2 are open in the Bash tool; a higher one is whatever the host left open.
    return `the redirection \`${op}${target.text}\` uses file descriptor ${target.value}, which may be a file or socket left open by the host`;
  }
  if ((op === '>&' || op === '<&') && target?.literal && /^([0-2]|-)$/.test(target.value)) return undefined;
  if (op === '<>') return `the redirection \`<>${target?.text ?? ''}\` opens a file for writing`;
  if (target?.literal && HARMLESS_TARGETS.has(target.value)) return undefined;
  return `the output redirection \`${op}${target?.text ?? ''}\` writes a file`;
}

/**
 * Whether one simple command only reads, as {@linkcode classifyCommand} judges each part (a `cd`,
 * `git status`, `cat f`): it changes no file, git's index included.
 *
 * @param command A simple command of an analysis.
 * @returns True when the read-only allowlist takes it.
 *
 * @example
 * ```ts
 * import { analyzeCommand, loadBashParser } from '@toolshed/tool-shell/internal';
 * import { commandOnlyReads } from './classify_command.ts';
 *
 * await loadBashParser();
 * commandOnlyReads(analyzeCommand('git status').commands[0]!); // true
 * commandOnlyReads(analyzeCommand('git read-tree HEAD').commands[0]!); // false
 * ```
 */
export function commandOnlyReads(command: SimpleCommand): boolean {
  return commandProblem(command) === undefined;
}

function commandProblem(command: SimpleCommand): string | undefined {
  if (command.kind === 'assignment') return `\`${command.text}\` assigns a variable`;
  if (command.kind === 'declaration') return `\`${command.text}\` changes variables`;
  if (command.kind !== 'command') return `\`${command.text}\` is not a plain command`;
  if (command.assignments.length)
    return `the environment prefix \`${command.assignments[0]!.text}\` changes how \`${command.name?.text ?? ''}\` runs`;
  const name = command.name;
  if (!name) return 'a command has no name';
  if (!name.literal) return `the command name \`${name.text}\` is expanded at run time`;
  if (name.value.includes('/')) return `\`${name.value}\` is run by path; only programs found on PATH are known`;
  if (!Object.hasOwn(READ_ONLY_PROGRAMS, name.value)) return `\`${name.value}\` is not in the read-only allowlist`;
  const rule = READ_ONLY_PROGRAMS[name.value]!;
  // `ps e` (BSD style) prints every process's environment, secrets included.
  if (name.value === 'ps' && command.args.some((a) => !a.value.startsWith('-') && a.value.includes('e')))
    return '`ps e` prints the environment of every process, which may hold secrets';
  return ruleProblem(name.value, rule, command.args);
}

function ruleProblem(label: string, rule: ProgramRule, args: readonly ShellWord[]): string | undefined {
  const restricted =
    rule.unsafeFlags !== undefined ||
    rule.safeFlags !== undefined ||
    rule.maxPositionals !== undefined ||
    rule.check !== undefined;
  if (restricted) {
    const dynamic = args.find((a) => !a.literal);
    if (dynamic)
      return `the argument \`${dynamic.text}\` of \`${label}\` is expanded at run time and could become any flag`;
  }
  switch (rule.check) {
    case 'sed':
      return sedProblem(args);
    case 'awk':
      return awkProblem(args);
    case 'jq':
      return jqProblem(args);
    case 'find':
      return findProblem(args);
    case 'git':
      return gitProblem(args);
    case 'command':
      return args[0]?.value === '-v' || args[0]?.value === '-V'
        ? undefined
        : '`command` without -v or -V runs another program';
    case 'git-list-only':
    case 'git-branch':
    case 'git-tag':
    case 'git-remote':
    case 'git-config':
      return gitSubcommandProblem(label, rule, args);
  }
  const { flags, positionals } = splitFlags(args);
  for (const flag of flags) {
    const unsafe = unsafeFlag(flag, rule.unsafeFlags);
    if (unsafe) return `\`${label} ${flag}\` ${unsafe}`;
    if (rule.safeFlags && !flagAllowed(flag, rule.safeFlags))
      return `\`${label} ${flag}\` is not a flag known to be read-only`;
  }
  if (rule.maxPositionals !== undefined && positionals.length > rule.maxPositionals) {
    return `\`${label}\` with ${positionals.length} arguments may write (${rule.reason})`;
  }
  return undefined;
}

/** Flags (before `--`) and the other arguments. `-` alone is standard input, not a flag. */
function splitFlags(args: readonly ShellWord[]): { flags: string[]; positionals: string[] } {
  const flags: string[] = [];
  const positionals: string[] = [];
  let ended = false;
  for (const arg of args) {
    const v = arg.value;
    if (!ended && v === '--') ended = true;
    else if (!ended && v.startsWith('-') && v.length > 1) flags.push(v);
    else positionals.push(v);
  }
  return { flags, positionals };
}

/** Why a flag is unsafe, or undefined; long flags match their abbreviations, short ones any bundle. */
function unsafeFlag(flag: string, unsafe: Readonly<Record<string, string>> | undefined): string | undefined {
  if (!unsafe) return undefined;
  for (const [key, why] of Object.entries(unsafe)) {
    if (key.startsWith('--')) {
      if (!flag.startsWith('--')) continue;
      const name = flag.slice(2).split('=')[0]!;
      if (name.length > 0 && key.slice(2).startsWith(name)) return why;
    } else if (key.length === 2) {
      if (flag.startsWith('-') && !flag.startsWith('--') && flag.slice(1).includes(key[1]!)) return why;
    } else if (flag === key) {
      return why;
    }
  }
  return undefined;
}

/** Whether a flag is in an allowlist: exactly, as `--name=value`, or as a bundle of listed letters. */
function flagAllowed(flag: string, safe: readonly string[]): boolean {
  if (safe.includes(flag)) return true;
  if (flag.startsWith('--')) return safe.includes(flag.split('=')[0]!);
  return [...flag.slice(1)].every((ch) => safe.includes(`-${ch}`));
}

// A sed script of print commands only: addresses (line, $, /regex/, first~step, +N), optional
// `!`, then p, P, =, l or q; separated by `;` or newlines.
const SED_ADDR = String.raw`(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\.)*/[IM]*)`;
const SED_CMD = String.raw`(?:${SED_ADDR}(?:\s*,\s*(?:${SED_ADDR}|[+~]\d+))?)?\s*!?\s*(?:[pP=l]|[qQ]\d*)`;
const SED_PRINT_ONLY = new RegExp(String.raw`^\s*${SED_CMD}(?:\s*[;\n]\s*${SED_CMD})*\s*;?\s*$`);

function sedProblem(args: readonly ShellWord[]): string | undefined {
  const scripts: string[] = [];
  const positionals: string[] = [];
  let quiet = false;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (ended || v === '-' || !v.startsWith('-')) {
      positionals.push(v);
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    if (v.startsWith('--')) {
      const [name, value] = splitLong(v);
      if (name === '--expression') {
        const script = value ?? args[++i]?.value;
        if (script === undefined) return '`sed --expression` has no script';
        scripts.push(script);
      } else if (!SED_SAFE_FLAGS.includes(name))
        return `\`sed ${v}\` is not a flag known to be read-only (-i edits files in place, -f reads a script file)`;
      if (name === '--quiet' || name === '--silent') quiet = true;
      continue;
    }
    const letters = v.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const ch = letters[j]!;
      if (ch === 'e') {
        const script = j + 1 < letters.length ? letters.slice(j + 1) : args[++i]?.value;
        if (script === undefined) return '`sed -e` has no script';
        scripts.push(script);
        break;
      }
      if (!SED_SAFE_FLAGS.includes(`-${ch}`))
        return `\`sed -${ch}\` is not a flag known to be read-only (-i edits files in place, -f reads a script file)`;
      if (ch === 'n') quiet = true;
    }
  }
  if (!quiet) return '`sed` without -n prints every line and is only trusted with -n and print commands';
  if (scripts.length === 0) {
    const script = positionals.shift();
    if (script === undefined) return '`sed` has no script';
    scripts.push(script);
  }
  for (const script of scripts) {
    if (!SED_PRINT_ONLY.test(script))
      return `the sed script \`${script}\` is not only print commands (p, P, =, l, q with addresses)`;
  }
  return undefined;
}

function awkProblem(args: readonly ShellWord[]): string | undefined {
  let program: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      program = args[i + 1]?.value;
      break;
    }
    if (v === '-' || !v.startsWith('-')) {
      program = v;
      break;
    }
    if (v.startsWith('--')) {
      const [name, value] = splitLong(v);
      if (!AWK_SAFE_FLAGS.includes(name))
        return `\`awk ${v}\` is not a flag known to be read-only (-f loads a program file; -o, -p and -d write files)`;
      if ((name === '--field-separator' || name === '--assign') && value === undefined) i++;
      continue;
    }
    const flag = v.slice(0, 2);
    if (flag === '-F' || flag === '-v') {
      if (v.length === 2) i++;
      continue;
    }
    if (!flagAllowed(v, AWK_SAFE_FLAGS))
      return `\`awk ${v}\` is not a flag known to be read-only (-f loads a program file; -o, -p and -d write files)`;
  }
  if (program === undefined) return '`awk` has no program';
  return awkProgramProblem(program);
}

/** jq's `env` and `$ENV` (not `.env`, a key, nor `$env`, a variable of the program's). */
const JQ_ENVIRONMENT = /(?<![\w.$])env\b|\$ENV\b/;

/** `jq -n env` prints the whole environment, secrets included, as `printenv` does. */
function jqProblem(args: readonly ShellWord[]): string | undefined {
  const word = args.find((a) => JQ_ENVIRONMENT.test(a.value));
  return word === undefined
    ? undefined
    : `the jq program \`${word.text}\` reads the environment (\`env\`, \`$ENV\`), which may hold secrets`;
}

function findProblem(args: readonly ShellWord[]): string | undefined {
  for (const arg of args) {
    const v = arg.value;
    if (Object.hasOwn(FIND_UNSAFE_PRIMARIES, v)) return `\`find ${v}\` ${FIND_UNSAFE_PRIMARIES[v]}`;
    if (v.startsWith('-fprint') || v.startsWith('-fls')) return `\`find ${v}\` writes the list to a file`;
  }
  return undefined;
}

function gitProblem(args: readonly ShellWord[]): string | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (!v.startsWith('-')) break;
    const name = v.split('=')[0]!;
    // `-c core.fsmonitor=`: a program a repository's config names, turned off for the command.
    const next = args[i + 1];
    if (v === '-c' && next?.literal && programTurnedOff(next.value) !== undefined) {
      i++;
      continue;
    }
    if (!Object.hasOwn(GIT_GLOBAL_OPTIONS, name))
      return `the git option \`${v}\` is not known to be read-only (-c, --git-dir, --exec-path and -p are refused)`;
    if (name === '-C' && !v.includes('=')) i++;
  }
  const sub = args[i]?.value;
  if (sub === undefined) return '`git` without a subcommand';
  if (!Object.hasOwn(GIT_SUBCOMMANDS, sub)) return `\`git ${sub}\` is not a read-only git subcommand`;
  const rest = args.slice(i + 1);
  const { flags } = splitFlags(rest);
  for (const flag of flags) {
    const unsafe = unsafeFlag(flag, GIT_UNSAFE_FLAGS);
    if (unsafe) return `\`git ${sub} ${flag}\` ${unsafe}`;
  }
  return ruleProblem(`git ${sub}`, GIT_SUBCOMMANDS[sub]!, rest);
}

function gitSubcommandProblem(label: string, rule: ProgramRule, args: readonly ShellWord[]): string | undefined {
  const sub = label.slice('git '.length);
  const { flags, positionals } = splitFlags(args);
  switch (rule.check) {
    case 'git-list-only': {
      const allowed = GIT_LIST_SUBCOMMANDS[sub] ?? [];
      const first = positionals[0];
      if (first === undefined)
        return sub === 'reflog' ? undefined : `\`${label}\` without a subcommand changes the repository`;
      return allowed.includes(first)
        ? undefined
        : `\`${label} ${first}\` changes the repository; only ${allowed.map((a) => `\`${label} ${a}\``).join(' and ')} read`;
    }
    case 'git-branch':
    case 'git-tag': {
      for (const flag of flags) {
        if (!GIT_BRANCH_LIST_FLAGS.includes(flag.split('=')[0]!))
          return `\`${label} ${flag}\` is not a listing flag; it may create, delete or move`;
      }
      const listing = flags.some((f) => GIT_LISTING_WITH_ARGS.includes(f.split('=')[0]!));
      if (positionals.length > 0 && !listing) return `\`${label} ${positionals[0]}\` creates a ${sub}`;
      return undefined;
    }
    case 'git-remote': {
      const first = positionals[0];
      if (first === undefined)
        return flags.every((f) => f === '-v' || f === '--verbose')
          ? undefined
          : `\`${label} ${flags[0]}\` is not a listing flag`;
      if (first === 'get-url') return undefined;
      if (first === 'show')
        return flags.includes('-n') ? undefined : `\`${label} show\` without -n contacts the remote over the network`;
      return `\`${label} ${first}\` changes the remotes`;
    }
    case 'git-config': {
      if (positionals[0] === 'get' || positionals[0] === 'list') {
        return flags.every((f) => GIT_CONFIG_READ_FLAGS.includes(f.split('=')[0]!))
          ? undefined
          : `\`${label}\` with \`${flags.find((f) => !GIT_CONFIG_READ_FLAGS.includes(f.split('=')[0]!))}\` is not known to be read-only`;
      }
      const reads = flags.some((f) => /^--get|^-l$|^--list$/.test(f));
      if (!reads) return `\`${label}\` without --get or --list may set a value`;
      const bad = flags.find((f) => !GIT_CONFIG_READ_FLAGS.includes(f.split('=')[0]!));
      return bad ? `\`${label} ${bad}\` is not known to be read-only` : undefined;
    }
  }
  return undefined;
}

function splitLong(flag: string): [string, string | undefined] {
  const eq = flag.indexOf('=');
  return eq === -1 ? [flag, undefined] : [flag.slice(0, eq), flag.slice(eq + 1)];
}
