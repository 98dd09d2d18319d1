import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { closestNames } from '../closest_names.ts';

/**
 * Which settings files a session reads: `user` (`~/.toolshed/settings.json`), `project`
 * (`<project>/.toolshed/settings.json`), `local` (`<project>/.toolshed/settings.local.json`),
 * and `claude`: Claude Code's files, read with the same schema — the user's
 * `~/.claude/settings.json` and the project's `.claude/settings.json` and `.claude/settings.local.json`.
 * A library session reads only the sources it names; the CLI reads all four by default.
 */
export type SettingSource = 'user' | 'project' | 'local' | 'claude';

/** Every setting source, in the order `--setting-sources` lists them. */
export const SETTING_SOURCES: readonly SettingSource[] = ['user', 'project', 'local', 'claude'];

/** One settings file a session would read. */
export interface SettingsFileLocation {
  source: SettingSource | 'file';
  /** Absolute path. */
  path: string;
  /** What `/x` path rules and relative `additionalDirectories` in the file are relative to. */
  root: string;
  /** A file inside the project (`.toolshed/`, `.claude/`): it only tightens until the folder is trusted. */
  inProject?: boolean;
}

/**
 * The settings files of the chosen sources, lowest precedence first: Claude Code's user file,
 * the user file, Claude Code's project files, the project file, the local file. Later files win for scalars (the mode);
 * rule lists and hooks are concatenated from all of them.
 *
 * @param sources The chosen sources (order does not matter).
 * @param options `projectDir` (the session's cwd) and `homeDir` (default os.homedir()).
 * @returns The files, whether or not they exist.
 *
 * @example
 * ```ts
 * import { settingsFileLocations } from '@toolshed/core/internal';
 *
 * settingsFileLocations(['user', 'project'], { projectDir: '/p', homeDir: '/home/u' }).map((f) => f.path);
 * // ['/home/u/.toolshed/settings.json', '/p/.toolshed/settings.json']
 * ```
 */
export function settingsFileLocations(
  sources: readonly SettingSource[],
  options: { projectDir: string; homeDir?: string | undefined },
): SettingsFileLocation[] {
  const home = options.homeDir ?? homedir();
  const project = resolve(options.projectDir);
  const out: SettingsFileLocation[] = [];
  const claudeUser = join(home, '.claude', 'settings.json');
  if (sources.includes('claude')) out.push({ source: 'claude', path: claudeUser, root: home });
  if (sources.includes('user'))
    out.push({ source: 'user', path: join(home, '.toolshed', 'settings.json'), root: home });
  // In the home folder itself, ~/.claude/settings.json and ~/.toolshed/settings.json are the user's.
  const inHome = resolve(home) === project;
  if (sources.includes('claude')) {
    if (!inHome)
      out.push({ source: 'claude', path: join(project, '.claude', 'settings.json'), root: project, inProject: true });
    out.push({
      source: 'claude',
      path: join(project, '.claude', 'settings.local.json'),
      root: project,
      inProject: true,
    });
  }
  if (sources.includes('project') && !inHome)
    out.push({ source: 'project', path: join(project, '.toolshed', 'settings.json'), root: project, inProject: true });
  if (sources.includes('local'))
    out.push({
      source: 'local',
      path: join(project, '.toolshed', 'settings.local.json'),
      root: project,
      inProject: true,
    });
  return out;
}

/**
 * Parses the value of `--setting-sources` (Claude Code's flag): names separated by commas.
 * An empty value means no settings files.
 *
 * @param text For example `user,project,local,claude`.
 * @returns The sources, without duplicates.
 * @throws {RangeError} For a name that is not a source, with the closest one suggested and
 *   the valid ones listed.
 *
 * @example
 * ```ts
 * import { parseSettingSources } from '@toolshed/core/internal';
 *
 * parseSettingSources('user, project'); // ['user', 'project']
 * parseSettingSources('projet');        // throws: … did you mean "project"? …
 * ```
 */
export function parseSettingSources(text: string): SettingSource[] {
  const out: SettingSource[] = [];
  for (const raw of text.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    if (!(SETTING_SOURCES as readonly string[]).includes(name)) {
      const near = closestNames(name, SETTING_SOURCES, { max: 1 });
      throw new RangeError(
        `Setting source "${name}" is not one of ${SETTING_SOURCES.join(', ')}${near.length ? `: did you mean "${near[0]}"?` : ''}`,
      );
    }
    if (!out.includes(name as SettingSource)) out.push(name as SettingSource);
  }
  return out;
}
