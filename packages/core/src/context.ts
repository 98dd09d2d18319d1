import type { AnyTool, ObjectJsonSchema } from './tool.ts';
import type { FileStateCache } from './results/file_state_cache.ts';
import type { PermissionContext } from './permissions/types.ts';
import type { Services } from './services.ts';

/** How a tool in the pool is presented to a model: the request's definition. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: ObjectJsonSchema;
}

/** One entry of the session's pool as tools see it (ToolSearch, the CLI). */
export interface CatalogEntry {
  name: string;
  family: string;
  description: string;
  searchHint: string | undefined;
  /** The tool's search group (`searchGroup`), when it names one. */
  searchGroup?: string | undefined;
  isMcp: boolean;
  /** Not in the request until loaded. */
  deferred: boolean;
  /** Deferred and loaded by ToolSearch (or called). */
  loaded: boolean;
  /** The tool, once its family's code is imported; undefined for a lazy family not yet loaded. */
  tool: AnyTool | undefined;
}

/** The pool as a tool sees it through `ctx.tools`. */
export interface ToolCatalog {
  /** Every tool in the pool, deferred ones included, sorted by name. */
  list(): readonly CatalogEntry[];
  /**
   * Changes whenever what `list()` returns changes, except for `loaded` (tools added or removed,
   * what is deferred, a lazy family's code imported); a search index kept beside the pool is
   * rebuilt only when it changes. Absent: the caller compares `list()` itself.
   */
  readonly version?: number;
  /** One entry by name or alias. */
  get(name: string): CatalogEntry | undefined;
  /**
   * Loads deferred tools (importing lazy families as needed) so they join `toolsFor()` from the
   * next request on.
   *
   * @returns The definitions of the tools that exist, in the order asked.
   */
  load(names: readonly string[]): Promise<ToolDefinition[]>;
}

/**
 * What every call gets as its second argument. Families reach the rest of the session
 * (the pool, the file-state cache, services) through it, never through imports.
 */
export interface ToolContext {
  readonly sessionId: string;
  /** The session's current working directory (a `contextModifier` may change it). */
  readonly cwd: string;
  /** Where the session keeps persisted results and other state. */
  readonly stateDir: string;
  /** The id of the `tool_use` being run. */
  readonly toolUseId: string;
  /** Aborted when the session or the run is aborted. */
  readonly signal: AbortSignal;
  /** What file tools read, for staleness checks and "unchanged" stubs. */
  readonly fileState: FileStateCache;
  readonly permissions: PermissionContext;
  /**
   * Environment variables for the processes a tool starts (the Bash tool's commands), on top
   * of the process's own: the settings files' `env` (Claude Code's key). Absent or empty when
   * no file sets any.
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly tools: ToolCatalog;
  readonly services: Services;
  /** Registers cleanup that runs on `session.close()` (kill background tasks, close servers). */
  readonly onClose: (cleanup: () => void | Promise<void>) => void;
}
