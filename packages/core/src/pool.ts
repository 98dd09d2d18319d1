import type { AnyTool, CatalogEntry, ToolDefinition } from './tool.ts';
import type { DeferralPolicy, Family, ToolManifestEntry } from './family.ts';
import type { PermissionContext } from './permissions/types.ts';
import { toolInputJsonSchema } from './json_schema.ts';
import { ruleMatchesTool } from './permissions/rule_matching.ts';
import { describeError } from './describe_error.ts';

/** One tool in the pool: loaded (`tool`) or known only from a lazy family's manifest. */
interface PoolEntry {
  name: string;
  family: Family;
  external: boolean;
  tool: AnyTool | undefined;
  manifest: ToolManifestEntry | undefined;
  definition: ToolDefinition | undefined;
}

/** What the session tells the pool about itself. */
export interface PoolOptions {
  families: readonly Family[];
  permissions: PermissionContext;
  cwd: string;
  /** Reports clashes and load failures. */
  notice: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Feature flags: stage 1 keeps a tool with a `feature` only when its flag is true. @default {} */
  features?: Readonly<Record<string, boolean>>;
}

/**
 * The session's registry of tools, assembled in the three stages of docs/architecture.md: (1) every
 * tool of the built-in families; (2) without disabled tools and tools a blanket deny rule
 * names; (3) external (MCP) tools merged in, a built-in winning a name clash; sorted by name
 * so the request prefix stays byte-stable for prompt caching.
 *
 * Lazy families stay unimported until one of their tools is needed: called, loaded by
 * ToolSearch, or not deferred.
 *
 * @example
 * ```ts
 * import { type Family } from '@toolshed/core';
 * import { createPermissionContext } from '@toolshed/core/internal';
 * declare function fileTools(): Family; // a tool family (tool-fs's fileTools)
 * import { ToolPool } from './pool.ts';
 * const cwd = process.cwd();
 * const { context: permissions } = createPermissionContext({ allow: ['Read'] }, cwd);
 *
 * const pool = new ToolPool({ families: [fileTools()], permissions, cwd, notice: console.warn });
 * await pool.assemble();
 * pool.find('Read')?.tool;
 * ```
 */
export class ToolPool {
  #options: PoolOptions;
  #entries: PoolEntry[] = [];
  #byName = new Map<string, PoolEntry>();
  #deferred = new Set<string>();
  #loaded = new Set<string>();
  #policy: DeferralPolicy | undefined;
  #version = 0;
  #catalogVersion = 0;

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  /** Changes whenever the set of tools or what is deferred changes; request caches key on it. */
  get version(): number {
    return this.#version;
  }

  /** Changes whenever the tools, what is deferred or a tool's code changes, but not when a deferred tool is loaded (see `ToolCatalog.version`). */
  get catalogVersion(): number {
    return this.#catalogVersion;
  }

  /** Installs a deferral policy; takes effect at the next {@linkcode assemble}. */
  setDeferralPolicy(policy: DeferralPolicy): void {
    this.#policy = policy;
  }

  /** Builds (or rebuilds) the pool from the families. */
  async assemble(): Promise<void> {
    const { families, notice } = this.#options;
    const builtIn: PoolEntry[] = [];
    const external: PoolEntry[] = [];
    for (const family of families) {
      const target = family.external ? external : builtIn;
      if (family.tools) {
        for (const tool of family.tools) target.push(entryOf(family, tool));
      } else if (family.external) {
        try {
          for (const tool of await family.loadTools()) target.push(entryOf(family, tool));
        } catch (e) {
          notice('error', `Tools of "${family.name}" could not be listed: ${(e as Error).message}`);
        }
      } else {
        for (const manifest of family.manifest ?? []) {
          target.push({
            name: manifest.name,
            family,
            external: false,
            tool: undefined,
            manifest,
            definition: undefined,
          });
        }
      }
    }
    // Stage 1: feature flags.
    const flags = this.#options.features ?? {};
    const flagged = (e: PoolEntry) => {
      const feature = e.tool?.feature ?? e.manifest?.feature;
      return feature === undefined || flags[feature] === true;
    };
    const byName = new Map<string, PoolEntry>();
    for (const entry of builtIn.filter((e) => flagged(e) && this.#keeps(e))) {
      const clash = byName.get(entry.name);
      // Two families may list the same shared tool (core's TaskOutput): one entry, no warning.
      if (clash && clash.tool !== undefined && clash.tool === entry.tool) continue;
      if (clash) {
        notice(
          'warn',
          `Tool "${entry.name}" of family "${entry.family.name}" is ignored: family "${clash.family.name}" already has a tool of that name`,
        );
        continue;
      }
      byName.set(entry.name, entry);
    }
    for (const entry of external.filter((e) => flagged(e) && this.#keeps(e))) {
      const clash = byName.get(entry.name);
      if (clash) {
        notice(
          'warn',
          `Tool "${entry.name}" from "${entry.family.name}" is ignored: the built-in tool of that name wins`,
        );
        continue;
      }
      byName.set(entry.name, entry);
    }
    this.#entries = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.#byName = new Map();
    for (const entry of this.#entries) {
      this.#byName.set(entry.name, entry);
      for (const alias of entry.tool?.aliases ?? []) if (!byName.has(alias)) this.#byName.set(alias, entry);
    }
    await this.#applyDeferral();
    this.#version++;
    this.#catalogVersion++;
  }

  /** Stage 2: enabled, and not removed by a blanket deny rule (`deny: ['WebFetch']`). */
  #keeps(entry: PoolEntry): boolean {
    if (entry.tool) {
      try {
        if (!entry.tool.isEnabled()) return false;
      } catch (e) {
        this.#options.notice('warn', `Tool "${entry.name}" is left out: its isEnabled() threw ${(e as Error).message}`);
        return false;
      }
    }
    const probe = { name: entry.name, aliases: entry.tool?.aliases ?? [] };
    return !this.#options.permissions.rules.deny.some(
      (rule) => rule.ruleContent === undefined && ruleMatchesTool(rule, probe),
    );
  }

  async #applyDeferral(): Promise<void> {
    const policy = this.#policy;
    const candidates = this.#entries.map((e) => ({
      name: e.name,
      family: e.family.name,
      shouldDefer: e.tool?.shouldDefer ?? e.manifest?.shouldDefer ?? true,
      alwaysLoad: e.tool?.alwaysLoad ?? e.manifest?.alwaysLoad ?? false,
      isMcp: e.tool?.isMcp ?? e.manifest?.isMcp ?? false,
      definitionChars: e.tool ? definitionChars(e.tool, e.tool.description) : 0,
    }));
    let deferred: Iterable<string> = [];
    try {
      deferred = policy ? policy(candidates) : [];
    } catch (e) {
      this.#options.notice('error', `The deferral policy failed, so no tool is deferred: ${describeError(e)}`);
    }
    this.#deferred = new Set(deferred);
    // A lazy family with a tool the model must see now is imported now.
    const needed = new Set(this.#entries.filter((e) => !e.tool && this.isVisible(e.name)).map((e) => e.family));
    for (const family of needed) await this.#loadFamily(family);
    // Every loaded tool gets its definition now (deferred ones too): `toolsFor` is synchronous,
    // and a request with `defer_loading` carries the deferred tools' full definitions.
    // A tool whose definition cannot be built (its description() throws, its schema has no
    // JSON Schema form) is left out with a notice; one broken tool must not stop the session.
    const broken = new Set<PoolEntry>();
    for (const entry of this.#entries) {
      if (!entry.tool) continue;
      try {
        await this.#define(entry);
      } catch (e) {
        broken.add(entry);
        this.#options.notice(
          'error',
          `Tool "${entry.name}" of family "${entry.family.name}" is left out: its definition could not be built (${describeError(e)})`,
        );
      }
    }
    if (broken.size === 0) return;
    this.#entries = this.#entries.filter((e) => !broken.has(e));
    for (const [name, entry] of this.#byName) if (broken.has(entry)) this.#byName.delete(name);
  }

  /** Whether the tool is in the request: not deferred, or deferred and loaded. */
  isVisible(name: string): boolean {
    if (this.#deferred.has(name)) return this.#loaded.has(name);
    if (this.#byName.get(name)?.tool?.onlyWhenDeferring) return this.#deferred.size > 0;
    return true;
  }

  /** Whether the tool is deferred (whether or not it has been loaded since). */
  isDeferred(name: string): boolean {
    return this.#deferred.has(name);
  }

  /** The entry for a name or alias. */
  find(name: string): CatalogEntry | undefined {
    const entry = this.#byName.get(name);
    return entry && this.#catalogEntry(entry);
  }

  /** Every tool's catalog entry, sorted by name. */
  list(): CatalogEntry[] {
    return this.#entries.map((e) => this.#catalogEntry(e));
  }

  /** Every name in the pool (aliases too), for "did you mean". */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** The tool for a name or alias when its family is imported already, else undefined (nothing awaited). */
  loadedTool(name: string): AnyTool | undefined {
    return this.#byName.get(name)?.tool;
  }

  /**
   * The tool for a name, importing its lazy family if needed.
   *
   * @returns The tool, or undefined when no such tool exists (or its family failed to load).
   */
  async resolve(name: string): Promise<AnyTool | undefined> {
    const entry = this.#byName.get(name);
    if (!entry) return undefined;
    if (!entry.tool) await this.#loadFamily(entry.family);
    return entry.tool;
  }

  /**
   * Loads deferred tools for the rest of the session.
   *
   * @returns The definitions of the names that exist, in the order asked.
   */
  async load(names: readonly string[]): Promise<ToolDefinition[]> {
    const out: ToolDefinition[] = [];
    let changed = false;
    for (const name of names) {
      const entry = this.#byName.get(name);
      if (!entry) continue;
      if (!entry.tool) await this.#loadFamily(entry.family);
      if (!entry.tool) continue;
      // Defined first: a tool whose definition fails must not count as loaded without one. A
      // definition built before is taken as is: ToolSearch loads its results on every search,
      // and an await per name costs a turn of the microtask queue for nothing.
      const definition = entry.definition ?? (await this.#define(entry));
      if (!this.#loaded.has(entry.name)) {
        this.#loaded.add(entry.name);
        changed = true;
      }
      out.push(definition);
    }
    if (changed) this.#version++;
    return out;
  }

  /** The definitions the request carries (visible and loaded tools), sorted by name. */
  visibleDefinitions(): ToolDefinition[] {
    return this.#entries.filter((e) => e.definition && this.isVisible(e.name)).map((e) => e.definition!);
  }

  /** Definitions of deferred tools whose code is loaded (for `defer_loading` requests); a lazy family's unimported tools are not among them. */
  deferredDefinitions(): ToolDefinition[] {
    return this.#entries.filter((e) => e.definition && !this.isVisible(e.name)).map((e) => e.definition!);
  }

  async #loadFamily(family: Family): Promise<void> {
    let tools: readonly AnyTool[];
    try {
      tools = await family.loadTools();
    } catch (e) {
      this.#options.notice('error', `Family "${family.name}" failed to load: ${(e as Error).message}`);
      return;
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    this.#catalogVersion++;
    for (const entry of this.#entries) {
      if (entry.family !== family || entry.tool) continue;
      entry.tool = byName.get(entry.name);
      if (!entry.tool) {
        this.#options.notice(
          'warn',
          `Family "${family.name}" lists "${entry.name}" in its manifest but its code has no such tool`,
        );
      } else {
        for (const alias of entry.tool.aliases) if (!this.#byName.has(alias)) this.#byName.set(alias, entry);
      }
    }
  }

  async #define(entry: PoolEntry): Promise<ToolDefinition> {
    if (entry.definition) return entry.definition;
    const tool = entry.tool!;
    let description =
      typeof tool.description === 'function' ? await tool.description({ cwd: this.#options.cwd }) : tool.description;
    if (tool.inputExamples.length) {
      description += `\n\nExamples:\n${tool.inputExamples.map((x) => JSON.stringify(x)).join('\n')}`;
    }
    entry.definition = { name: entry.name, description, inputSchema: toolInputJsonSchema(tool) };
    return entry.definition;
  }

  #catalogEntry(entry: PoolEntry): CatalogEntry {
    const description =
      entry.definition?.description ??
      (typeof entry.tool?.description === 'string' ? entry.tool.description : undefined) ??
      entry.manifest?.description ??
      '';
    return {
      name: entry.name,
      family: entry.family.name,
      description,
      searchHint: entry.tool?.searchHint ?? entry.manifest?.searchHint,
      searchGroup: entry.tool?.searchGroup,
      isMcp: entry.tool?.isMcp ?? entry.manifest?.isMcp ?? false,
      deferred: this.#deferred.has(entry.name),
      loaded: this.#loaded.has(entry.name),
      tool: entry.tool,
    };
  }
}

function entryOf(family: Family, tool: AnyTool): PoolEntry {
  return { name: tool.name, family, external: family.external, tool, manifest: undefined, definition: undefined };
}

function definitionChars(tool: AnyTool, description: AnyTool['description']): number {
  const text = typeof description === 'string' ? description : '';
  try {
    return tool.name.length + text.length + JSON.stringify(toolInputJsonSchema(tool)).length;
  } catch {
    return tool.name.length + text.length;
  }
}
