import { homedir } from 'node:os';
import { basename } from 'node:path';
import { foldPath } from './_fold_path.ts';
import { PROTECTED_HOME_DIRS, PROTECTED_HOME_FILES, protectedPath, type ProtectedPath } from './protected_paths.ts';
import { physicalRootOf, pinnedPhysicalRoot } from './real_path_cache.ts';

/** Options of {@linkcode protectedWriteCheck}. */
export interface ProtectedWriteCheckOptions {
  /** What `~` stands for. @default os.homedir() */
  homeDir?: string | undefined;
  /** Compare without regard to case. @default false */
  caseInsensitive?: boolean | undefined;
}

/** A protected home entry that is a link, by where it leads. */
interface LinkedEntry {
  target: string;
  folder: boolean;
  protection: ProtectedPath;
}

/**
 * {@linkcode protectedPath}, made for one check, that also knows where the home directory's
 * protected entries lead: dotfile managers keep `~/.ssh`, `~/.bashrc` or the home directory itself
 * elsewhere (`~/.ssh -> ~/dotfiles/ssh`), and a write to that place is a write to them. Each is
 * resolved through the root cache as its links lead now and as first resolved (so re-pointing one
 * does not take the protection off either), once per check; a path is then a few string compares.
 * The protection's `name` is the target's own last segment (`ssh`, `bashrc`): an allow rule that
 * names it unprotects it, as `.ssh` does for the link.
 *
 * @param options The home directory and case folding.
 * @returns The check: why a path is protected, or undefined.
 *
 * @example
 * ```ts
 * import { protectedWriteCheck } from './_protected_writes.ts';
 *
 * const isProtected = protectedWriteCheck({ homeDir: '/home/u' });
 * isProtected('/home/u/dotfiles/ssh/authorized_keys'); // { name: 'ssh', … } when ~/.ssh -> ~/dotfiles/ssh
 * ```
 */
export function protectedWriteCheck(
  options: ProtectedWriteCheckOptions = {},
): (path: string) => ProtectedPath | undefined {
  const home = options.homeDir ?? homedir();
  const nocase = options.caseInsensitive === true;
  const fold = (text: string) => foldPath(text, nocase);
  const homes = physicalForms(home, home);
  const linked: LinkedEntry[] = [];
  const add = (lexical: string, folder: boolean, what: string) => {
    for (const target of physicalForms(lexical, home))
      linked.push({
        target: fold(target),
        folder,
        protection: { name: basename(target), what: `${what} (${lexical} leads here)` },
      });
  };
  for (const { dir, what } of PROTECTED_HOME_DIRS) add(`${home}/${dir}`, true, what);
  for (const name of PROTECTED_HOME_FILES) add(`${home}/${name}`, false, 'a shell or git start-up file');
  return (path) => {
    const own = protectedPath(path, options);
    if (own !== undefined || (homes.length === 0 && linked.length === 0)) return own;
    for (const physicalHome of homes) {
      const protection = protectedPath(path, { ...options, homeDir: physicalHome });
      if (protection !== undefined) return protection;
    }
    const folded = fold(path);
    for (const entry of linked) {
      if (folded === entry.target || (entry.folder && folded.startsWith(`${entry.target}/`))) return entry.protection;
    }
    return undefined;
  };
}

/**
 * Where a path leads now and where it led when first resolved, other than the path itself: the
 * places a write to it lands (for the home directory, a folder write there reaches it).
 *
 * @param lexical The path, absolute and normal.
 * @param home What `~` stands for.
 * @returns Up to two physical paths.
 *
 * @example
 * ```ts
 * import { physicalForms } from './_protected_writes.ts';
 *
 * physicalForms('/home/u', '/home/u'); // ['/data/home/u'] when /home -> /data/home
 * ```
 */
export function physicalForms(lexical: string, home: string): string[] {
  const forms: string[] = [];
  for (const form of [physicalRootOf(lexical, home), pinnedPhysicalRoot(lexical, home)])
    if (form !== lexical && !forms.includes(form)) forms.push(form);
  return forms;
}
