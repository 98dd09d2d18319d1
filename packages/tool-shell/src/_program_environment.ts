import type { ShellWord } from './bash_parser.ts';

/** Builtins that set or export a variable they name (`read NAME`, `export NAME`, `for NAME in`). */
const SETTERS = 'export|declare|typeset|local|readonly|read|readarray|mapfile|printf|getopts|for|select';

/** How {@linkcode settingsNamed} marks the variables it found. */
const NAMED = ' (named in the command)';

/**
 * Variables that change what any program does with its words or where it writes: a dynamically
 * linked program loads code of the command's choosing (`LD_PRELOAD` and kin), writes its loader's
 * log to `LD_DEBUG_OUTPUT.PID` or its profile under `LD_PROFILE_OUTPUT`; under `POSIXLY_CORRECT`
 * a GNU program's options end at its first operand (`sed 'w F' -e p` runs the script `w F`, not
 * `p`), so the guard's reading of its words is not the program's.
 */
const EVERY_PROGRAM = [
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'GCONV_PATH',
  'LD_DEBUG_OUTPUT',
  'LD_PROFILE',
  'LD_PROFILE_OUTPUT',
  'POSIXLY_CORRECT',
];

/**
 * Variables that give a program options, a configuration file or a command to run, any of which
 * may write: `TAR_OPTIONS=--index-file=F`; a `.curlrc` in `CURL_HOME`, `XDG_CONFIG_HOME` or `HOME`
 * with `output = F`; a `WGETRC` with `logfile = F`; `UNZIP=-o`; a `RIPGREP_CONFIG_PATH` with
 * `--pre=sh` (rg runs it on each file it searches); `LESSOPEN='|CMD %s'` (less runs it, with no
 * terminal too); curl writes its TLS keys to `SSLKEYLOGFILE`.
 */
const BY_PROGRAM: Readonly<Record<string, readonly string[]>> = {
  tar: ['TAR_OPTIONS'],
  unzip: ['UNZIP', 'UNZIPOPT', 'ZIPINFO', 'ZIPINFOOPT'],
  curl: ['CURL_HOME', 'XDG_CONFIG_HOME', 'HOME', 'SSLKEYLOGFILE'],
  wget: ['WGETRC', 'SYSTEM_WGETRC', 'HOME'],
  rg: ['RIPGREP_CONFIG_PATH'],
  // The magic file, as `-m` names it: file shows a line of it that it cannot parse.
  file: ['MAGIC'],
  less: ['LESSOPEN', 'LESSCLOSE', 'LESS', 'LESSKEY', 'LESSKEYIN', 'LESSHISTFILE'],
  // bash runs BASH_ENV before a script, sh -i runs ENV, zsh reads $ZDOTDIR/.zshenv; PS4 is expanded
  // under -x; bash -i reads $HOME/.bashrc, bash -l $HOME/.profile, zsh $HOME/.zshenv always.
  ...Object.fromEntries(
    ['bash', 'sh', 'dash', 'zsh', 'ksh'].map((shell) => [
      shell,
      ['BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'ZDOTDIR', 'HOME'],
    ]),
  ),
};

/**
 * The assignment among those a program runs with that sets `PATH` (or a variable not known before
 * the command runs): the program's name may then find another program (`PATH=bin:$PATH cat f` runs
 * `bin/cat`). Undefined when there is none, or when the name has a `/` (no search).
 *
 * @param name The program's name as written (`cat`, `./x`).
 * @param environment The assignments it runs with.
 * @returns The assignment, or undefined.
 *
 * @example
 * ```ts
 * import { pathSetting } from './_program_environment.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * pathSetting('cat', [word('PATH=bin')])?.text; // 'PATH=bin'
 * pathSetting('/bin/cat', [word('PATH=bin')]); // undefined
 * ```
 */
export function pathSetting(name: string, environment: readonly ShellWord[]): ShellWord | undefined {
  if (name.includes('/')) return undefined;
  const found = environment.filter((a) => {
    const set = /^([A-Za-z_]\w*)=/.exec(a.text)?.[1];
    return set === undefined || set === 'PATH';
  });
  return found.find((a) => !a.text.endsWith(NAMED)) ?? found[0];
}

/**
 * The assignment among those a program runs with (`NAME=value` before it, `env NAME=value`, an
 * earlier `export`) that sets a variable through which the program loads code, runs a command or
 * takes options or a configuration file the command chose; an assignment whose name is not known
 * before the command runs may be any of them. Undefined when there is none.
 *
 * @param name The program (`curl`).
 * @param environment The assignments it runs with.
 * @returns The assignment, or undefined.
 *
 * @example
 * ```ts
 * import { programSetting } from './_program_environment.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * programSetting('tar', [word('TAR_OPTIONS=--index-file=x')])?.text; // 'TAR_OPTIONS=--index-file=x'
 * programSetting('tar', [word('LANG=C')]); // undefined
 * ```
 */
export function programSetting(name: string, environment: readonly ShellWord[]): ShellWord | undefined {
  const variables = [...EVERY_PROGRAM, ...(BY_PROGRAM[name] ?? [])];
  const found = environment.filter((a) => {
    const set = /^([A-Za-z_]\w*)=/.exec(a.text)?.[1];
    return set === undefined || variables.includes(set);
  });
  // An assignment written out says more than a name the text mentions.
  return found.find((a) => !a.text.endsWith(NAMED)) ?? found[0];
}

/**
 * The variables of {@linkcode programSetting} (and `PATH`) that a command's text may set other
 * than by `NAME=value` before a program: `export NAME` after `read NAME`, `printf -v NAME`,
 * `${NAME:=value}` under `set -a`, a prefix on a function call or on `bash -c`. Each one assigned
 * (`NAME=`, `NAME+=`), named after a builtin that sets or exports it, or in `${NAME:=…}` is
 * returned as an assignment whose value is not known, for {@linkcode programSetting}.
 *
 * @param command The whole command's text.
 * @returns An assignment word for each such variable named.
 *
 * @example
 * ```ts
 * import { settingsNamed } from './_program_environment.ts';
 *
 * settingsNamed('read -r TAR_OPTIONS; export TAR_OPTIONS; tar -tf a.tar').map((w) => w.text);
 * // ['TAR_OPTIONS=… (named in the command)']
 * settingsNamed('echo "$HOME"; curl -s https://example.com'); // []
 * ```
 */
export function settingsNamed(command: string): ShellWord[] {
  const all = new Set([...EVERY_PROGRAM, ...Object.values(BY_PROGRAM).flat(), 'PATH']);
  const named: ShellWord[] = [];
  for (const name of all) {
    if (!command.includes(name)) continue;
    const assigned = `(^|[^$\\w{])${name}\\+?=`;
    const builtin = `\\b(${SETTERS})\\b[^;&|\\n]*?[^$\\w{]${name}\\b`;
    if (new RegExp(`${assigned}|${builtin}|\\$\\{${name}:?=`).test(command)) {
      const text = `${name}=…${NAMED}`;
      named.push({ text, value: text, literal: true });
    }
  }
  return named;
}

/**
 * Why the command's own shell may run what `PS4` holds: under xtrace (`set -x`, `set -o xtrace`)
 * bash expands `PS4` before each command it traces, `$(…)` in it included, and the command sets
 * `PS4` (see {@linkcode settingsNamed}). Undefined when it does not do both.
 *
 * @param command The whole command's text.
 * @returns The reason, for an unknown write, or undefined.
 *
 * @example
 * ```ts
 * import { traceInjection } from './_program_environment.ts';
 *
 * traceInjection("PS4='$(touch f)'; set -x; true"); // 'bash expands `PS4` …'
 * traceInjection('set -x; echo "$PS4"'); // undefined
 * ```
 */
export function traceInjection(command: string): string | undefined {
  if (!/\bset\s+(?:[-+]\w+\s+)*(?:-[a-zA-Z]*x|-o\s+xtrace)\b/.test(command)) return undefined;
  if (!settingsNamed(command).some((w) => w.text.startsWith('PS4='))) return undefined;
  return 'bash expands `PS4` before each command `set -x` traces, and a `PS4` the command sets (`$(cmd)` in it runs cmd)';
}
