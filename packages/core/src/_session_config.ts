import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { INHERITED_FROM_PARENT } from './child_session.ts';
import type { SavedResults } from './results/saved_results.ts';
import { ToolshedError } from './errors.ts';
import type { Family } from './family.ts';
import { failClosedHooks } from './hooks/fail_closed_hooks.ts';
import { mergeHooks } from './hooks/merge_hooks.ts';
import type { HooksConfig } from './hooks/types.ts';
import { createPermissionContext, mergePermissionContexts } from './permissions/permission_context.ts';
import type { PermissionContext } from './permissions/types.ts';
import { pinPermissionRoots } from './permissions/_pin_roots.ts';
import { checkKeepResults } from './results/result_cleanup.ts';
import type { SessionOptions } from './session_types.ts';
import type { FamilySettingsDef } from './settings/family_settings.ts';
import { assertSettingsValid, type LoadedSettings, loadSettings, SETTINGS_INVALID } from './settings/load_settings.ts';
import { isProjectTrusted } from './settings/project_trust.ts';
import { prepareStateDir, type StateDirPlace } from './state_dir.ts';

/** What a parent hands a child session (see `child_session.ts`); not part of the public options. */
export interface Inherited {
  permissions: PermissionContext;
  hooks: HooksConfig | undefined;
  /** The parent's settings `env` and family settings: a child reads no settings files itself. */
  env: Record<string, string>;
  familySettings: LoadedSettings['familySettings'];
  /** Whether the parent's project folder is trusted. */
  projectTrusted: boolean;
  /**
   * The parent's saved results, shared: each reads what the other saved, and the parent's
   * close() removes them all (a child's stay readable until then).
   */
  savedResults: SavedResults;
}

/** What a session is made with, once its options, settings files and permissions are read and checked. */
export interface SessionConfig {
  id: string;
  cwd: string;
  stateDir: string;
  /** The per-user place the session made for itself; undefined when the caller gave `stateDir`. */
  place: StateDirPlace | undefined;
  keepResults: ReturnType<typeof checkKeepResults>;
  /** The parent's saved results, for a child session (see {@linkcode Inherited.savedResults}). */
  savedResults: SavedResults | undefined;
  settings: LoadedSettings;
  permissions: PermissionContext;
  hooks: HooksConfig | undefined;
  /**
   * Whether the user trusts the project folder itself (`trustedProject`, else the trust list),
   * whether or not it has settings files: what `ToolContext.projectTrusted` says.
   */
  projectTrusted: boolean;
}

/**
 * Reads and checks what a session is made with: the working directory, the state folder, the
 * settings files (or a parent's, for a child), the permission context (settings under options)
 * and the hooks.
 *
 * @param options The session's options.
 * @returns The checked configuration.
 * @throws {TypeError} Without a cwd, or when two families own one settings key.
 * @throws {ToolshedError} `settings_invalid`, `permission_rule_invalid`, `permission_options_invalid`.
 *
 * @example
 * ```ts
 * import { resolveSessionConfig } from './_session_config.ts';
 *
 * const config = await resolveSessionConfig({ cwd: process.cwd(), permissions: { allow: ['Read'] } });
 * console.log(config.permissions.rules.allow.length); // 1
 * ```
 */
export async function resolveSessionConfig(options: SessionOptions): Promise<SessionConfig> {
  if (!options || typeof options.cwd !== 'string' || options.cwd.length === 0) {
    throw new TypeError(`createSession needs a cwd (a directory path), got ${JSON.stringify(options?.cwd)}`);
  }
  const cwd = path.resolve(options.cwd);
  const id = options.sessionId ?? randomUUID();
  const keepResults = checkKeepResults(options.keepResults ?? false);
  // The default place is per user and private (state_dir.ts); a stateDir given is the caller's.
  const place =
    options.stateDir === undefined ? await prepareStateDir({ sessionId: id, homeDir: options.homeDir }) : undefined;
  const stateDir = place?.dir ?? path.resolve(options.stateDir!);
  const inherited = (options as SessionOptions & { [INHERITED_FROM_PARENT]?: Inherited })[INHERITED_FROM_PARENT];
  const settings = await loadSettings({
    cwd,
    sources: options.settingsSources,
    files: options.settingsFiles,
    homeDir: options.homeDir,
    caseInsensitivePaths: options.caseInsensitivePaths,
    trustedProject: options.trustedProject,
    familySettings: familySettingsOf(options.families ?? []),
    otherFamilyKeys: options.otherFamilyKeys,
  });
  assertSettingsValid(settings);
  if (inherited) {
    settings.env = inherited.env;
    settings.familySettings = inherited.familySettings;
  }
  const permissions = inherited?.permissions ?? permissionsOf(options, cwd, settings);
  // A child in another folder anchors the parent's ./ rules there: pinned now, as a parent's are
  // when its permissions are made, before the child's first call can swap one for a link.
  if (inherited) pinPermissionRoots(permissions, cwd);
  if (permissions.mode === 'bypassPermissions' && settings.bypassDisabledBy.length > 0) {
    throw new ToolshedError(
      SETTINGS_INVALID,
      `The permission mode is bypassPermissions, but ${settings.bypassDisabledBy.map((f) => `"${f}"`).join(' and ')} set permissions.disableBypassPermissionsMode to "disable": choose another mode, or remove that key`,
    );
  }
  const merged = mergeHooks(settings.disableAllHooks?.value === true ? undefined : settings.hooks, options.hooks);
  const hooks = inherited
    ? inherited.hooks
    : settings.failClosedHooks?.value === true
      ? failClosedHooks(merged)
      : merged;
  const projectTrusted =
    inherited?.projectTrusted ?? options.trustedProject ?? (await isProjectTrusted(cwd, { homeDir: options.homeDir }));
  const savedResults = inherited?.savedResults;
  return { id, cwd, stateDir, place, keepResults, savedResults, settings, permissions, hooks, projectTrusted };
}

/** The settings files' permissions with the `permissions` option over them. */
function permissionsOf(options: SessionOptions, cwd: string, settings: LoadedSettings): PermissionContext {
  const fromOptions = createPermissionContext(options.permissions, cwd, {
    source: options.permissionsSource ?? 'options',
    homeDir: options.homeDir,
    caseInsensitivePaths: options.caseInsensitivePaths,
  });
  const errors = fromOptions.errors;
  if (errors.length) {
    throw new ToolshedError(errors[0]!.code, errors.map((e) => e.message).join('\n'), { cause: errors });
  }
  return mergePermissionContexts(settings.permissions, {
    mode: options.permissions?.mode === undefined ? undefined : fromOptions.context.mode,
    rules: fromOptions.context.rules,
    workingDirectories: fromOptions.context.workingDirectories,
  });
}

/** The settings keys of the families, each once: two families cannot own one key. */
function familySettingsOf(families: readonly Family[]): FamilySettingsDef[] {
  const byKey = new Map<string, { def: FamilySettingsDef; family: string }>();
  for (const family of families) {
    if (!family.settings) continue;
    const other = byKey.get(family.settings.key);
    if (other && other.family !== family.name) {
      throw new TypeError(
        `Families "${other.family}" and "${family.name}" both own the settings key "${family.settings.key}": give one family another key.`,
      );
    }
    byKey.set(family.settings.key, { def: family.settings, family: family.name });
  }
  return [...byKey.values()].map((v) => v.def);
}
