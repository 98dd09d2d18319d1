import type { Family } from '@toolshed/core';

/** The built-in families that could be built, and why the others could not. */
export interface BuiltinFamilies {
  families: Family[];
  /** One line per family that failed to import or build. */
  problems: string[];
}

// Every family package of the repository, imported on demand so that one broken package costs
// only its own family: the suite counts whatever the families export at the time it runs.
const LOADERS: Record<string, () => Promise<Family>> = {
  fs: async () => (await import('@toolshed/tool-fs')).fileTools(),
  shell: async () => (await import('@toolshed/tool-shell')).shellTools(),
  web: async () => (await import('@toolshed/tool-web')).webTools(),
  agent: async () => (await import('@toolshed/tool-agent')).agentTools(),
};

/**
 * Imports the built-in family packages (fs, shell, web, agent) and calls each factory with its
 * defaults.
 *
 * @returns The families that loaded, and a line for each that did not.
 *
 * @example
 * ```ts
 * const { families, problems } = await loadBuiltinFamilies();
 * ```
 */
export async function loadBuiltinFamilies(): Promise<BuiltinFamilies> {
  const out: BuiltinFamilies = { families: [], problems: [] };
  for (const [name, load] of Object.entries(LOADERS)) {
    try {
      out.families.push(await load());
    } catch (e) {
      out.problems.push(`family "${name}" could not be built: ${(e as Error).message}`);
    }
  }
  return out;
}
