import type { ShellWord } from './bash_parser.ts';

/** Variables that make any dynamically linked program load code of the command's choosing. */
const EVERY_PROGRAM = ['LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'GCONV_PATH'];

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
  less: ['LESSOPEN', 'LESSCLOSE', 'LESS', 'LESSKEY', 'LESSKEYIN', 'LESSHISTFILE'],
};

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
  return environment.find((a) => {
    const set = /^([A-Za-z_]\w*)=/.exec(a.text)?.[1];
    return set === undefined || variables.includes(set);
  });
}
