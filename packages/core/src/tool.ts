import type { z } from 'zod';
import type { FileStateCache } from './results/file_state_cache.ts';
import type { SavedFileStats } from './results/saved_results.ts';
import type { PermissionContext } from './permissions/types.ts';
import type { Services } from './services.ts';
import type { PermissionMatcher, PermissionResult } from './permissions/types.ts';
import { contentToText, type ToolResultContent } from './blocks.ts';

/** A JSON Schema object, as sent to a model provider. */
export type JsonSchema = Record<string, unknown>;

/** The JSON Schema of a tool's input: always an object at the top, as providers require. */
export interface ObjectJsonSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** What `validateInput` returns: ok, or a message the model can act on. */
export type ValidationResult = { result: true } | { result: false; message: string; errorCode?: number | string };

/** A progress report from a running call; `message` is a one-line human summary. */
export interface ToolProgress {
  message?: string;
  [key: string]: unknown;
}

/** The third argument of {@linkcode ToolDef.call}. */
export interface ToolCallOptions {
  /** Reports progress; the session turns it into a `progress` event. */
  onProgress: (progress: ToolProgress) => void;
  /** Aborted when the session or the run is aborted. */
  signal: AbortSignal;
}

/** What {@linkcode ToolDef.call} returns. */
export interface ToolCallResult<Output> {
  data: Output;
  /** Extra messages for the conversation (for example a sub-agent's transcript). */
  newMessages?: unknown[];
  /**
   * Changes the context of later calls (applied in order, after the call's batch finishes).
   * The returned context becomes the session's context, so a `cwd` change persists.
   */
  contextModifier?: (ctx: ToolContext) => ToolContext;
  /**
   * The call ran but failed in a way the model should see with its full content (an MCP
   * result with `isError`, a command's output with its exit status): the result keeps the
   * mapped content and is marked `is_error`, and PostToolUseFailure hooks run instead of
   * PostToolUse. Thrown errors are for failures that have only a message.
   */
  isError?: boolean;
  /**
   * The tool saved its whole result to this file itself, as it was made (see `ResultSpill`), and
   * `data` maps to the preview: the session reports the file as it reports a result the budget
   * persisted (`persistedPath` of the call's events), and the model may read it.
   */
  persistedPath?: string;
  /**
   * That file as the tool wrote it, from the writing handle (`ResultSpill`'s `persistedStats`, or
   * `savedFileStats(fstatSync(fd))` before the tool closes it). Only with these does the session
   * take the file as its own result, readable past deny rules that cover the state folder; without
   * them it is still reported and removed on `close()`, and reading it goes through the rules.
   */
  persistedStats?: SavedFileStats;
}

/**
 * One path an input touches, for the permission layer's path guard. Three kinds:
 *
 * - `path` (the default, what `{ path, access }` means): exactly this file or folder;
 * - `folder`: some path under this folder (a recursive reader such as `grep -r`, a history
 *   reader such as `git log -p` with `history: true`): the guard treats it as touching every
 *   file under it, so a deny rule below the folder denies and an ask rule asks;
 * - `unknown`: a path the tool could not work out before the call runs (`cat $F`); `path`
 *   then describes it for a person (the word as written). Unknown asks, in every mode, and
 *   `bypassPermissions` too when a deny or ask path rule (or, for a write, a protected path)
 *   could be touched.
 *
 * @example
 * ```ts
 * import type { ResourceAccess } from '@toolshed/core';
 *
 * const accesses: ResourceAccess[] = [
 *   { path: '/p/a.txt', access: 'read' },
 *   { path: '/p', access: 'read', kind: 'folder', history: true },
 *   { path: '/p', access: 'read', kind: 'folder', tracked: true },
 *   { path: '/p/src', access: 'read', kind: 'folder', names: true },
 *   { path: '/p/src', access: 'write', kind: 'folder', worktree: true },
 *   { path: '/p/lib', access: 'write', from: '/p/src' },
 *   { path: '`$F`', access: 'read', kind: 'unknown' },
 * ];
 * ```
 */
export interface ResourceAccess {
  path: string;
  access: 'read' | 'write';
  /** @default 'path' */
  kind?: 'path' | 'folder' | 'unknown';
  /**
   * For a `folder`: it is a repository whose history is read too, so files that are no longer
   * in the folder (or never were in the working tree) count as under it.
   */
  history?: boolean;
  /**
   * For a `folder` write: git writes it as a work tree (`git restore .`, `git rm -r .`): what it
   * tracks there, as its index says (a file deleted since it was staged comes back), and what
   * exists there, never a folder named `.git` (git refuses such paths). So the checks of what is
   * under the folder take in the index's paths below it and leave the `.git` folders out. On a
   * path that is no folder now (a file, or nothing: `git restore conf` after `rm -r conf`), it
   * stands for what the index holds below the path, which git makes a folder of; the path itself
   * is judged as a plain write of it is, which the tool declares beside it.
   */
  worktree?: boolean;
  /**
   * For a `folder` read: git reads it as a work tree, only the files it tracks there (`git diff`
   * without a revision, `git grep` without `--untracked`): what its index lists below the folder,
   * and everything inside the submodules it holds. A file git does not track (a git-ignored
   * `.env`) is not read, so a rule about it does not hold the read back. An index that cannot be
   * read (a split or sparse one, another `GIT_INDEX_FILE`) counts as listing anything. Ignored
   * with `history` (a history holds files the index no longer lists) and for a write.
   */
  tracked?: boolean;
  /**
   * For a `folder` read: only the names and metadata of what is under it are read, no file's
   * contents (`find`, `tree`, `du`, `ls -R`, `rg --files`), as a plain read of a folder lists its
   * entries (`ls`). A rule about a file below does not hold it back, one covering the folder
   * itself does; the links below are checked where they lead, as for any folder.
   */
  names?: boolean;
  /**
   * For a write: the folder whose contents land at `path` (a folder copied, moved or linked there:
   * `cp -r src lib`, `cp -r dir/. lib`, `mv stuff dest`, `ln -s /p/x lib/x`). Each entry below
   * `from`, at any depth, is judged as a write at the same place below `path`: a protected name
   * there (`lib/sub/.vscode/tasks.json`, `lib/package.json`) asks, in every mode, as writing it
   * would; past a walk of `FOLDER_WALK_LIMIT` entries, the landing counts as holding anything. A
   * `from` that is no folder adds nothing. Absolute, or relative to the call's cwd.
   */
  from?: string;
}

/** What a tool's `description` may be given when it is computed. */
export interface DescriptionContext {
  cwd: string;
}

/**
 * What {@linkcode buildTool} takes. Only `name`, `inputSchema`, `description` and `call` are
 * required; every other field has a cautious default.
 */
export interface ToolDef<Schema extends z.ZodType = z.ZodType, Output = unknown> {
  /** The name the model calls, `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  /** Old names still accepted. @default [] */
  aliases?: readonly string[];
  /** Words ToolSearch matches on. */
  searchHint?: string;
  /**
   * The group ToolSearch also searches this tool as part of (an MCP server, an API): a query
   * about the group lifts its tools. @default the tool's family (an MCP tool: its server, from the name)
   */
  searchGroup?: string;
  /** What the model reads about the tool: a string, or computed once per session. */
  description: string | ((ctx: DescriptionContext) => string | Promise<string>);
  /** The input's zod schema; the input type is inferred from it. */
  inputSchema: Schema;
  /** A JSON Schema to send instead of converting `inputSchema` (MCP tools keep the server's). */
  inputJSONSchema?: JsonSchema;
  /** The output's zod schema, for typed consumers. */
  outputSchema?: z.ZodType;
  /** Few-shot examples appended to the description. */
  inputExamples?: readonly z.input<Schema>[];
  /** Filtered out of the pool when false. @default true */
  isEnabled?: () => boolean;
  /** @default false */
  isReadOnly?: (input: z.output<Schema>) => boolean;
  /** May run in parallel with other concurrency-safe calls. @default false */
  isConcurrencySafe?: (input: z.output<Schema>) => boolean;
  /** Irreversible. @default false */
  isDestructive?: (input: z.output<Schema>) => boolean;
  /** Semantic checks after the schema, before permissions. @default ok */
  validateInput?: (input: z.output<Schema>, ctx: ToolContext) => ValidationResult | Promise<ValidationResult>;
  /** The tool's own permission opinion. @default passthrough */
  checkPermissions?: (input: z.output<Schema>, ctx: ToolContext) => PermissionResult | Promise<PermissionResult>;
  /** How rule specifiers such as `npm test:*` match this input. */
  preparePermissionMatcher?: (input: z.output<Schema>) => PermissionMatcher | Promise<PermissionMatcher>;
  /**
   * The rules that, added together, would allow this input (one per part of it that needs one, each as
   * narrow as the part), offered to `canUseTool` and named in denials. Not alternatives: a person who
   * answers "always" gets all of them. Before an ask offers them, the permission layer tries them and
   * offers none that would leave the call asking.
   */
  permissionSuggestions?: (input: z.output<Schema>) => string[];
  /** The paths this input reads or writes, for the permission layer's path guard. */
  resources?: (input: z.output<Schema>, ctx: ToolContext) => ResourceAccess[] | Promise<ResourceAccess[]>;
  /** Over it, the result is persisted and a preview returned; `Infinity` never persists. @default 50000 */
  maxResultSizeChars?: number;
  /** Deferred: only the name is sent until ToolSearch loads it. @default false */
  shouldDefer?: boolean;
  /**
   * A feature flag: the tool joins the pool only in sessions created with
   * `features: { [feature]: true }` (stage 1 of the pool). For experimental tools.
   */
  feature?: string;
  /** Never deferred. @default false */
  alwaysLoad?: boolean;
  /**
   * Sent to the model only while some tool of the pool is deferred (ToolSearch: with nothing to
   * find, it would cost its definition's tokens on every request for nothing). It can still be
   * called. @default false
   */
  onlyWhenDeferring?: boolean;
  /** Set by the MCP bridge for tools that come from an MCP server. @default false */
  isMcp?: boolean;
  /** What abort does to a running call. @default 'block' */
  interruptBehavior?: 'cancel' | 'block';
  /** @default the name */
  userFacingName?: (input?: z.output<Schema>) => string;
  /** One line about a call, for lists and logs. @default the first string field */
  getToolUseSummary?: (input: z.output<Schema>) => string;
  /** Plain text for a call. @default `Name(summary)` */
  renderToolUse?: (input: z.output<Schema>) => string;
  /** Plain text for a result. @default the mapped text */
  renderResult?: (output: Output) => string;
  /** Output to `tool_result` content. @default text as is, anything else as JSON */
  mapResult?: (output: Output, toolUseId: string) => ToolResultContent;
  /** Runs the tool. */
  call: (input: z.output<Schema>, ctx: ToolContext, options: ToolCallOptions) => Promise<ToolCallResult<Output>>;
}

/**
 * A tool with every default filled in: what the pool and the pipeline work with.
 * The input and output types are erased at this level; {@linkcode buildTool} keeps them for
 * the author.
 */
export interface Tool<Schema extends z.ZodType = z.ZodType, Output = unknown> {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly searchHint: string | undefined;
  readonly searchGroup?: string | undefined;
  readonly description: ToolDef<Schema, Output>['description'];
  readonly inputSchema: Schema;
  readonly inputJSONSchema: JsonSchema | undefined;
  readonly outputSchema: z.ZodType | undefined;
  readonly inputExamples: readonly z.input<Schema>[];
  readonly maxResultSizeChars: number;
  readonly shouldDefer: boolean;
  readonly feature: string | undefined;
  readonly alwaysLoad: boolean;
  readonly onlyWhenDeferring: boolean;
  readonly isMcp: boolean;
  readonly interruptBehavior: 'cancel' | 'block';
  isEnabled(): boolean;
  isReadOnly(input: z.output<Schema>): boolean;
  isConcurrencySafe(input: z.output<Schema>): boolean;
  isDestructive(input: z.output<Schema>): boolean;
  validateInput(input: z.output<Schema>, ctx: ToolContext): ValidationResult | Promise<ValidationResult>;
  checkPermissions(input: z.output<Schema>, ctx: ToolContext): PermissionResult | Promise<PermissionResult>;
  preparePermissionMatcher: ((input: z.output<Schema>) => PermissionMatcher | Promise<PermissionMatcher>) | undefined;
  permissionSuggestions(input: z.output<Schema>): string[];
  resources(input: z.output<Schema>, ctx: ToolContext): ResourceAccess[] | Promise<ResourceAccess[]>;
  userFacingName(input?: z.output<Schema>): string;
  getToolUseSummary(input: z.output<Schema>): string;
  renderToolUse(input: z.output<Schema>): string;
  renderResult(output: Output): string;
  mapResult(output: Output, toolUseId: string): ToolResultContent;
  call(input: z.output<Schema>, ctx: ToolContext, options: ToolCallOptions): Promise<ToolCallResult<Output>>;
}

/** A tool of any input and output, as kept in lists and pools. */
// biome-ignore lint/suspicious/noExplicitAny: a pool holds tools of unrelated input types; `Tool<z.ZodType, unknown>` refuses a typed one
export type AnyTool = Tool<any, any>;

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Builds a {@linkcode Tool} from its definition, filling in the cautious defaults of
 * docs/architecture.md: not read-only, not concurrency-safe, not destructive, enabled, permission
 * passthrough, results over 50 000 characters persisted.
 *
 * @param def The tool's definition.
 * @returns The tool, typed by its schema and its `call`'s output.
 * @throws {TypeError} If the name is not `^[A-Za-z0-9_-]{1,64}$` or `call` is missing.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { buildTool } from '@toolshed/core';
 *
 * const echo = buildTool({
 *   name: 'Echo',
 *   description: 'Returns its text.',
 *   inputSchema: z.object({ text: z.string() }),
 *   isReadOnly: () => true,
 *   isConcurrencySafe: () => true,
 *   async call({ text }) { return { data: text }; },
 * });
 * ```
 */
export function buildTool<Schema extends z.ZodType, Output>(def: ToolDef<Schema, Output>): Tool<Schema, Output> {
  if (typeof def?.name !== 'string' || !TOOL_NAME.test(def.name)) {
    throw new TypeError(`Tool name ${JSON.stringify(def?.name)} is invalid: use 1 to 64 letters, digits, "_" or "-"`);
  }
  if (typeof def.call !== 'function') throw new TypeError(`Tool "${def.name}" has no call function`);
  if (!def.inputSchema || typeof (def.inputSchema as z.ZodType).safeParse !== 'function') {
    throw new TypeError(`Tool "${def.name}" needs a zod inputSchema`);
  }
  if (def.description === undefined) throw new TypeError(`Tool "${def.name}" has no description`);
  const name = def.name;
  const summary = def.getToolUseSummary ?? defaultSummary;
  return {
    name,
    aliases: def.aliases ?? [],
    searchHint: def.searchHint,
    searchGroup: def.searchGroup,
    description: def.description,
    inputSchema: def.inputSchema,
    inputJSONSchema: def.inputJSONSchema,
    outputSchema: def.outputSchema,
    inputExamples: def.inputExamples ?? [],
    maxResultSizeChars: def.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS,
    shouldDefer: def.shouldDefer ?? false,
    feature: def.feature,
    alwaysLoad: def.alwaysLoad ?? false,
    onlyWhenDeferring: def.onlyWhenDeferring ?? false,
    isMcp: def.isMcp ?? false,
    interruptBehavior: def.interruptBehavior ?? 'block',
    isEnabled: def.isEnabled ?? (() => true),
    isReadOnly: def.isReadOnly ?? (() => false),
    isConcurrencySafe: def.isConcurrencySafe ?? (() => false),
    isDestructive: def.isDestructive ?? (() => false),
    validateInput: def.validateInput ?? (() => ({ result: true })),
    checkPermissions: def.checkPermissions ?? (() => ({ behavior: 'passthrough' })),
    preparePermissionMatcher: def.preparePermissionMatcher,
    permissionSuggestions: def.permissionSuggestions ?? (() => [name]),
    resources: def.resources ?? (() => []),
    userFacingName: def.userFacingName ?? (() => name),
    getToolUseSummary: summary,
    renderToolUse:
      def.renderToolUse ??
      ((input) => {
        const s = summary(input);
        return s ? `${name}(${s})` : name;
      }),
    renderResult: def.renderResult ?? ((output) => contentToText(mapResult(output))),
    mapResult: def.mapResult ?? mapResult,
    call: def.call,
  };
}

/** The result size over which output is persisted, as Claude Code clamps it. */
export const DEFAULT_MAX_RESULT_SIZE_CHARS = 50_000;

function mapResult(output: unknown): ToolResultContent {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  return JSON.stringify(output, null, 2);
}

function defaultSummary(input: unknown): string {
  if (input && typeof input === 'object') {
    for (const value of Object.values(input)) {
      if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 77)}...` : value;
    }
  }
  return '';
}

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
  /**
   * Whether the user trusts the project folder (`trustedProject`, else the trust list of
   * `toolshed trust DIR`): a tool that would run the project's own code to serve a read-only
   * call (a language server taking the workspace's TypeScript) does so only when it is true.
   * Absent means not trusted. A child session has its parent's.
   */
  readonly projectTrusted?: boolean;
  readonly tools: ToolCatalog;
  readonly services: Services;
  /** Registers cleanup that runs on `session.close()` (kill background tasks, close servers). */
  readonly onClose: (cleanup: () => void | Promise<void>) => void;
}
