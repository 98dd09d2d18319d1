import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ShellWord } from './bash_parser.ts';
import type { GitWords, GitWriteOptions } from './_git_words.ts';

/**
 * The paths of the submodules a repository's `.gitmodules` names, absolute; undefined when there is
 * no such file (or it cannot be read), an empty list when it names none.
 *
 * @param root The repository's top folder.
 * @returns The submodules' folders.
 *
 * @example
 * ```ts
 * import { submodulePaths } from './_git_submodules.ts';
 *
 * submodulePaths('/p'); // ['/p/vendor/lib'] for `[submodule "lib"] path = vendor/lib`
 * ```
 */
export function submodulePaths(root: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(root, '.gitmodules'), 'utf8');
  } catch {
    return undefined;
  }
  // `path = X` in any section, quotes undone; a value git reads otherwise (escapes, a `;` comment)
  // only makes the guard see a submodule where there is none, which declares one write too many.
  const out: string[] = [];
  for (const match of text.matchAll(/^\s*path\s*=\s*(.*?)\s*$/gim)) {
    const value = match[1]!.replace(/^"(.*)"$/, '$1');
    if (value !== '') out.push(path.resolve(root, value));
  }
  return out;
}

/**
 * `git rm` and `git mv` of a submodule (or of a folder holding one) rewrite `.gitmodules` (its
 * section goes or its `path` changes; `rm --cached` leaves it alone): declares `.gitmodules` at
 * the repository's top as a write then. Where the submodules or the paths are not known (no
 * repository found, a `-C` not provable), it is an unknown write.
 *
 * @param sub `rm` or `mv`.
 * @param words The subcommand's words.
 * @param options Where paths lead, and how to declare them.
 *
 * @example
 * ```ts
 * import { declareGitmodulesWrite } from './_git_submodules.ts';
 * import { parseGitWords } from './_git_words.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const written: string[] = [];
 * declareGitmodulesWrite('rm', parseGitWords('rm', [word('vendor')]), {
 *   add: (w) => void (w && written.push(w.value)),
 *   addUnknown: () => {},
 *   repositoryRoot: '/p',
 *   elsewhere: false,
 *   home: '/h',
 *   folder: '/p',
 * });
 * written; // ['/p/.gitmodules'] when .gitmodules names vendor/lib
 * ```
 */
export function declareGitmodulesWrite(sub: 'rm' | 'mv', words: GitWords, options: GitWriteOptions): void {
  if (words.has('-n', '--dry-run') || (sub === 'rm' && words.has('--cached'))) return;
  const root = options.repositoryRoot;
  const submodules = root === undefined ? undefined : submodulePaths(root);
  if (root !== undefined && submodules === undefined) return;
  const gitmodules: ShellWord = { text: '.gitmodules', value: `${root}/.gitmodules`, literal: true };
  const pathspecs = [...words.positionals, ...words.afterDashes];
  const touches = pathspecs.some((w) => {
    if (!w.literal || options.folder === undefined || submodules === undefined) return true;
    const at = path.resolve(options.folder, w.value);
    return submodules.some((s) => s === at || s.startsWith(`${at === '/' ? '' : at}/`));
  });
  if (!touches) return;
  if (root === undefined || submodules === undefined)
    options.addUnknown(`whether git ${sub} changes the .gitmodules of a repository not found before it runs`, 'write');
  else options.add(gitmodules, 'write');
}

/**
 * Where git fills a new folder from a commit (`clone`, `worktree add`, `submodule add` and
 * `update`): whatever the commit holds, which the guard cannot see, lands there — a
 * `.vscode/tasks.json`, a `package.json`, a `.husky/` or `.gitmodules`, which core protects at
 * any depth. An unknown write, unless the command checks nothing out (`--no-checkout`, `-n`,
 * `--bare`, `--mirror`).
 *
 * @param what What the command is, for the description (`git clone`).
 * @param into The folder filled (undefined: not known).
 * @param options The subcommand's words (for `--no-checkout`, `-n`, `--bare`, `--mirror`) and the declaring function.
 *
 * @example
 * ```ts
 * import { declareCheckedOut } from './_git_submodules.ts';
 * import { parseGitWords } from './_git_words.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const unknown: string[] = [];
 * const words = parseGitWords('clone', [word('https://x/y.git')]);
 * declareCheckedOut('git clone', word('y'), { words, rest: [], addUnknown: (w) => void unknown.push(w) });
 * unknown.length; // 1
 * ```
 */
export function declareCheckedOut(
  what: string,
  into: ShellWord | undefined,
  options: {
    words: GitWords;
    rest: readonly ShellWord[];
    addUnknown: GitWriteOptions['addUnknown'];
    /** `-n` is `--no-checkout` (clone), not another option. @default false */
    shortN?: boolean;
  },
): void {
  const literal = (name: string) => options.rest.some((w) => w.literal && w.value === name);
  const off =
    literal('--bare') ||
    literal('--mirror') ||
    ((literal('--no-checkout') || (options.shortN === true && options.words.has('-n'))) && !literal('--checkout'));
  if (off) return;
  options.addUnknown(
    `the files ${what} checks out ${into ? `into \`${into.text}\`` : 'into a new folder'} (a commit may hold .vscode/tasks.json, package.json, .husky/…, which are protected at any depth)`,
    'write',
  );
}
