/** The five permission modes of Claude Code. */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions' | 'dontAsk';

/** Every permission mode, in the order the docs list them. */
export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
  'dontAsk',
];

/** What a rule list says about a call. */
export type PermissionBehavior = 'allow' | 'deny' | 'ask';

/**
 * Matches a rule's specifier (the part in parentheses of `Bash(npm test:*)`) against one
 * input. `behavior` tells which list the rule is from: for a compound shell command an allow
 * rule must match every part while a deny rule matches if any part does.
 */
export type PermissionMatcher = (ruleContent: string, behavior: PermissionBehavior) => boolean;

/** A tool's own permission opinion, from `checkPermissions`. */
export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: unknown; reason?: string }
  | { behavior: 'deny'; message: string; reason?: string }
  | {
      behavior: 'ask';
      message?: string;
      reason?: string;
      suggestions?: string[];
      /** A safety check (protected path, …): not overridden by `bypassPermissions` or `acceptEdits`. */
      safety?: boolean;
    }
  | { behavior: 'passthrough'; message?: string };

/** A parsed rule string `Tool` or `Tool(specifier)`, with where it came from. */
export interface PermissionRule {
  /** The tool name (or `mcp__server`, `mcp__server__*`). */
  toolName: string;
  /** The specifier inside the parentheses, if any. */
  ruleContent?: string;
  behavior: PermissionBehavior;
  /** Where the rule came from: `options`, `cli`, or a settings file path. */
  source: string;
  /** The rule as written. */
  raw: string;
  /**
   * What a settings-relative path specifier (`Read(/src/**)`) is relative to: the directory
   * holding the settings file's `.toolshed/` or `.claude/` folder. Absent: the session's cwd.
   */
  root?: string;
}

/** The permission part of session options (Claude Code's `permissions` settings key). */
export interface PermissionOptions {
  /** @default 'default' */
  mode?: PermissionMode;
  allow?: readonly string[];
  deny?: readonly string[];
  ask?: readonly string[];
  /** Working directories beyond `cwd`. */
  additionalDirectories?: readonly string[];
}

/** The permission state every call sees through its context. */
export interface PermissionContext {
  mode: PermissionMode;
  rules: { allow: readonly PermissionRule[]; deny: readonly PermissionRule[]; ask: readonly PermissionRule[] };
  /** Absolute, resolved: cwd first, then additional directories. */
  workingDirectories: readonly string[];
  /** What `~` stands for in rules and paths. @default os.homedir() */
  homeDir?: string | undefined;
  /**
   * Compare paths without regard to case, as the file system does on macOS and Windows: then
   * `.GIT/config` is protected like `.git/config` and `Read(./Secret)` covers `./secret`.
   * @default true on darwin and win32, false elsewhere
   */
  caseInsensitivePaths?: boolean | undefined;
}

/**
 * The decision for one call, with why: what `session.explain` and `toolshed check` print.
 */
export interface PermissionDecision {
  behavior: PermissionBehavior;
  /** One sentence: why this behaviour. */
  reason: string;
  /** The deciding rule as written, if a rule decided. */
  rule?: string;
  /**
   * Where the deciding rule came from: a settings file path, `options`, `cli`; or what decided
   * without a rule: `hook`, `mode`, `tool`, `safety` (a protected path or device file).
   */
  source?: string;
  /** For ask: the rules that, added together, allow this call (tried before they are offered; empty when none would). */
  suggestions?: string[];
  /** An input rewritten by the tool's own check. */
  updatedInput?: unknown;
  /**
   * Text for the model from whoever decided, when it gave one (a tool's own deny or ask
   * message, the plan-mode notice); {@linkcode denialMessage} prefers it to `reason`.
   */
  message?: string;
}

/** A PreToolUse hook's permission decision, as the hook runner combines them. */
export interface HookPermissionDecision {
  behavior: PermissionBehavior;
  /** The hook's `permissionDecisionReason`. */
  reason?: string;
  /** The hook's label (its command, or the function hook's name). */
  hook: string;
}

/** What `canUseTool` answers (the Claude Agent SDK's shape). */
export type CanUseToolResult = { behavior: 'allow'; updatedInput?: unknown } | { behavior: 'deny'; message: string };

/**
 * The integrator's answer to a permission prompt, with the Claude Agent SDK's signature.
 *
 * @example
 * ```ts
 * import type { CanUseTool } from '@toolshed/core';
 *
 * const canUseTool: CanUseTool = async (toolName, input) =>
 *   toolName === 'Bash' ? { behavior: 'deny', message: 'No shell today' } : { behavior: 'allow' };
 * ```
 */
export type CanUseTool = (
  toolName: string,
  input: unknown,
  options: { signal: AbortSignal; suggestions: string[]; toolUseId: string; reason: string },
) => Promise<CanUseToolResult>;
