import path, { basename, dirname, resolve } from 'node:path';
import { ToolshedError } from '../errors.ts';
import type { HookMatcherGroup, HooksConfig } from '../hooks/types.ts';
import { createPermissionContext, mergePermissionContexts } from '../permissions/permission_context.ts';
import type { PermissionContext, PermissionMode, PermissionOptions } from '../permissions/types.ts';
import {
  checkFamilySetting,
  type FamilySettingsDef,
  type FamilySettingValue,
  mergeFamilySetting,
} from './family_settings.ts';
import { isProjectTrusted } from './project_trust.ts';
import { readSettingsFile } from './read_settings_file.ts';
import type { SettingsFileContent } from './settings_schema.ts';
import { type SettingSource, settingsFileLocations, type SettingsFileLocation } from './setting_sources.ts';

/** The error code of settings that cannot be used: createSession throws it. */
export const SETTINGS_INVALID = 'settings_invalid' as const;

/** Options of {@linkcode loadSettings}. */
export interface LoadSettingsOptions {
  /** The project directory (the session's cwd). */
  cwd: string;
  /** Which sources to read. @default [] (none) */
  sources?: readonly SettingSource[] | undefined;
  /** Further settings files (the CLI's `--settings FILE`), read after the sources, in order. */
  files?: readonly string[] | undefined;
  /** What `~` stands for. @default os.homedir() */
  homeDir?: string | undefined;
  /** See `PermissionContext.caseInsensitivePaths`. */
  caseInsensitivePaths?: boolean | undefined;
  /**
   * Whether the settings files inside the project (`.toolshed/`, `.claude/`) apply whole. Until
   * then they may only tighten: their deny and ask rules, `disableBypassPermissionsMode`,
   * `failClosedHooks` and a mode of `default`, `plan` or `dontAsk` apply; their allow rules,
   * `acceptEdits`/`bypassPermissions`, additional directories, hooks and `disableAllHooks`
   * are ignored, with one warning naming them. User settings and `files` are always trusted.
   * @default whether the user trusted the folder (`toolshed trust DIR`, see `isProjectTrusted`)
   */
  trustedProject?: boolean | undefined;
  /**
   * Keys families own (`lsp`), checked by their schemas and merged into `familySettings`. An
   * untrusted project's files never set them: what a family reads may start a process.
   * @default []
   */
  familySettings?: readonly FamilySettingsDef[] | undefined;
  /** Keys of families not loaded here, accepted unchecked (see `ReadSettingsFileOptions`). @default [] */
  otherFamilyKeys?: readonly string[] | undefined;
}

/** What {@linkcode loadSettings} read and merged. */
export interface LoadedSettings {
  /** Every file looked at, lowest precedence first, and whether it exists. */
  files: { source: SettingsFileLocation['source']; path: string; exists: boolean }[];
  /** The merged permissions: rules from every file (each naming its file as `source`). */
  permissions: PermissionContext;
  /** The file whose `defaultMode` won, if any did. */
  modeSource?: string;
  /** Files that set `permissions.disableBypassPermissionsMode: "disable"`. */
  bypassDisabledBy: string[];
  /** The hooks of every file, groups concatenated per event; undefined when there are none. */
  hooks: HooksConfig | undefined;
  /** The highest file that sets `disableAllHooks`, and its value. */
  disableAllHooks?: { value: boolean; source: string };
  /** The highest file that sets `failClosedHooks`, and its value. */
  failClosedHooks?: { value: boolean; source: string };
  /**
   * Set when the project's settings files were read as untrusted and something in them was
   * ignored: the folder, and what was ignored (file by file). The warning in `warnings` says it.
   */
  untrustedProject?: { dir: string; ignored: { file: string; what: string[] }[] };
  /**
   * The `env` of every file, later files winning per name: the environment the session gives
   * the processes its tools start (see `ToolContext.env`). From an untrusted project: none.
   */
  env: Record<string, string>;
  /**
   * What the files say about the servers of the project's `.mcp.json` (Claude Code's keys): the
   * highest `enableAllProjectMcpServers`, and the `enabledMcpjsonServers` /
   * `disabledMcpjsonServers` of every file. An untrusted project's files only add to `disabled`.
   */
  mcpjsonServers: { enableAll?: boolean; enabled: string[]; disabled: string[] };
  /** Whether the project's settings files applied whole (trusted, or none exist). */
  projectTrusted: boolean;
  /**
   * The families' keys, by key: the files' values merged (objects key by key, the later file
   * winning) and the files that set them. A key no file sets is absent.
   */
  familySettings: Record<string, FamilySettingValue>;
  /** Ignored on purpose (hook events Toolshed does not run, Claude Code keys Toolshed does not use). */
  warnings: string[];
  /** One sentence per problem; a session must not start with any. */
  errors: string[];
}

/**
 * Reads the settings files of the chosen sources (and any extra files) and merges them,
 * lowest to highest: `~/.toolshed/settings.json`, `.claude/settings.json`,
 * `.claude/settings.local.json` (source `claude`), `.toolshed/settings.json`,
 * `.toolshed/settings.local.json`, then `files`. The mode: the highest file's `defaultMode`;
 * rule lists, additional directories and hook groups: concatenated. Every rule keeps its file
 * as `source`, which `session.explain` reports. Problems are collected, not thrown: see
 * {@linkcode assertSettingsValid}.
 *
 * @param options The project directory, the sources, extra files and the home directory.
 * @returns The merged settings and every problem found.
 *
 * @example
 * ```ts
 * import { assertSettingsValid, loadSettings } from '@toolshed/core';
 *
 * const settings = await loadSettings({ cwd: '/p', sources: ['user', 'project', 'local'] });
 * assertSettingsValid(settings);
 * settings.permissions.rules.deny.map((r) => `${r.raw} from ${r.source}`);
 * ```
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const cwd = resolve(options.cwd);
  const placement = { homeDir: options.homeDir, caseInsensitivePaths: options.caseInsensitivePaths };
  const locations: SettingsFileLocation[] = settingsFileLocations(options.sources ?? [], {
    projectDir: cwd,
    homeDir: options.homeDir,
  });
  for (const file of options.files ?? []) {
    const path = resolve(cwd, file);
    let root = dirname(path);
    if (basename(root) === '.toolshed' || basename(root) === '.claude') root = dirname(root);
    locations.push({ source: 'file', path, root });
  }
  const readOptions = { familySettings: options.familySettings, otherFamilyKeys: options.otherFamilyKeys };
  const results = await Promise.all(
    locations.map((l) => readSettingsFile(l.path, { ...readOptions, claudeFile: l.source === 'claude' })),
  );
  const inProject = (l: SettingsFileLocation) => l.inProject === true;
  const needsTrust = locations.some((l, i) => inProject(l) && results[i]!.content !== undefined);
  const trusted =
    !needsTrust || (options.trustedProject ?? (await isProjectTrusted(cwd, { homeDir: options.homeDir })));
  const ignored: { file: string; what: string[] }[] = [];

  let permissions = createPermissionContext(undefined, cwd, { source: 'settings', ...placement }).context;
  const loaded: LoadedSettings = {
    files: [],
    permissions,
    bypassDisabledBy: [],
    hooks: undefined,
    env: {},
    mcpjsonServers: { enabled: [], disabled: [] },
    projectTrusted: trusted,
    familySettings: {},
    warnings: [],
    errors: [],
  };
  const hooks: Record<string, HookMatcherGroup[]> = {};
  locations.forEach((location, i) => {
    const result = results[i]!;
    loaded.files.push({ source: location.source, path: location.path, exists: result.exists });
    loaded.warnings.push(...result.warnings);
    loaded.errors.push(...result.errors);
    if (!result.exists && location.source === 'file') {
      loaded.errors.push(`Settings file "${location.path}" does not exist: check the path given with --settings.`);
    }
    let content = result.content;
    if (!content) return;
    let familyValues = Object.entries(result.familySettings);
    if (!trusted && inProject(location)) {
      const tightened = tightenOnly(content);
      content = tightened.content;
      // A family's settings may start processes: none from a folder the user has not trusted.
      for (const [key] of familyValues) tightened.ignored.push(`"${key}"`);
      familyValues = [];
      if (tightened.ignored.length) ignored.push({ file: location.path, what: tightened.ignored });
    }
    for (const [key, value] of familyValues) {
      const entry = (loaded.familySettings[key] ??= { value: undefined, sources: [] });
      entry.value = mergeFamilySetting(entry.value, value);
      entry.sources.push(location.path);
    }
    const perms = content.permissions ?? {};
    const layerOptions: PermissionOptions = {};
    if (perms.allow) layerOptions.allow = perms.allow;
    if (perms.deny) layerOptions.deny = perms.deny;
    if (perms.ask) layerOptions.ask = perms.ask;
    if (perms.additionalDirectories) layerOptions.additionalDirectories = perms.additionalDirectories;
    if (perms.defaultMode) layerOptions.mode = perms.defaultMode as PermissionMode;
    const layer = createPermissionContext(layerOptions, cwd, {
      source: location.path,
      ...placement,
      root: location.root,
      directoriesRelativeTo: location.root,
    });
    // readSettingsFile checked the same things; anything left is reported, never dropped.
    loaded.errors.push(...layer.errors.map((e) => `Settings file "${location.path}": ${e.message}`));
    permissions = mergePermissionContexts(permissions, {
      mode: perms.defaultMode === undefined ? undefined : layer.context.mode,
      rules: layer.context.rules,
      workingDirectories: layer.context.workingDirectories,
    });
    if (perms.defaultMode !== undefined) loaded.modeSource = location.path;
    if (perms.disableBypassPermissionsMode === 'disable') loaded.bypassDisabledBy.push(location.path);
    if (content.disableAllHooks !== undefined)
      loaded.disableAllHooks = { value: content.disableAllHooks, source: location.path };
    if (content.failClosedHooks !== undefined)
      loaded.failClosedHooks = { value: content.failClosedHooks, source: location.path };
    Object.assign(loaded.env, content.env ?? {});
    if (content.enableAllProjectMcpServers !== undefined)
      loaded.mcpjsonServers.enableAll = content.enableAllProjectMcpServers;
    loaded.mcpjsonServers.enabled.push(...(content.enabledMcpjsonServers ?? []));
    loaded.mcpjsonServers.disabled.push(...(content.disabledMcpjsonServers ?? []));
    for (const [event, groups] of Object.entries(content.hooks ?? {})) {
      (hooks[event] ??= []).push(...(groups as HookMatcherGroup[]));
    }
  });
  loaded.permissions = permissions;
  for (const def of options.familySettings ?? []) {
    const entry = loaded.familySettings[def.key];
    if (!entry || entry.sources.length < 2) continue;
    // Each file was valid on its own; what merging them made is checked too.
    const checked = checkFamilySetting(def, entry.value);
    if (checked.problems.length === 0) entry.value = checked.value;
    for (const problem of checked.problems)
      loaded.errors.push(
        `Settings files ${entry.sources.map((f) => `"${f}"`).join(', ')} together make ${problem.key} ${problem.message}. ${def.help ?? `Check the "${def.key}" settings.`}`,
      );
  }
  if (Object.keys(hooks).length > 0) loaded.hooks = hooks as HooksConfig;
  if (ignored.length > 0) {
    loaded.untrustedProject = { dir: cwd, ignored };
    loaded.warnings.push(untrustedNotice(cwd, ignored));
  }
  return loaded;
}

/** Modes that only take away: a project may set them without being trusted. */
const TIGHT_MODES: readonly string[] = ['default', 'plan', 'dontAsk'];

/** Claude Code keys that loosen: an untrusted project's are ignored, and the warning says so. */
const LOOSENING_CLAUDE_KEYS = ['env', 'enableAllProjectMcpServers', 'enabledMcpjsonServers'];

/** What an untrusted project file keeps: what can only tighten. */
function tightenOnly(content: SettingsFileContent): { content: SettingsFileContent; ignored: string[] } {
  const ignored: string[] = [];
  const perms = content.permissions ?? {};
  const kept: NonNullable<SettingsFileContent['permissions']> = {};
  if (perms.deny) kept.deny = perms.deny;
  if (perms.ask) kept.ask = perms.ask;
  if (perms.disableBypassPermissionsMode) kept.disableBypassPermissionsMode = perms.disableBypassPermissionsMode;
  if (perms.allow?.length)
    ignored.push(
      `${perms.allow.length === 1 ? 'the allow rule' : `${perms.allow.length} allow rules`} ${perms.allow.map((r) => JSON.stringify(r)).join(', ')}`,
    );
  if (perms.defaultMode !== undefined) {
    if (TIGHT_MODES.includes(perms.defaultMode)) kept.defaultMode = perms.defaultMode;
    else ignored.push(`defaultMode "${perms.defaultMode}"`);
  }
  if (perms.additionalDirectories?.length)
    ignored.push(`additionalDirectories ${perms.additionalDirectories.map((d) => JSON.stringify(d)).join(', ')}`);
  const out: SettingsFileContent = { permissions: kept };
  if (content.failClosedHooks === true) out.failClosedHooks = true;
  if (content.disabledMcpjsonServers) out.disabledMcpjsonServers = content.disabledMcpjsonServers;
  const events = Object.keys(content.hooks ?? {});
  if (events.length) ignored.push(`hooks (${events.join(', ')})`);
  if (content.disableAllHooks === true) ignored.push('disableAllHooks');
  for (const key of LOOSENING_CLAUDE_KEYS)
    if ((content as Record<string, unknown>)[key] !== undefined) ignored.push(key);
  return { content: out, ignored };
}

function untrustedNotice(dir: string, ignored: { file: string; what: string[] }[]): string {
  const parts = ignored.map((i) => `from ${path.relative(dir, i.file) || i.file}: ${i.what.join('; ')}`);
  return (
    `The project folder "${dir}" is not trusted, so its settings files may only tighten permissions: ignored ${parts.join('; ')}. ` +
    `Its deny and ask rules apply. If you trust this folder's settings, run "toolshed trust ${dir}" (a library caller passes trustedProject: true to createSession).`
  );
}

/**
 * Throws when loaded settings have problems, so that a bad file never silently loosens
 * anything.
 *
 * @param settings What {@linkcode loadSettings} returned.
 * @throws {ToolshedError} `settings_invalid`, with every problem, one per line.
 *
 * @example
 * ```ts
 * import { assertSettingsValid, loadSettings } from '@toolshed/core';
 * const cwd = process.cwd();
 *
 * assertSettingsValid(await loadSettings({ cwd, sources: ['project'] }));
 * ```
 */
export function assertSettingsValid(settings: Pick<LoadedSettings, 'errors'>): void {
  if (settings.errors.length === 0) return;
  const count = settings.errors.length === 1 ? 'a problem' : `${settings.errors.length} problems`;
  throw new ToolshedError(
    SETTINGS_INVALID,
    `The settings have ${count}; nothing was started:\n${settings.errors.map((e) => `- ${e}`).join('\n')}`,
    {
      cause: settings.errors,
    },
  );
}
