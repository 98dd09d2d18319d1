/**
 * The settings a git config may hold and still run nothing: what `git init`, `git clone` and
 * `git remote add` write. Any other key (aliases, `core.fsmonitor`, `core.pager`, `core.hooksPath`,
 * `core.sshCommand`, `core.worktree`, filters, credential helpers, includes, `submodule.*.update`…)
 * may make a later git command run a program or act elsewhere, and is not judged key by key.
 */
const INERT: Readonly<Record<string, { sub: boolean; keys: readonly string[] }>> = {
  core: {
    sub: false,
    keys: [
      'repositoryformatversion',
      'filemode',
      'bare',
      'logallrefupdates',
      'ignorecase',
      'precomposeunicode',
      'symlinks',
    ],
  },
  extensions: { sub: false, keys: ['objectformat'] },
  init: { sub: false, keys: ['defaultbranch'] },
  user: { sub: false, keys: ['name', 'email'] },
  remote: { sub: true, keys: ['url', 'pushurl', 'fetch'] },
  branch: { sub: true, keys: ['remote', 'merge'] },
  submodule: { sub: true, keys: ['url', 'active'] },
};

/**
 * Whether a git config file's text holds only settings that run nothing (see `INERT` above):
 * a config a sandboxed command made in a new repository may stay then. A line this strict reader
 * does not understand (a continued value, an old-style `[section.sub]` header) makes it not inert,
 * and so does a remote's address through a transport that runs a command (`ext::`, `fd::`).
 *
 * @param text The file's text.
 * @returns True when every setting is one `git init`, `git clone` or `git remote add` writes.
 *
 * @example
 * ```ts
 * import { isInertGitConfig } from './_inert_git_config.ts';
 *
 * isInertGitConfig('[core]\n\tbare = false\n[remote "origin"]\n\turl = https://example.com/x.git\n'); // true
 * isInertGitConfig('[alias]\n\tst = !touch /tmp/x\n'); // false
 * ```
 */
export function isInertGitConfig(text: string): boolean {
  let section: { sub: boolean; keys: readonly string[] } | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([A-Za-z0-9-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\]$/.exec(line);
    if (header !== null) {
      const name = header[1]!.toLowerCase();
      const known = Object.hasOwn(INERT, name) ? INERT[name] : undefined;
      section = known !== undefined && known.sub === (header[2] !== undefined) ? known : undefined;
      if (section === undefined) return false;
      continue;
    }
    const setting = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*([^\\]*)$/.exec(line);
    if (setting === null || section === undefined) return false;
    if (!section.keys.includes(setting[1]!.toLowerCase())) return false;
    // git drops every double quote of a value, not only the outer ones: `e"xt::…"` is `ext::…`.
    // Any key is checked: `branch.<name>.remote` may be an address as much as `remote.<name>.url` is.
    const value = setting[2]!.replaceAll('"', '').trim();
    if (/^(ext|fd)::/i.test(value)) return false;
  }
  return true;
}
