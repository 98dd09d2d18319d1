import type { PermissionMode } from '../permissions/types.ts';

/** The hook events Toolshed runs. */
export type HookEvent = 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure';

/** Every hook event. */
export const HOOK_EVENTS: readonly HookEvent[] = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];

/** What a hook gets (as JSON on stdin for a command hook), in Claude Code's field names. */
export interface HookInput {
  session_id: string;
  cwd: string;
  /** The session's permission mode when the hook runs, as Claude Code sends it. */
  permission_mode?: PermissionMode;
  hook_event_name: HookEvent;
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  /** PostToolUse: the tool's output. */
  tool_response?: unknown;
  /** PostToolUseFailure: the error text. */
  error?: string;
}

/** The JSON a hook may print (command hooks) or return (function hooks), Claude Code's shape. */
export interface HookOutput {
  /** `false` stops the call, like a block. */
  continue?: boolean;
  stopReason?: string;
  /** `"block"`: PreToolUse blocks the call; PostToolUse flags the result to the model. */
  decision?: 'block' | 'approve';
  reason?: string;
  systemMessage?: string;
  suppressOutput?: boolean;
  hookSpecificOutput?: {
    hookEventName?: HookEvent;
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  };
}

/** A hook that runs a shell command with the {@linkcode HookInput} as JSON on stdin. */
export interface CommandHook {
  type: 'command';
  command: string;
  /** Seconds. @default 600 (Claude Code's ten minutes) */
  timeout?: number;
  /** A crash, timeout or any non-zero exit blocks the call (default: only exit 2 blocks). @default false */
  failClosed?: boolean;
  /**
   * Claude Code's `if`: a permission rule (`Bash(git *)`, `Edit(*.ts)`) the call must match for
   * the hook to run. See `hookConditionMatcher` for how a call is matched.
   * @default every call the group's matcher selects
   */
  if?: string;
  /**
   * Claude Code's `async`: the hook runs in the background and the call does not wait for it, so
   * nothing it prints or exits with blocks, decides or rewrites anything. @default false
   */
  async?: boolean;
  /** The shell: `bash -c`, or PowerShell (`pwsh -NoProfile -NonInteractive -Command`). @default 'bash' */
  shell?: 'bash' | 'powershell';
}

/**
 * A hook that POSTs the {@linkcode HookInput} as JSON to a URL (Claude Code's `http` hook). A 2xx
 * response's body is read like a command hook's stdout (JSON output, or plain text); any other
 * status, a network error or a timeout is a non-blocking error unless `failClosed`.
 */
export interface HttpHook {
  type: 'http';
  /** An `http:` or `https:` URL. */
  url: string;
  /** Extra request headers; `$NAME` / `${NAME}` in a value is the environment variable, for names in `allowedEnvVars` only. */
  headers?: Readonly<Record<string, string>>;
  /** Environment variables the headers may use. @default [] */
  allowedEnvVars?: readonly string[];
  /** Seconds. @default 600 (Claude Code's ten minutes) */
  timeout?: number;
  /** Any failure blocks the call. @default false */
  failClosed?: boolean;
  /** Claude Code's `if`, as for a command hook. @default every call the group's matcher selects */
  if?: string;
}

/** An in-process hook for library users. Throwing is a non-blocking error unless `failClosed`. */
export type HookFunction = (
  input: HookInput,
  options: { signal: AbortSignal },
) => HookOutput | void | Promise<HookOutput | void>;

/** A function hook with options. */
export interface FunctionHook {
  type: 'function';
  fn: HookFunction;
  /** Seconds. @default 60 */
  timeout?: number;
  /** @default false */
  failClosed?: boolean;
  /** Shown in errors. @default the function's name */
  name?: string;
}

/** One hook. */
export type HookDefinition = CommandHook | HttpHook | FunctionHook | HookFunction;

/** Hooks that run for tools whose name the matcher matches. */
export interface HookMatcherGroup {
  /** Exact name, `A|B`, a regex, or `*`/empty for every tool. */
  matcher?: string;
  hooks: readonly HookDefinition[];
}

/** The `hooks` option and settings key: Claude Code's shape. */
export type HooksConfig = Partial<Record<HookEvent, readonly HookMatcherGroup[]>>;

/** What running one hook gave: the raw process facts plus its parsed output. */
export interface HookRunResult {
  /** A label for messages: the command (cut to 80 characters) or the function's name. */
  hook: string;
  /** The exit code; `null` when the hook was killed, timed out, aborted or never started. A function hook gives 0 or 1. */
  exitCode: number | null;
  /** The signal that ended the hook's process, when one did (command hooks only). */
  signal?: string;
  /** Standard output, cut at about 1 MB. */
  stdout: string;
  /** Standard error (or a function hook's thrown message), cut at about 1 MB. */
  stderr: string;
  /** The hook ran past its timeout and was killed (command) or abandoned (function). */
  timedOut: boolean;
  /** The timeout it ran past, in seconds, when `timedOut`. */
  timeoutSeconds?: number;
  /** The caller's abort signal fired before the hook finished. */
  aborted: boolean;
  /** Why the hook could not be started at all (bad working directory, no `bash`, bad timeout). */
  startError?: string;
  /** The JSON the hook printed (exit 0 only) or returned, when it fits {@linkcode HookOutput}. */
  output?: HookOutput;
  /** Why the output that looked like JSON was rejected, naming the field. */
  outputError?: string;
  /**
   * Standard output ran past the 1 MB cap, so what the hook decided could not be read whole.
   * A PreToolUse hook that exits 0 with such output blocks the call.
   */
  outputTruncated?: boolean;
}

/** All hooks of one event for one call, combined. */
export interface HooksOutcome {
  /**
   * A hook stopped the call (PreToolUse) or flagged the result (PostToolUse*): exit 2 (stderr is
   * the reason), `decision: "block"`, `continue: false`, or any failure of a `failClosed` hook.
   * The first such hook in config order.
   */
  blocked?: { reason: string; hook: string };
  /** PreToolUse only: the strongest decision of all hooks (deny beats ask beats allow). */
  permissionDecision?: { behavior: 'allow' | 'deny' | 'ask'; reason?: string; hook: string };
  /** PreToolUse only: the rewritten input; when several hooks give one, the last in config order. */
  updatedInput?: Record<string, unknown>;
  /** Every hook's `hookSpecificOutput.additionalContext`, in config order, for the model. */
  additionalContext: string[];
  /** Every hook's `systemMessage`, in config order, for the user; absent when there are none. */
  systemMessages?: string[];
  /** Non-blocking failures: other exit codes, timeouts, bad output, hooks that did not start. */
  errors: { hook: string; message: string }[];
  /** How many hooks ran (identical hooks run once). */
  ran: number;
}
