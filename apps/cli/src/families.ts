import type { Family } from '@toolshed/core';
import { UsageError } from './usage_error.ts';

/** The family names `--only` accepts, in the order they are loaded. */
export const FAMILY_NAMES = ['fs', 'shell', 'web', 'agent', 'search', 'lsp', 'mcp'] as const;

/** One of {@linkcode FAMILY_NAMES}. */
export type FamilyName = (typeof FAMILY_NAMES)[number];

/**
 * The settings keys the CLI's families own (`FamilyDef.settings`), known without importing
 * them: a settings file that sets one loads even when `--only` leaves its family out.
 *
 * @example
 * ```ts
 * import { FAMILY_SETTINGS_KEYS } from './families.ts';
 * console.log(FAMILY_SETTINGS_KEYS); // ['lsp']
 * ```
 */
export const FAMILY_SETTINGS_KEYS: readonly string[] = ['lsp'];

/**
 * The keys of {@linkcode FAMILY_SETTINGS_KEYS} that none of `families` owns: what a session of
 * those families accepts unchecked (`SessionOptions.otherFamilyKeys`).
 *
 * @param families The families loaded.
 * @returns The other families' keys.
 *
 * @example
 * ```ts
 * import { otherFamilyKeys } from './families.ts';
 * otherFamilyKeys([]); // ['lsp']
 * ```
 */
export function otherFamilyKeys(families: readonly Family[]): string[] {
  return FAMILY_SETTINGS_KEYS.filter((key) => !families.some((f) => f.settings?.key === key));
}

/** Options of {@linkcode loadFamilies}. */
export interface LoadFamiliesOptions {
  /** The parsed `--mcp-config` file, passed to `mcpServers`. @default {} */
  mcpConfig?: Record<string, unknown>;
  /** The `--mcp-config` path as given, named when the bridge rejects the configuration. */
  mcpConfigFile?: string;
  /** What `${VAR}` in `mcpConfig` expands from. @default process.env */
  mcpEnv?: Record<string, string | undefined>;
  /** The user's home (the CLI's `HOME`): where the agent family reads `~/.claude/agents`. @default os.homedir() */
  homeDir?: string;
}

// Imported on demand: `--only fs` does not load the other packages, and a package that is
// missing or broken costs only its own family (a warning), never the whole CLI.
const LOADERS: Record<FamilyName, (options: LoadFamiliesOptions) => Promise<Family>> = {
  fs: async () => (await import('@toolshed/tool-fs')).fileTools(),
  shell: async () => (await import('@toolshed/tool-shell')).shellTools(),
  web: async () => (await import('@toolshed/tool-web')).webTools(),
  agent: async ({ homeDir }) => (await import('@toolshed/tool-agent')).agentTools(homeDir ? { homeDir } : {}),
  search: async () => (await import('@toolshed/toolsearch')).toolSearch(),
  lsp: async () => (await import('@toolshed/tool-lsp')).lspTools(),
  mcp: async ({ mcpConfig, mcpConfigFile, mcpEnv }) => {
    const { mcpServers } = await import('@toolshed/mcp-bridge');
    try {
      // The bridge checks the shape itself (and says which server and key are wrong).
      // Servers start with the whole environment, as Claude Code starts them.
      return mcpServers((mcpConfig ?? {}) as Parameters<typeof mcpServers>[0], {
        ...(mcpEnv ? { env: mcpEnv } : {}),
        inheritEnv: true,
      });
    } catch (e) {
      if (mcpConfigFile === undefined || !(e instanceof TypeError)) throw e;
      throw new UsageError(`The --mcp-config file "${mcpConfigFile}" is not a valid MCP configuration: ${e.message}`, {
        showUsage: false,
      });
    }
  },
};

/**
 * Reads the values of `--only` (each may be a comma-separated list) into family names.
 *
 * @param values Every `--only` value given; empty means all families.
 * @returns The names, without duplicates, in {@linkcode FAMILY_NAMES} order.
 * @throws {UsageError} For a name that is not a family, listing the valid ones.
 *
 * @example
 * ```ts
 * import { parseFamilyList } from '@toolshed/cli';
 *
 * parseFamilyList(['fs,shell', 'web']); // ['fs', 'shell', 'web']
 * parseFamilyList([]);                  // every family
 * ```
 */
export function parseFamilyList(values: readonly string[]): FamilyName[] {
  if (values.length === 0) return [...FAMILY_NAMES];
  const wanted = new Set<string>();
  for (const value of values) {
    for (const part of value.split(',')) {
      const name = part.trim();
      if (name === '') continue;
      if (!(FAMILY_NAMES as readonly string[]).includes(name)) {
        throw new UsageError(
          `Unknown family "${name}" in --only. Valid families: ${FAMILY_NAMES.join(', ')} (for example --only fs,shell).`,
        );
      }
      wanted.add(name);
    }
  }
  if (wanted.size === 0)
    throw new UsageError(
      `--only names no family. Valid families: ${FAMILY_NAMES.join(', ')} (for example --only fs,shell).`,
    );
  return FAMILY_NAMES.filter((name) => wanted.has(name));
}

/**
 * Builds the families for a session: imports each selected family package and calls its factory.
 * A package that fails to import or to build its family is skipped with a warning: one broken
 * family must not take the others down.
 *
 * @param names The families to load, from {@linkcode parseFamilyList}.
 * @param options The MCP configuration.
 * @returns The families that loaded, and one warning per family that did not.
 * @throws {UsageError} When the MCP bridge rejects the `--mcp-config` configuration.
 *
 * @example
 * ```ts
 * import { loadFamilies } from '@toolshed/cli';
 * import { createSession } from '@toolshed/core';
 * declare const cwd: string;
 *
 * const { families, warnings } = await loadFamilies(['fs', 'shell']);
 * const session = await createSession({ cwd, families });
 * ```
 */
export async function loadFamilies(
  names: readonly FamilyName[],
  options: LoadFamiliesOptions = {},
): Promise<{ families: Family[]; warnings: string[] }> {
  const { describeError } = await import('@toolshed/core/internal');
  const settled = await Promise.allSettled(names.map((name) => LOADERS[name](options)));
  const families: Family[] = [];
  const warnings: string[] = [];
  for (const outcome of settled)
    if (outcome.status === 'rejected' && outcome.reason instanceof UsageError) throw outcome.reason;
  settled.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') families.push(outcome.value);
    else
      warnings.push(
        `The "${names[i]}" family could not be loaded (${describeError(outcome.reason)}); continuing without it. Leave it out with --only to silence this.`,
      );
  });
  return { families, warnings };
}
