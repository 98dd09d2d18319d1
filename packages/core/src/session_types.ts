import type { AnyTool, CatalogEntry, ToolProgress } from './tool.ts';
import type { Family } from './family.ts';
import type { ToolResultBlock, ToolUseBlock } from './blocks.ts';
import type { CanUseTool, PermissionDecision, PermissionOptions } from './permissions/types.ts';
import type { HookEvent, HooksConfig } from './hooks/types.ts';
import type { ServiceKey } from './services.ts';
import type { SettingSource } from './settings/setting_sources.ts';
import type {
  AnthropicTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
  ProviderFormat,
  ProviderToolsOptions,
} from './provider_format.ts';
import type { SessionMetrics } from './results/metrics.ts';

/** What {@linkcode createSession} takes. */
export interface SessionOptions {
  /** The working directory; relative paths resolve against it. */
  cwd: string;
  /** Tool families (`fileTools()`, `shellTools()`, `mcpServers(config)`, …). */
  families?: readonly Family[];
  /** Ad-hoc tools, as if in a family named `custom`. */
  tools?: readonly AnyTool[];
  /** Mode and rules (Claude Code's rule strings; see the core README, "Permissions"). */
  permissions?: PermissionOptions;
  /**
   * PreToolUse / PostToolUse / PostToolUseFailure hooks, Claude Code's shape, plus in-process
   * functions; run after the hooks of the settings files.
   */
  hooks?: HooksConfig;
  /** Answers `ask`; without it, ask is denied with the rule that would allow the call. */
  canUseTool?: CanUseTool;
  /**
   * Where persisted results (`<stateDir>/tool-results/`) and other session state go. The default
   * is the session's own folder in a per-user private place, mode 0700:
   * `$XDG_STATE_HOME/toolshed/<session id>`, else `~/.toolshed/state/<session id>` (`~` being
   * `homeDir`), else `<os tmpdir>/toolshed-<uid>/<session id>`; a symlink or another user's folder
   * at the root's place makes `createSession` throw `state_dir_unsafe`. Whatever the folder, a
   * Read, Grep or Glob of the session's own results needs no rule and never asks.
   * @default the per-user place above
   */
  stateDir?: string;
  /**
   * What `close()` does with the results the session saved: `false` removes them (the whole
   * default state folder; with a `stateDir` given, only the files this session saved), `true`
   * keeps them, `{ maxAgeMs }` keeps them and removes saved results older than that (of every
   * session in the default place, or in `<stateDir>/tool-results`), as opencode keeps its
   * truncation files for 7 days (`{ maxAgeMs: 7 * 24 * 3_600_000 }`).
   * @default false
   */
  keepResults?: boolean | { readonly maxAgeMs: number };
  /** Caps every tool's `maxResultSizeChars` (a tool with `Infinity` is never persisted). @default 50000 */
  maxResultSizeChars?: number;
  /**
   * Results of one turn together over this are persisted: by `run` largest first, once the
   * turn has ended; by `stream` greedily in block order, since a result already yielded cannot
   * be taken back (the first result that would take the turn past the budget is persisted).
   * @default 200000
   */
  turnBudgetChars?: number;
  /** How many concurrency-safe calls run at once. @default 10 */
  concurrency?: number;
  /** Aborts every running call; the session answers the rest with cancelled results. */
  signal?: AbortSignal;
  /** @default a random UUID */
  sessionId?: string;
  /**
   * Feature flags: a tool (or manifest entry) with `feature: 'x'` joins the pool only when
   * `features.x` is true (stage 1 of the pool).
   * @default {}
   */
  features?: Readonly<Record<string, boolean>>;
  /** Services tools find through `ctx.services` (a model client, …). */
  services?: Iterable<readonly [ServiceKey<unknown>, unknown]>;
  /**
   * Which settings files to read: `user` (`~/.toolshed/settings.json`), `project`
   * (`.toolshed/settings.json`), `local` (`.toolshed/settings.local.json`), `claude`
   * (`.claude/settings.json` and `.claude/settings.local.json`). The library reads none unless
   * asked; the CLI reads user, project and local. `permissions` and `hooks` given here come
   * on top of them.
   * @default []
   */
  settingsSources?: readonly SettingSource[];
  /**
   * Whether the settings files inside the project (`.toolshed/`, `.claude/`) apply whole: allow
   * rules, permissive modes, additional directories and hooks included. Until the folder is
   * trusted they may only tighten (deny and ask rules, `disableBypassPermissionsMode`), and a
   * notice names what was ignored. User settings and `settingsFiles` are always trusted.
   * @default whether the user trusted the folder with `toolshed trust DIR` (`isProjectTrusted`)
   */
  trustedProject?: boolean;
  /** Further settings files (the CLI's `--settings FILE`), read after the sources. @default [] */
  settingsFiles?: readonly string[];
  /**
   * Settings keys of families this session does not load (`["lsp"]` when the LSP family is left
   * out): a settings file that sets them still loads, unchecked. The keys of the families given
   * are known already (`FamilyDef.settings`). @default []
   */
  otherFamilyKeys?: readonly string[];
  /** What `~` stands for in settings paths, rules and resources. @default os.homedir() */
  homeDir?: string;
  /** The `source` named for rules of `permissions` (the CLI passes `cli`). @default 'options' */
  permissionsSource?: string;
  /**
   * Compare paths without regard to case (`.GIT/config` is `.git/config`).
   * @default true on darwin and win32, false elsewhere
   */
  caseInsensitivePaths?: boolean;
}

/** An event of {@linkcode Session.stream}. */
export type SessionEvent =
  | { type: 'tool_start'; toolUseId: string; toolName: string; input: unknown }
  | { type: 'progress'; toolUseId: string; toolName: string; progress: ToolProgress }
  | {
      type: 'permission_request';
      toolUseId: string;
      toolName: string;
      input: unknown;
      reason: string;
      suggestions: string[];
    }
  | { type: 'permission_decision'; toolUseId: string; toolName: string; decision: PermissionDecision }
  | { type: 'hook_error'; toolUseId: string; toolName: string; event: HookEvent; hook: string; message: string }
  | { type: 'notice'; level: 'info' | 'warn' | 'error'; message: string }
  | {
      type: 'result';
      toolUseId: string;
      toolName: string;
      result: ToolResultBlock;
      durationMs: number;
      /** Set when the output was persisted by the result budget. */
      persistedPath?: string;
      /** Messages the tool asks the loop to append after this turn's results (its `newMessages`). */
      newMessages?: unknown[];
    };

/** Options of one `run` or `stream`. */
export interface RunOptions {
  /** Aborts this run's calls (in addition to the session's signal). */
  signal?: AbortSignal;
}

/** A session: a pool of tools, permissions and hooks, and the pipeline that runs calls. */
export interface Session {
  readonly id: string;
  /** The current working directory (a tool's `contextModifier` may change it). */
  readonly cwd: string;
  readonly stateDir: string;
  /** The request's tool definitions for a provider: sorted, cached, deferred tools left out. */
  toolsFor(format: 'anthropic', options?: ProviderToolsOptions): AnthropicTool[];
  toolsFor(format: 'openai', options?: ProviderToolsOptions): OpenAIChatTool[];
  toolsFor(format: 'openai-responses', options?: ProviderToolsOptions): OpenAIResponsesTool[];
  toolsFor(
    format: ProviderFormat,
    options?: ProviderToolsOptions,
  ): (AnthropicTool | OpenAIChatTool | OpenAIResponsesTool)[];
  /** Runs one turn's calls; results in the order of the blocks. Never throws for model output. */
  run(blocks: readonly ToolUseBlock[], options?: RunOptions): Promise<ToolResultBlock[]>;
  /**
   * Runs calls as their blocks arrive, yielding events; results in the order of the blocks.
   * Session notices raised during the turn (a failed context change, a block stream that
   * threw) are yielded too. The turn budget is applied greedily (see `turnBudgetChars`).
   */
  stream(
    blocks: Iterable<ToolUseBlock> | AsyncIterable<ToolUseBlock>,
    options?: RunOptions,
  ): AsyncIterable<SessionEvent>;
  /**
   * The permission decision for a call, without running it or its hooks: `behavior`, `reason`,
   * and when a rule decided, the `rule` and its `source` (the settings file, `options` or `cli`).
   */
  explain(toolName: string, input: unknown): Promise<PermissionDecision>;
  /** Every tool in the pool, deferred ones included. */
  catalog(): readonly CatalogEntry[];
  /** System-prompt text naming the deferred tools, or '' when none are deferred. */
  deferredNotice(): string;
  /** Per-tool calls, errors and durations. */
  metrics(): SessionMetrics;
  /** Notices from families (a server that failed to start, …) since the session started. */
  notices(): readonly { level: 'info' | 'warn' | 'error'; message: string }[];
  /**
   * Runs every family's cleanup (kills background tasks, closes servers), then removes the
   * results the session saved unless `keepResults` keeps them. Idempotent.
   */
  close(): Promise<void>;
}
