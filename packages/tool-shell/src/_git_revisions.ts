import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import path from 'node:path';

/** Rev syntax: `~`, `^`, `:`, `@`, `{…}`, a pattern, a range. */
const REV_SYNTAX = /[~^:@{}\\*?[]|\.\./;

/** Names git keeps at the top of its folder for a commit (`HEAD`, `FETCH_HEAD`, `ORIG_HEAD`…). */
const PSEUDO_REF = /^[A-Z_]*HEAD$|^AUTO_MERGE$/;

/** `git describe` output (`v1.2-3-gabc1234`): git takes the hex after `-g` for an object name, whatever comes before. */
const DESCRIBE = /-g[0-9a-f]{4,}$/i;

/**
 * Another worktree's refs (`main-worktree/HEAD`, `worktrees/<id>/HEAD`, `worktrees/<id>/refs/bisect/bad`),
 * which git reads from that worktree's folder.
 */
const OTHER_WORKTREE = /^(main-worktree|worktrees)\//;

/**
 * Whether git could read a word as a revision rather than a path: rev syntax (`~`, `^`, `:`,
 * `@{…}`, `..`), what may be an object name (four or more hex digits, or `git describe` output
 * ending in `-g<hex>`), a name git keeps for a commit (`HEAD`), another worktree's ref
 * (`main-worktree/HEAD`), or a ref (a branch, tag or remote, loose or packed, named short or in
 * full, this worktree's own `refs/worktree/…` included). A name git refuses for a ref (a part
 * that starts with a dot: `.`, `./src`) is none; a repository whose refs cannot be read here
 * (reftable, an unreadable `packed-refs`) may name anything else.
 *
 * @param value The word.
 * @param gitDir The repository's git folder.
 * @returns True when it may be a revision.
 *
 * @example
 * ```ts
 * import { mayNameRevision } from './_git_revisions.ts';
 *
 * mayNameRevision('src/a.ts', '/repo/.git'); // false, unless a branch is named so
 * mayNameRevision('main', '/repo/.git'); // true where the branch exists
 * mayNameRevision('v1-g1a2b3c4', '/repo/.git'); // true: the object 1a2b3c4
 * ```
 */
export function mayNameRevision(value: string, gitDir: string): boolean {
  if (value === '' || REV_SYNTAX.test(value) || /^[0-9a-f]{4,}$/i.test(value) || DESCRIBE.test(value)) return true;
  if (PSEUDO_REF.test(value) || OTHER_WORKTREE.test(value)) return true;
  // check_refname_format: no part of a ref's name starts with a dot, and none is empty.
  if (value.split('/').some((part) => part === '' || part.startsWith('.'))) return false;
  return refCandidates(value).some((name) => refExists(name, gitDir) !== false);
}

/**
 * Whether a revision surely names a commit, so that a pathspec limits what git shows of it (a
 * blob or a tree named is shown whole, or read from its own folder): `HEAD` or `@` on a branch or
 * detached, a branch (the first ref its name finds is under `refs/heads/`, where git stores
 * nothing but commits, and not a symbolic ref to a tag),
 * a name with a suffix that goes to a commit (`X~2`, `X^`, `X^{commit}`, `X^!`), or a range of
 * such names. An object name, a tag, a remote-tracking ref or `REV:path` may name a blob or a
 * tree: not surely a commit.
 *
 * @param value The revision as written.
 * @param gitDir The repository's git folder; undefined when not known (a branch is then not known either).
 * @returns True when it can only name a commit (or fail).
 *
 * @example
 * ```ts
 * import { surelyCommit } from './_git_revisions.ts';
 *
 * surelyCommit('HEAD~1', '/repo/.git'); // true
 * surelyCommit('main', '/repo/.git'); // true where refs/heads/main is the branch
 * surelyCommit('v1.0', '/repo/.git'); // false: a tag may name a blob
 * ```
 */
export function surelyCommit(value: string, gitDir: string | undefined): boolean {
  if (value.includes(':')) return false;
  const range = /^(.*?)\.\.\.?(.*)$/.exec(value);
  if (range) return [range[1]!, range[2]!].every((end) => end === '' || surelyCommit(end, gitDir));
  const name = value.startsWith('^') ? value.slice(1) : value;
  if (/(~\d*|\^\d*|\^\{commit\}|\^!|\^@|\^-\d*)$/.test(name)) return name.length > 1;
  if (gitDir === undefined) return false;
  // HEAD may lead to a tag (`git symbolic-ref HEAD refs/tags/blob`).
  if (name === 'HEAD' || name === '@') return leadsToCommit('HEAD', gitDir);
  if (name === '' || REV_SYNTAX.test(name) || /^[0-9a-f]{40,}$/i.test(name) || OTHER_WORKTREE.test(name)) return false;
  // The first ref git finds for the name (git's ref_rev_parse_rules order) must be a branch.
  for (const candidate of refCandidates(name)) {
    const found = refExists(candidate, gitDir);
    if (found !== false)
      return found === true && candidate.startsWith('refs/heads/') && leadsToCommit(candidate, gitDir);
  }
  return false;
}

/**
 * Whether `HEAD` or a branch names a commit: its own object name (git writes nothing else to
 * either), a packed branch, or a symbolic ref to a branch that does; a symbolic ref to anything
 * else (`ref: refs/tags/v1`, which may be a tag of a blob) does not.
 */
function leadsToCommit(ref: string, gitDir: string, depth = 0): boolean {
  if (depth > 5) return false;
  let text: string;
  try {
    text = readFileSync(path.join(ref === 'HEAD' ? gitDir : commonDir(gitDir), ref), 'utf8');
  } catch {
    // Not loose: packed (never symbolic), as refExists found it.
    return ref !== 'HEAD';
  }
  const target = /^ref:\s*(\S+)/.exec(text)?.[1];
  if (target === undefined) return /^[0-9a-f]{40}/.test(text);
  return target.startsWith('refs/heads/') && leadsToCommit(target, gitDir, depth + 1);
}

/**
 * Whether the repository replaces objects (`refs/replace/…`, made by `git replace A B`): git then
 * shows B's content wherever A's is asked for, so `git show HEAD:a.txt` may print another file
 * (`.env`'s blob): what a read of named paths shows is not known. True where the refs cannot be
 * read here.
 *
 * @param gitDir The repository's git folder.
 * @returns True when a replace ref may exist.
 *
 * @example
 * ```ts
 * import { replacesObjects } from './_git_revisions.ts';
 *
 * replacesObjects('/repo/.git'); // false, until `git replace` is run there
 * ```
 */
export function replacesObjects(gitDir: string): boolean {
  const common = commonDir(gitDir);
  if (isPresent(path.join(common, 'reftable'))) return true;
  try {
    if (readdirSync(path.join(common, 'refs/replace')).length > 0) return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return true;
  }
  try {
    return readFileSync(path.join(common, 'packed-refs'), 'utf8').includes(' refs/replace/');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** The refs git tries for a short name, in its order (`ref_rev_parse_rules`). */
function refCandidates(value: string): string[] {
  return [
    value,
    `refs/${value}`,
    `refs/tags/${value}`,
    `refs/heads/${value}`,
    `refs/remotes/${value}`,
    `refs/remotes/${value}/HEAD`,
  ];
}

/**
 * Whether a ref exists: loose in the worktree's git folder or the shared one (a file; a name at
 * the top of the git folder only when its text is a ref: `config` and `hooks/` are none), or in
 * `packed-refs`. Undefined when the refs cannot be read here (reftable, an unreadable file).
 */
function refExists(name: string, gitDir: string): boolean | undefined {
  const common = commonDir(gitDir);
  if (isPresent(path.join(common, 'reftable'))) return undefined;
  for (const dir of new Set([gitDir, common])) {
    const found = looseRef(path.join(dir, name), !name.includes('/'));
    if (found !== false) return found;
  }
  if (!name.startsWith('refs/')) return false;
  let packed: string;
  try {
    packed = readFileSync(path.join(common, 'packed-refs'), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? false : undefined;
  }
  return packed.split('\n').some((line) => !line.startsWith('#') && line.slice(line.indexOf(' ') + 1).trim() === name);
}

/** A loose ref file: a file (a folder is none); at the top of the git folder, one whose text is a ref. */
function looseRef(file: string, top: boolean): boolean | undefined {
  try {
    if (statSync(file).isDirectory()) return false;
    if (!top) return true;
    return /^(ref:|[0-9a-f]{40})/.test(readFileSync(file, 'utf8').slice(0, 100));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? false : undefined;
  }
}

function isPresent(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The folder a linked worktree shares refs with (its `commondir`), or the git folder itself. */
export function commonDir(gitDir: string): string {
  try {
    return path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return gitDir;
  }
}

/**
 * Whether git takes a folder for a git folder (setup.c's `is_git_directory`): a `HEAD` that is a
 * ref (`ref: refs/…`, an object name, or a link into `refs/`) and `objects` and `refs` in it or in
 * the folder its `commondir` names. git passes over a `.git` folder that is not one and looks
 * in the folder above.
 *
 * @param dir The folder.
 * @returns True when git would use it.
 *
 * @example
 * ```ts
 * import { isGitDirectory } from './_git_revisions.ts';
 *
 * isGitDirectory('/repo/.git'); // true
 * isGitDirectory('/repo/src/.git'); // false for an empty folder
 * ```
 */
export function isGitDirectory(dir: string): boolean {
  const head = path.join(dir, 'HEAD');
  let valid = false;
  try {
    valid = readlinkSync(head).startsWith('refs/');
  } catch {
    try {
      valid = /^(ref:\s*refs\/|[0-9a-f]{40})/.test(readFileSync(head, 'utf8').slice(0, 200));
    } catch {
      valid = false;
    }
  }
  const common = commonDir(dir);
  return valid && isPresent(path.join(common, 'objects')) && isPresent(path.join(common, 'refs'));
}
