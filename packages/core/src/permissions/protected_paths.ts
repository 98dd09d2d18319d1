import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import { foldPath } from './_fold_path.ts';

/** Shell and git start-up files in the home directory: a write there runs code in later shells. */
export const PROTECTED_HOME_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.gitconfig',
];

/** Directories whose contents configure permissions, hooks or MCP servers, at any depth. */
const CONFIG_DIRS = ['.toolshed', '.claude'];
/** Inside `.git/`, what git itself writes; everything else there (config, hooks) is protected. */
const GIT_DATA = ['objects', 'refs'];

/** Why a path is protected, and the name an allow rule must mention to unprotect it. */
export interface ProtectedPath {
  /** The protected name as written in the path (`.git`, `.claude`, `.bashrc`, …). */
  name: string;
  /** What it is, for the decision's reason. */
  what: string;
}

/**
 * Whether writing a path would change the agent's own permissions, hooks, MCP servers, git
 * internals or shell start-up: `.toolshed/` and `.claude/` (at any depth), `.mcp.json`, `.git/`
 * except `objects/` and `refs/`, and `~/.bashrc`, `~/.zshrc`, `~/.profile`, `~/.gitconfig` and
 * their kin. Such writes always ask, in every mode, unless an allow rule names the path.
 *
 * @param path An absolute, resolved path.
 * @param options `homeDir` (default os.homedir()) and `caseInsensitive` (default false).
 * @returns What protects the path, or undefined.
 *
 * @example
 * ```ts
 * protectedPath('/p/.git/hooks/pre-commit'); // { name: '.git', what: 'git internals (hooks, config)' }
 * protectedPath('/p/.git/objects/ab/cdef');  // undefined
 * protectedPath('/p/src/a.ts');              // undefined
 * ```
 */
export function protectedPath(
  path: string,
  options: { homeDir?: string | undefined; caseInsensitive?: boolean | undefined } = {},
): ProtectedPath | undefined {
  const fold = (text: string) => foldPath(text, options.caseInsensitive);
  const segments = path.split('/').filter((s) => s !== '');
  for (let i = 0; i < segments.length; i++) {
    const segment = fold(segments[i]!);
    if (CONFIG_DIRS.includes(segment)) return { name: segments[i]!, what: 'permission and hook configuration' };
    if (segment === '.git') {
      const next = segments[i + 1];
      if (next !== undefined && GIT_DATA.includes(fold(next))) continue;
      return { name: segments[i]!, what: 'git internals (config, hooks)' };
    }
  }
  const name = basename(path);
  if (fold(name) === '.mcp.json') return { name, what: 'MCP server configuration' };
  const home = options.homeDir ?? homedir();
  if (fold(dirname(path)) === fold(home) && PROTECTED_HOME_FILES.includes(fold(name))) {
    return { name, what: 'a shell or git start-up file' };
  }
  return undefined;
}
