import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { checkBraceVariants, expandBraces } from './_expand_braces.ts';

/** The ignore files a walk honours, in rising precedence (ripgrep's set; `.git/info/exclude` too, global excludes not). */
const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'];

/** Folders never entered. */
const SKIP_DIRS = new Set(['.git', '.hg', '.svn', '.jj']);

/** Options of {@linkcode walkFiles}. */
export interface WalkOptions {
  /** Stops the walk. */
  signal?: AbortSignal;
  /**
   * ripgrep-style `--glob` overrides: a file matching a positive glob is included even when
   * ignored, one matching a negative glob (`!x`) is excluded; with any positive glob, files
   * matching none are excluded. Folders are only pruned by negative globs and ignore files.
   */
  globs?: readonly string[];
  /**
   * The folder's own path, whose parent folders' ignore files apply, when `root` is another name
   * for it (`/proc/self/fd/N`, the folder as a search opened it). @default root
   */
  parentsOf?: string;
  /**
   * Takes each file as it is found instead of the list: a walk of a large tree then holds a folder
   * at a time, not every name (the list returned is empty). @default the files are listed
   */
  onFile?: (rel: string) => void;
}

interface Rules {
  /** The folder the rules are relative to, from the walk's root (`''` for the root, `^`-prefixed for parents: see {@linkcode parentRules}). */
  base: string;
  ig: Ignore;
  /** For a parent's rules: they ignore the walk's root itself. */
  rootIgnored?: boolean;
}

/**
 * Lists the files under `root` the way `rg --files --hidden --no-require-git` does: hidden
 * files included, `.git` skipped, `.gitignore`/`.ignore`/`.rgignore` honoured at every level
 * and in the folders above `root`, symlinks not followed.
 *
 * @param root The folder (absolute).
 * @param options Overrides and a signal.
 * @returns Paths relative to `root`, `/`-separated, in walk order.
 * @throws {Error} When `root` cannot be read, or with the signal's reason when aborted.
 *
 * @example
 * ```ts
 * import { walkFiles } from './_walk.ts';
 *
 * const files = await walkFiles('/repo', { globs: ['*.ts'] });
 * ```
 */
export async function walkFiles(root: string, options: WalkOptions = {}): Promise<string[]> {
  const overrides = options.globs && options.globs.length > 0 ? makeOverrides(options.globs) : undefined;
  const inherited = await parentRules(options.parentsOf ?? root);
  const out: string[] = [];
  const walkDir = async (rel: string, rules: readonly Rules[]): Promise<void> => {
    options.signal?.throwIfAborted();
    const abs = rel ? path.join(root, rel) : root;
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (e) {
      if (rel === '') throw e;
      return; // an unreadable subfolder is skipped, as ripgrep does (it warns)
    }
    // Only ignore files that the listing shows are read: no failed opens in every folder.
    const own = entries.some((e) => IGNORE_FILES.includes(e.name) || e.name === '.git')
      ? await readRules(abs, rel)
      : undefined;
    const active = own ? [...rules, own] : rules;
    const subdirs: string[] = [];
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (SKIP_DIRS.has(entry.name)) continue;
        if (overrides?.(childRel, true) === false) continue;
        if (isIgnored(active, childRel, true)) continue;
        subdirs.push(childRel);
      } else if (entry.isFile()) {
        const verdict = overrides?.(childRel, false);
        if (verdict === false) continue;
        if (verdict !== true && isIgnored(active, childRel, false)) continue;
        if (options.onFile) options.onFile(childRel);
        else out.push(childRel);
      }
    }
    await Promise.all(subdirs.map((d) => walkDir(d, active)));
  };
  await walkDir('', inherited);
  return out;
}

async function readRules(abs: string, rel: string): Promise<Rules | undefined> {
  let ig: Ignore | undefined;
  // A repository's own excludes, below its ignore files in precedence (as git and ripgrep rank them).
  for (const name of ['.git/info/exclude', ...IGNORE_FILES]) {
    const text = await readFile(path.join(abs, name), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    ig ??= ignore({ allowRelativePaths: true });
    ig.add(text);
  }
  return ig ? { base: rel, ig } : undefined;
}

async function parentRules(root: string): Promise<Rules[]> {
  const rules: Rules[] = [];
  let dir = root;
  let up = '';
  for (let parent = path.dirname(dir); parent !== dir; dir = parent, parent = path.dirname(parent)) {
    up = up ? `${up}/..` : '..';
    const found = await readRules(parent, up);
    if (found) rules.unshift({ base: path.relative(parent, root).split(path.sep).join('/'), ig: found.ig });
  }
  // For a parent, `base` holds the walk root's path relative to that parent (a prefix to add).
  // ripgrep matches each path against a parent's rules on its own, not through its folders, so a
  // root inside an ignored folder (`path: "node_modules/x"`) is searched, as the model asked.
  return rules.map((r) => ({ ...r, base: `^${r.base}`, rootIgnored: r.ig.test(`${r.base}/`).ignored }));
}

function isIgnored(rules: readonly Rules[], rel: string, dir: boolean): boolean {
  let ignored = false;
  for (const { base, ig, rootIgnored } of rules) {
    let local: string;
    // `ignore` answers for a path under an ignored folder with that folder's verdict; by the name
    // alone, the rules without a slash (`*.log`, `node_modules`) still apply, as in ripgrep.
    if (rootIgnored) local = rel.slice(rel.lastIndexOf('/') + 1);
    else if (base.startsWith('^')) local = `${base.slice(1)}/${rel}`;
    else if (base === '') local = rel;
    else if (rel.startsWith(`${base}/`)) local = rel.slice(base.length + 1);
    else continue;
    const r = ig.test(dir ? `${local}/` : local);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/** ripgrep's override semantics: the last matching glob decides; `undefined` means no opinion. */
function makeOverrides(globs: readonly string[]): (rel: string, dir: boolean) => boolean | undefined {
  // gitignore matching has no `{a,b}`; ripgrep's globs do. Each glob is tried as the globs it stands for, a bounded number.
  for (const g of globs) checkBraceVariants(g.startsWith('!') ? g.slice(1) : g);
  const ig = ignore({ allowRelativePaths: true }).add(
    globs.flatMap((g) => (g.startsWith('!') ? expandBraces(g.slice(1)).map((e) => `!${e}`) : expandBraces(g))),
  );
  const hasPositive = globs.some((g) => !g.startsWith('!'));
  return (rel, dir) => {
    const r = ig.test(dir ? `${rel}/` : rel);
    if (r.unignored) return false; // a `!glob` matched: excluded
    if (r.ignored) return dir ? undefined : true; // a positive glob matched
    if (dir) return undefined;
    return hasPositive ? false : undefined;
  };
}
