import { CONFIG_READ_FLAGS, CONFIG_WRITE_FLAGS, type GitWords, type GitWriteOptions } from './_git_words.ts';

/** `git config SUBCOMMAND` (git 2.46 and later). */
const CONFIG_WRITE_SUBCOMMANDS = ['set', 'unset', 'rename-section', 'remove-section', 'edit'];
const CONFIG_READ_SUBCOMMANDS = ['get', 'list'];

/**
 * Declares the config file a git command changes: `git config` when it sets, adds, removes or
 * edits (not `--get`, `--list`, a key alone, `--blob`), or `always` for commands that write
 * config as a side effect (`remote add`, `branch --track`). The file: `--file`, `--system`
 * (`/etc/gitconfig`), `--global` (`~/.gitconfig`), else the repository's `.git/config` (or
 * `config.worktree`) — an unknown write when the repository is not known.
 *
 * @param words The subcommand's words (see {@linkcode parseGitWords}).
 * @param options Where paths lead; `always` declares the write whatever the action, `global` writes
 *   `~/.gitconfig` (`maintenance register`).
 *
 * @example
 * ```ts
 * import { declareConfigWrite } from './_git_config_writes.ts';
 * import { parseGitWords } from './_git_words.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const words = parseGitWords('config', ['core.hooksPath', '/tmp/h'].map(word));
 * declareConfigWrite(words, {
 *   add: (w) => console.log(w?.value), // '/p/.git/config'
 *   addUnknown: () => {},
 *   repositoryRoot: '/p',
 *   elsewhere: false,
 *   home: '/home/u',
 * });
 * ```
 */
export function declareConfigWrite(
  words: GitWords,
  options: GitWriteOptions & { global?: boolean; always?: boolean },
): void {
  if (!options.always && !configWrites(words)) return;
  const file = words.value('-f', '--file');
  if (file) return options.add(file, 'write');
  const named = (text: string) => options.add({ text, value: text, literal: true }, 'write');
  if (words.has('--system')) return named('/etc/gitconfig');
  if (options.global || words.has('--global')) return named(`${options.home === '/' ? '' : options.home}/.gitconfig`);
  if (options.repositoryRoot === undefined || options.elsewhere) {
    options.addUnknown('the config file git changes (a repository not known before it runs)', 'write');
    return;
  }
  named(`${options.repositoryRoot}/.git/${words.has('--worktree') ? 'config.worktree' : 'config'}`);
}

/** Whether `git config`'s words change a file. */
function configWrites(words: GitWords): boolean {
  if (words.has('--blob')) return false;
  const first = words.positionals[0]?.value;
  if (first !== undefined && CONFIG_WRITE_SUBCOMMANDS.includes(first)) return true;
  if (first !== undefined && CONFIG_READ_SUBCOMMANDS.includes(first)) return false;
  if (words.has(...CONFIG_WRITE_FLAGS)) return true;
  if (words.has(...CONFIG_READ_FLAGS)) return false;
  return words.positionals.length >= 2;
}
