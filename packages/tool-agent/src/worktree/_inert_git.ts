import { gitProgramSettings } from '@toolshed/core/internal';

/**
 * The `-c` settings that keep git from running a repository's own programs in `folder`: no hooks
 * (`core.hooksPath` pointed at nothing: post-checkout, reference-transaction), no
 * `core.fsmonitor`, and every program setting its config (or a config it includes) names turned
 * off by an empty value — a smudge or clean filter, a diff driver — with a filter no longer
 * `required`. For a project the user has not trusted: an archive's `.git` may carry any of them.
 *
 * @param folder The folder git runs in.
 * @returns The arguments to put before git's command, or `problem` when a config file could not
 *   be read (what it names is unknown, so git is not run).
 *
 * @example
 * ```ts
 * import { inertGitArgs } from './_inert_git.ts';
 *
 * const inert = inertGitArgs('/downloads/project');
 * if ('args' in inert) console.log(['git', ...inert.args, 'status'].join(' '));
 * ```
 */
export function inertGitArgs(folder: string): { args: string[] } | { problem: string } {
  const { found, unreadable } = gitProgramSettings(folder);
  if (unreadable.length > 0)
    return {
      problem: `git was not run in ${folder}: the repository's config could not be read (${unreadable.join('; ')}), so the programs it may make git run are unknown in a project that is not trusted. Trust the folder, or fix the file.`,
    };
  const settings = new Set(['core.hooksPath=/dev/null', 'core.fsmonitor=']);
  for (const { key } of found) {
    settings.add(`${key}=`);
    const filter = /^filter\.(.+)\.(clean|smudge|process)$/s.exec(key);
    if (filter) settings.add(`filter.${filter[1]}.required=false`);
  }
  return { args: [...settings].flatMap((s) => ['-c', s]) };
}
