import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { isInertGitConfig } from './_inert_git_config.ts';
import { inertNewPackageJson, packageManagerChangeOnly } from './_package_json_guard.ts';
import {
  inWritable,
  linkTarget,
  type ProtectedEntry,
  type ProtectedSnapshot,
  protectedSnapshot,
  readRegularText,
} from './_protected_tree.ts';

/**
 * Moves what a sandboxed command created among the protected entries into a quarantine folder:
 * every entry of the snapshot after the command that was not there before (or is another file or
 * folder under the same name: a protected one renamed away and made again), and every path of
 * `missing` that exists now. What a new repository needs may stay: hooks folders with only git's
 * `*.sample` files, configs with only the settings `git init`, `git clone` and `git remote add`
 * write, and a `commondir` or `.git` file that leads to a git folder (or out of the writable
 * directories, where the command could not write).
 *
 * @param before The snapshot taken before the command, and `missing`: paths that did not exist then
 *   and must not be made (the hooks folder and included files a git config names).
 * @param quarantineDir Where to move them.
 * @returns One note per moved entry, for the model.
 *
 * @example
 * ```ts
 * import { protectedSnapshot } from './_protected_tree.ts';
 * import { quarantineNew } from './_sandbox_quarantine.ts';
 *
 * const before = protectedSnapshot(['/p']);
 * // … the command runs …
 * quarantineNew({ snapshot: before, missing: [] }, '/state/sandbox-quarantine'); // ['The sandbox does not let commands create /p/.mcp.json; …']
 * ```
 */
export function quarantineNew(
  before: { snapshot: ProtectedSnapshot; missing: readonly string[] },
  quarantineDir: string,
): string[] {
  const { snapshot } = before;
  const after = protectedSnapshot(snapshot.writable, snapshot.home === undefined ? {} : { home: snapshot.home });
  const moved: string[] = [];
  const restored = new Map<string, string | undefined>();
  for (const entry of after.entries.values()) {
    const was = snapshot.entries.get(entry.path);
    if (was?.id === entry.id) continue;
    if (entry.kind === 'package-json' && was?.kind === 'package-json') {
      // Changed in place or swapped: only what a package manager writes may differ. A link never passes:
      // the file behind it is one no check keeps, which a later command could change unseen.
      const judged = was.text !== undefined && entry.text !== undefined && entry.link !== true;
      if (judged && packageManagerChangeOnly(was.text!, entry.text!)) continue;
      restored.set(entry.path, was.text);
      moved.push(entry.path);
      continue;
    }
    // A repository that was there never gains a commondir: it would move its config, hooks and refs.
    const gained = entry.kind === 'git-commondir' && snapshot.gitDirs.has(path.dirname(entry.path));
    if (gained || !mayStay(entry, { before: snapshot, after })) moved.push(entry.path);
  }
  for (const kept of before.missing) if (existsSync(kept)) moved.push(kept);
  // An entry inside one moved already went with it.
  const outer = moved.filter((p) => !moved.some((o) => o !== p && inWritable(p, [o])));
  return [...new Set(outer)]
    .sort()
    .map((entry) =>
      restored.has(entry) ? putBack(entry, restored.get(entry), quarantineDir) : quarantine(entry, quarantineDir),
    );
}

/** Whether a new protected entry is one a new repository needs, and runs nothing. */
function mayStay(entry: ProtectedEntry, snapshots: { before: ProtectedSnapshot; after: ProtectedSnapshot }): boolean {
  const { before, after } = snapshots;
  try {
    switch (entry.kind) {
      case 'name':
        return false;
      case 'package-json':
        return entry.text !== undefined && entry.link !== true && inertNewPackageJson(entry.text);
      case 'git-alternates':
        // `git clone --shared` or `--reference` borrows objects in the repository it makes.
        return !before.gitDirs.has(path.dirname(path.dirname(path.dirname(entry.path))));
      case 'git-hooks':
        return readdirSync(entry.path).every((name) => name.endsWith('.sample'));
      case 'git-config': {
        const text = readRegularText(entry.path);
        return text !== undefined && singleName(entry.path) && isInertGitConfig(text);
      }
      case 'git-commondir':
      case 'gitfile': {
        if (!statSync(entry.path).isDirectory() && !singleName(entry.path)) return false;
        const target = linkTarget(entry);
        if (target === undefined || !leadsToGitDir(target, after)) return false;
        // A git folder that was there is one to send git to only if it is a repository's own (a
        // `.git`, or one in it: `git worktree add`'s commondir): a bare-like folder the project
        // ships, with a config that runs programs, would otherwise run when git is used here.
        return !before.gitDirs.has(target) || target.endsWith('/.git') || target.includes('/.git/');
      }
    }
  } catch {
    // Unreadable (a folder where a file was expected, a link to nowhere): not judged, so not left.
    return false;
  }
}

/**
 * Whether a file (or what a link to one leads to) has no other name: from the next command on it is
 * bound read-only, but a hard link made beside it by this command would stay writable, and what
 * was judged inert could be rewritten through it.
 */
function singleName(file: string): boolean {
  return statSync(file).nlink === 1;
}

/** Whether the folder a `commondir` or `.git` file names is a git folder found, or out of the command's reach. */
function leadsToGitDir(full: string, after: ProtectedSnapshot): boolean {
  if (after.gitDirs.has(full)) return true;
  return !inWritable(full, after.writable);
}

function quarantine(entry: string, quarantineDir: string): string {
  try {
    const target = moveToQuarantine(entry, quarantineDir);
    return `The sandbox does not let commands create ${entry} (it would act outside the sandbox later); it was moved to ${target}. Use the Write or Edit tool, which asks for approval.`;
  } catch (e) {
    return `The sandboxed command created ${entry}, which acts outside the sandbox, and it could not be moved away (${(e as Error).message}); check it before trusting it.`;
  }
}

/**
 * Moves a package.json whose scripts (or another field a package manager leaves alone) a command
 * changed to the quarantine, and writes back the text it had before.
 */
function putBack(entry: string, text: string | undefined, quarantineDir: string): string {
  const what = `The sandbox lets commands change only the dependencies and version of ${entry} (its scripts and other fields run programs outside the sandbox later)`;
  let target: string;
  try {
    target = moveToQuarantine(entry, quarantineDir);
  } catch (e) {
    return `${what}, and the changed file could not be moved away (${(e as Error).message}); check it before trusting it.`;
  }
  if (text === undefined)
    return `${what}; the changed file was moved to ${target}, and the one before could not be read to put it back.`;
  try {
    writeFileSync(entry, text, { flag: 'wx' });
  } catch (e) {
    return `${what}; the changed file was moved to ${target}, and the one before could not be put back (${(e as Error).message}).`;
  }
  return `${what}; it was put back as it was, and the changed file moved to ${target}. To keep the change (a git switch, pull or merge that brought in another package.json included), write that file's text to ${entry} with the Write or Edit tool, which asks for approval.`;
}

/** Moves an entry to a folder of its own in the quarantine, and returns where. */
function moveToQuarantine(entry: string, quarantineDir: string): string {
  mkdirSync(quarantineDir, { recursive: true });
  // A folder of its own for each entry: names made from paths collide (`a/b/.vscode` and
  // `a_b/.vscode`), and a rename onto a folder that exists fails and left the entry in place.
  const target = path.join(mkdtempSync(path.join(quarantineDir, `${Date.now()}-`)), entry.replace(/[\\/]/g, '_'));
  moveAcross(entry, target);
  return target;
}

/** Renames, or where the quarantine is on another file system (EXDEV), copies and then removes. */
function moveAcross(entry: string, target: string): void {
  try {
    renameSync(entry, target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    cpSync(entry, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
    rmSync(entry, { recursive: true, force: true });
  }
}
