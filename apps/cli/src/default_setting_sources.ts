import type { SettingSource } from '@toolshed/core';

/**
 * The sources `--setting-sources` defaults to: Toolshed's files and Claude Code's
 * (`~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`, and the
 * project's `.mcp.json`), so that a Claude Code project works unchanged.
 *
 * @example
 * ```ts
 * import { DEFAULT_SETTING_SOURCES } from '@toolshed/cli';
 * console.log(DEFAULT_SETTING_SOURCES.join(',')); // user,project,local,claude
 * ```
 */
export const DEFAULT_SETTING_SOURCES: readonly SettingSource[] = ['user', 'project', 'local', 'claude'];
