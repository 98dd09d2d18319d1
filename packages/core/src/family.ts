import type { AnyTool, ToolDef } from './tool.ts';
import type { Services } from './services.ts';
import type { PermissionContext } from './permissions/types.ts';
import type { FamilySettingsDef } from './settings/family_settings.ts';
import { CLAUDE_CODE_SETTINGS_KEYS, TOOLSHED_SETTINGS_KEYS } from './settings/settings_schema.ts';

/** What a lazy family tells ToolSearch about a tool before its code is imported. */
export interface ToolManifestEntry {
  name: string;
  /** One line. */
  description: string;
  searchHint?: string;
  /** @default true: a lazy family's tools are deferred unless they say otherwise. */
  shouldDefer?: boolean;
  /** The tool's feature flag, as {@linkcode ToolDef.feature}. */
  feature?: string;
  alwaysLoad?: boolean;
  isMcp?: boolean;
}

/**
 * The session's view of deferral: given every entry, which names are deferred.
 * The toolsearch family installs one; without a policy nothing is deferred.
 */
export type DeferralPolicy = (entries: readonly DeferralCandidate[]) => ReadonlySet<string>;

/** What a {@linkcode DeferralPolicy} sees of each tool. */
export interface DeferralCandidate {
  name: string;
  family: string;
  shouldDefer: boolean;
  alwaysLoad: boolean;
  isMcp: boolean;
  /** Characters of the tool's definition (name, description, JSON Schema); 0 if not loaded. */
  definitionChars: number;
}

/** What a family's `setup` gets: the session's hooks for plugins. */
export interface FamilySetupApi {
  readonly sessionId: string;
  readonly cwd: string;
  readonly stateDir: string;
  readonly services: Services;
  /**
   * The session's permission rules and mode, for a family that can avoid work a rule makes
   * pointless (the MCP bridge skips a server that `deny: ['mcp__server']` removes).
   */
  readonly permissions: PermissionContext;
  /** Installs the session's deferral policy (the toolsearch family does). */
  setDeferralPolicy(policy: DeferralPolicy): void;
  /** Re-runs this family's loader and rebuilds the pool (an MCP server's list changed). */
  refreshTools(): Promise<void>;
  /**
   * Sets (or, with `undefined`, removes) how to use the tools whose names start with `prefix`
   * (an MCP server's `instructions`, for `mcp__github__`): shown under their names in
   * `session.deferredNotice()` while any of them is deferred.
   */
  setInstructions(prefix: string, text: string | undefined): void;
  /** Reports something the user should see (a server that failed to start). */
  emit(event: { type: 'notice'; level: 'info' | 'warn' | 'error'; message: string }): void;
  /** Registers cleanup for `session.close()`. */
  onClose(cleanup: () => void | Promise<void>): void;
  /**
   * The family's own settings key (`FamilyDef.settings`) as the settings files set it, merged
   * and checked by its schema; undefined when no file sets it (or the family declares none).
   * Files of a project the user has not trusted never contribute.
   */
  readonly settings: unknown;
}

/** What {@linkcode defineFamily} takes. */
export interface FamilyDef {
  /** A short name: `fs`, `shell`, `mcp`. */
  name: string;
  /** The package version. */
  version: string;
  /** The tools, or a loader that imports them on first use. */
  tools?: readonly AnyTool[] | (() => Promise<readonly AnyTool[]>);
  /** A loader that imports the tools on first use (same as a function `tools`). */
  load?: () => Promise<readonly AnyTool[]>;
  /** Names, hints and one-line descriptions, so ToolSearch works before `load` runs. */
  manifest?: readonly ToolManifestEntry[];
  /** Tools from outside (MCP): merged last, a built-in tool wins a name clash. @default false */
  external?: boolean;
  /** Runs once per session, before the pool is assembled. */
  setup?: (api: FamilySetupApi) => void | Promise<void>;
  /**
   * A top-level settings key the family owns, with the schema that checks it: a session that
   * reads settings files checks every file's value and hands `setup` the merged one as
   * `api.settings`.
   */
  settings?: FamilySettingsDef;
}

/** A family: what a plugin package's factory returns. */
export interface Family {
  readonly name: string;
  readonly version: string;
  readonly external: boolean;
  readonly manifest: readonly ToolManifestEntry[] | undefined;
  /** Set for a family given as a list: its tools, available without loading. */
  readonly tools: readonly AnyTool[] | undefined;
  /** Imports (once) and returns the tools. */
  loadTools(): Promise<readonly AnyTool[]>;
  readonly setup: FamilyDef['setup'];
  readonly settings: FamilySettingsDef | undefined;
}

/**
 * Defines a family of tools: what a plugin package's factory returns.
 *
 * A family is eager (`tools: [...]`) or lazy (`load: () => import('./tools.ts')...` with a
 * `manifest`): a lazy family's code is not imported until a tool of it is needed.
 *
 * @param def The family's name, version and tools.
 * @returns The family, for `createSession({ families })`.
 * @throws {TypeError} If it has neither tools nor a loader, or a lazy family has no manifest.
 *
 * @example
 * ```ts
 * import { type Family, defineFamily } from '@toolshed/core';
 * import { echoTool } from './_test_tools.ts';
 *
 * export function echoTools(): Family {
 *   return defineFamily({ name: 'echo', version: '1.0.0', tools: [echoTool] });
 * }
 * const lazy = defineFamily({
 *   name: 'heavy', version: '1.0.0',
 *   load: async () => [(await import('@toolshed/tool-web')).webFetchTool],
 *   manifest: [{ name: 'Heavy', description: 'Does heavy things.' }],
 * });
 * ```
 */
export function defineFamily(def: FamilyDef): Family {
  if (!def || typeof def.name !== 'string' || def.name.length === 0) {
    throw new TypeError(`A family needs a name, got ${JSON.stringify(def?.name)}`);
  }
  const loader = typeof def.tools === 'function' ? def.tools : def.load;
  const eager = Array.isArray(def.tools) ? (def.tools as readonly AnyTool[]) : undefined;
  if (!eager && !loader) throw new TypeError(`Family "${def.name}" has neither tools nor a load function`);
  if (!eager && !def.external && !def.manifest) {
    throw new TypeError(`Lazy family "${def.name}" needs a manifest so its tools can be found before loading`);
  }
  const key = def.settings?.key;
  if (def.settings && (typeof key !== 'string' || !/^[A-Za-z][A-Za-z0-9_-]*$/.test(key)))
    throw new TypeError(`Family "${def.name}": settings.key must be a word such as "lsp", got ${JSON.stringify(key)}`);
  if (key !== undefined && (TOOLSHED_SETTINGS_KEYS.includes(key) || CLAUDE_CODE_SETTINGS_KEYS.includes(key)))
    throw new TypeError(
      `Family "${def.name}": settings.key "${key}" is one of Toolshed's or Claude Code's own settings keys; choose another (the family's name, say).`,
    );
  let loading: Promise<readonly AnyTool[]> | undefined;
  return {
    name: def.name,
    version: def.version,
    external: def.external ?? false,
    manifest: def.manifest,
    tools: eager,
    setup: def.setup,
    settings: def.settings,
    loadTools() {
      if (eager) return Promise.resolve(eager);
      // External families (MCP) are re-listed on every call: their tool list may change.
      if (def.external) return loader!();
      loading ??= loader!().catch((e: unknown) => {
        loading = undefined; // a failed import may succeed later (a missing optional dependency installed)
        throw e;
      });
      return loading;
    },
  };
}
