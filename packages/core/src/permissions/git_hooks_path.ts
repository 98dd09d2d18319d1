import { readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

/** The hooks folders found for one set of working directories, and the config files they came from. */
interface Found {
  key: string;
  /** Each config file read (or looked for) and its modification time then (-1: missing). */
  files: { path: string; mtimeMs: number }[];
  dirs: string[];
}

let last: Found | undefined;

/**
 * The folders git runs hooks from instead of `.git/hooks` (`core.hooksPath`) for the repositories
 * the working directories are in, as their config files say now: the repository's `config` (and a
 * worktree's `config.worktree`), `~/.gitconfig`, `~/.config/git/config` and `/etc/gitconfig`, the
 * most local one winning, as git reads them. A relative path is taken from the top of the working
 * tree, `~/` from the home directory. A script there runs on an allowed `git commit` or `git push`,
 * as one in `.git/hooks` does. Kept while none of those files changed (one `stat` each per call).
 * `[include]`d files are not followed.
 *
 * @param workingDirectories Absolute, normal paths.
 * @param home What `~` stands for.
 * @returns The hooks folders, absolute and normal (none when no config sets one).
 *
 * @example
 * ```ts
 * import { gitHooksFolders } from '@toolshed/core/internal';
 *
 * gitHooksFolders(['/p'], '/home/u'); // ['/p/.githooks'] when /p/.git/config says hooksPath = .githooks
 * ```
 */
export function gitHooksFolders(workingDirectories: readonly string[], home: string): string[] {
  const key = `${home}\0${workingDirectories.join('\0')}`;
  if (last !== undefined && last.key === key && last.files.every((f) => mtimeOf(f.path) === f.mtimeMs)) {
    return last.dirs;
  }
  const files: Found['files'] = [];
  // Every file looked at is watched: one made, changed or removed later finds the folders again.
  const look = (path: string): Stats | undefined => {
    let stats: Stats | undefined;
    try {
      stats = statSync(path);
    } catch {
      stats = undefined;
    }
    files.push({ path, mtimeMs: stats?.mtimeMs ?? -1 });
    return stats;
  };
  const read = (path: string): string | undefined => {
    if (look(path) === undefined) return undefined;
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  };
  const base = home === '/' ? '' : home;
  let global: string | undefined;
  for (const file of [`${base}/.gitconfig`, `${base}/.config/git/config`, '/etc/gitconfig'].reverse()) {
    global = hooksPathIn(read(file)) ?? global;
  }
  const dirs = new Set<string>();
  const seen = new Set<string>();
  for (const dir of workingDirectories) {
    const repo = repositoryOf(dir, look, read);
    if (repo === undefined) {
      if (global !== undefined) dirs.add(expand(global, dir, home));
      continue;
    }
    if (seen.has(repo.top)) continue;
    seen.add(repo.top);
    let value = global;
    for (const file of repo.configs) value = hooksPathIn(read(file)) ?? value;
    if (value !== undefined) dirs.add(expand(value, repo.top, home));
  }
  // Where each leads, too: the paths judged are physical.
  for (const dir of [...dirs]) {
    try {
      dirs.add(realpathSync.native(dir));
    } catch {
      // Not made yet: judged as written.
    }
  }
  last = { key, files, dirs: [...dirs] };
  return last.dirs;
}

/** The repository `dir` is in: the top of its working tree and its config files, least local first. */
function repositoryOf(
  dir: string,
  look: (path: string) => Stats | undefined,
  read: (path: string) => string | undefined,
): { top: string; configs: string[] } | undefined {
  for (let top = dir; ; top = dirname(top)) {
    const dotGit = `${top === '/' ? '' : top}/.git`;
    const stats = look(dotGit);
    if (stats === undefined) {
      if (top === '/') return undefined;
      continue;
    }
    if (stats.isDirectory()) return { top, configs: [`${dotGit}/config`, `${dotGit}/config.worktree`] };
    // A worktree's `.git` file: `gitdir: …`, whose `commondir` leads to the shared config.
    const gitdir = /^gitdir: (.+)$/m.exec(read(dotGit) ?? '')?.[1]?.trim();
    if (gitdir === undefined) return undefined;
    const own = resolve(top, gitdir);
    const common = read(`${own}/commondir`)?.trim();
    const shared = common === undefined ? own : resolve(own, common);
    return { top, configs: [`${shared}/config`, `${own}/config.worktree`] };
  }
}

/**
 * `core.hooksPath` in a git config file's text, the last one set; undefined when not set (or set empty).
 *
 * @param text The config file's text (undefined: no file).
 * @returns The value, quotes and escapes undone.
 *
 * @example
 * ```ts
 * import { hooksPathIn } from './git_hooks_path.ts';
 *
 * hooksPathIn('[core]\n\thooksPath = .husky/_\n'); // '.husky/_'
 * ```
 */
export function hooksPathIn(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let inCore = false;
  let value: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    if (section !== null) {
      inCore = section[1]!.toLowerCase() === 'core';
      const rest = section[2]!;
      if (inCore && rest !== '') value = valueOf(rest) ?? value;
      continue;
    }
    if (inCore) value = valueOf(line) ?? value;
  }
  return value;
}

/**
 * The value of a `hooksPath = …` line as git reads it: white space at either end dropped unless
 * quoted, quotes and escapes undone, a comment cut; undefined for another key.
 */
function valueOf(line: string): string | undefined {
  const match = /^hookspath\s*=\s*(.*)$/i.exec(line);
  if (match === null) return undefined;
  let out = '';
  // Unquoted white space, kept only if more follows.
  let pending = '';
  let quoted = false;
  const text = match[1]!;
  const add = (c: string) => {
    out += pending + c;
    pending = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      add(next === 'n' ? '\n' : next === 't' ? '\t' : next);
    } else if (!quoted && (c === '#' || c === ';')) break;
    else if (!quoted && /\s/.test(c)) {
      if (out !== '') pending += c;
    } else add(c);
  }
  return out === '' ? undefined : out;
}

/** A hooks path as git takes it: `~/` from home, relative from the top of the working tree. */
function expand(value: string, top: string, home: string): string {
  if (value === '~' || value.startsWith('~/')) return resolve(home, value.slice(2));
  return isAbsolute(value) ? resolve(value) : resolve(top, value);
}

/** The file's modification time, -1 when it is missing. */
function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}
