import { hookLabel } from './_hook_label.ts';
import { runCommandHook } from './command_hook.ts';
import { runFunctionHook } from './function_hook.ts';
import { runHttpHook } from './http_hook.ts';
import type { HookCondition } from './hook_condition.ts';
import { matchesTool } from './hook_matcher.ts';
import type { HookDefinition, HookEvent, HookInput, HookRunResult, HooksConfig, HooksOutcome } from './types.ts';

/** Options of {@linkcode runHooks}. */
export interface RunHooksOptions {
  /**
   * Which event's hooks to run.
   * @default input.hook_event_name
   */
  event?: HookEvent | undefined;
  /** Aborting kills running command hooks and stops waiting for function hooks. */
  signal: AbortSignal;
  /** Where command hooks run; also `TOOLSHED_PROJECT_DIR` / `CLAUDE_PROJECT_DIR`. */
  cwd: string;
  /** Extra environment variables for command hooks. */
  env?: Record<string, string>;
  /** The called tool's other names, which a matcher may use (`Task` for Agent). @default [] */
  aliases?: readonly string[] | undefined;
  /**
   * Evaluates the hooks' `if` conditions for this call (see `hookConditionMatcher`). Without it,
   * or when it cannot tell, a hook with `if` runs but may only block: its allow decision and
   * rewritten input are dropped, with an error that says so.
   * @default none
   */
  condition?: HookCondition | undefined;
}

type Behavior = 'allow' | 'deny' | 'ask';
const STRENGTH: Record<Behavior, number> = { allow: 0, ask: 1, deny: 2 };

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0]?.trim() ?? '';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** Identical hooks (same command, same function) from several groups or settings files run once. */
function identity(hook: HookDefinition): unknown {
  if (typeof hook === 'function') return hook;
  // As in Claude Code, the `if` condition and the shell are part of a hook's identity.
  if (hook.type === 'command')
    return `command:${hook.shell ?? 'bash'}\0${hook.if ?? ''}\0${hook.async === true}\0${hook.command}`;
  if (hook.type === 'http') return `http:${hook.if ?? ''}\0${hook.url}`;
  return hook.fn;
}

/** What running a hook may do: everything, only block (an `if` that could not be told), or nothing (async). */
/** A hook the call selects; `unknownIf` is its `if` condition when that could not be evaluated (it may then only block). */
interface SelectedHook {
  hook: HookDefinition;
  unknownIf?: string;
}

/**
 * The hooks of the event that the call selects, each once, and apart from them the async command
 * hooks, which Claude Code runs in the background (what they print decides nothing).
 */
async function selectHooks(
  config: HooksConfig | undefined,
  event: HookEvent,
  input: HookInput,
  options: RunHooksOptions,
): Promise<{ selected: SelectedHook[]; background: HookDefinition[] }> {
  const selected: SelectedHook[] = [];
  const background: HookDefinition[] = [];
  const seen = new Set<unknown>();
  for (const group of config?.[event] ?? []) {
    if (!matchesTool(group.matcher, input.tool_name, { aliases: options.aliases })) continue;
    for (const hook of group.hooks) {
      const id = identity(hook);
      if (seen.has(id)) continue;
      seen.add(id);
      const condition = typeof hook === 'function' || hook.type === 'function' ? undefined : hook.if;
      let unknownIf: string | undefined;
      if (condition !== undefined && condition !== '') {
        const holds = options.condition ? await options.condition(condition) : undefined;
        if (holds === false) continue;
        if (holds === undefined) unknownIf = condition;
      }
      if (typeof hook !== 'function' && hook.type === 'command' && hook.async === true) background.push(hook);
      else selected.push(unknownIf === undefined ? { hook } : { hook, unknownIf });
    }
  }
  return { selected, background };
}

/** A block reason the model reads: a hook that echoes a large input must not flood the context. */
const MAX_REASON_CHARS = 10_000;

function capReason(reason: string): string {
  if (reason.length <= MAX_REASON_CHARS) return reason;
  return `${reason.slice(0, MAX_REASON_CHARS)}… [the hook's reason was cut at ${MAX_REASON_CHARS} characters of ${reason.length}]`;
}

function isFailClosed(hook: HookDefinition): boolean {
  return typeof hook !== 'function' && hook.failClosed === true;
}

/** Why a hook failed (not counting exit 2 and deliberate blocks), or `undefined` when it did not. */
function failure(hook: HookDefinition, result: HookRunResult): string | undefined {
  const isCommand = typeof hook !== 'function' && hook.type === 'command';
  if (result.startError !== undefined) return result.startError;
  if (result.aborted) return 'was aborted before it finished';
  if (result.timedOut) return `timed out after ${result.timeoutSeconds ?? '?'} s`;
  if (!isCommand && result.exitCode === 1) {
    return result.stderr.trim() === '' ? 'threw an error without a message' : `threw: ${firstLine(result.stderr)}`;
  }
  if (result.exitCode === null) return `was killed by ${result.signal ?? 'a signal'}`;
  if (result.exitCode !== 0 && result.exitCode !== 2) {
    const line = firstLine(result.stderr);
    const said =
      line === ''
        ? `exited with code ${result.exitCode} and nothing on stderr`
        : `exited with code ${result.exitCode}: ${line}`;
    // bash's own codes for a command it could not find or run: the hook never ran at all.
    if (isCommand && result.exitCode === 127)
      return `${said} (the command was not found: check the hook's command, its path relative to the session's cwd, and PATH)`;
    if (isCommand && result.exitCode === 126)
      return `${said} (the command could not be executed: make the script executable with chmod +x)`;
    return said;
  }
  if (result.outputError !== undefined) return `gave invalid output: ${result.outputError}`;
  return undefined;
}

/**
 * Runs the hooks of one event for one tool call and combines what they say. Every hook of every
 * group whose matcher matches `input.tool_name` runs, all in parallel, each under its own
 * timeout; results are combined in config order. Exit 2, `decision: "block"` and
 * `continue: false` block (for PostToolUse* "blocked" means "flag the result to the model"); other
 * failures are non-blocking errors unless the hook is `failClosed`. Never rejects.
 *
 * @param config The hooks config (`undefined`: nothing runs).
 * @param input What each hook gets (as JSON on stdin for command hooks); its `hook_event_name`
 *   says which event's hooks run.
 * @param options Abort signal, working directory and extra environment.
 * @returns The combined {@linkcode HooksOutcome}.
 *
 * @example
 * ```ts
 * import { runHooks } from '@toolshed/core/internal';
 * const cwd = process.cwd();
 * const signal = AbortSignal.timeout(30_000);
 *
 * const outcome = await runHooks(
 *   { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/no_rm.sh' }] }] },
 *   { session_id: 's1', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't1' },
 *   { signal, cwd },
 * );
 * if (outcome.blocked) console.log(`Blocked by ${outcome.blocked.hook}: ${outcome.blocked.reason}`);
 * ```
 */
export async function runHooks(
  config: HooksConfig | undefined,
  input: HookInput,
  options: RunHooksOptions,
): Promise<HooksOutcome> {
  const event = options.event ?? input.hook_event_name;
  const { selected, background } = await selectHooks(config, event, input, options);
  for (const hook of background) void runOne(hook, input, options);
  const hooks = selected.map((s) => s.hook);
  const results = await Promise.all(hooks.map((hook) => runOne(hook, input, options)));

  const outcome: HooksOutcome = { additionalContext: [], errors: [], ran: hooks.length + background.length };
  const systemMessages: string[] = [];
  const block = (hook: string, reason: string): void => {
    outcome.blocked ??= { reason, hook };
  };

  results.forEach((result, index) => {
    const hook = hooks[index] as HookDefinition;
    const label = result.hook;
    // Exit 2 blocks whatever the hook printed. Before the call, output past the cap blocks too:
    // the model chooses the input, and a hook that quotes it must not be switched off by an
    // input large enough to cut its decision short.
    if (
      event === 'PreToolUse' &&
      result.exitCode === 0 &&
      result.outputTruncated === true &&
      !result.timedOut &&
      !result.aborted
    ) {
      outcome.errors.push({
        hook: label,
        message: 'printed more than the 1 MB output limit; its decision could not be read',
      });
      block(
        label,
        `the hook printed more than the 1 MB output limit, so its decision could not be read and the call was blocked. Do not retry with the same input; if the call is needed, make the input smaller (for example, write a large file in parts)`,
      );
      return;
    }
    const failed = failure(hook, result);
    if (failed !== undefined) {
      outcome.errors.push({ hook: label, message: failed });
      if (isFailClosed(hook)) block(label, `the hook is fail-closed and it ${failed}`);
      return;
    }
    if (result.exitCode === 2) {
      const reason = capReason(result.stderr.trim());
      block(label, reason === '' ? `Hook \`${label}\` exited with code 2 without giving a reason on stderr` : reason);
      return;
    }
    const output = result.output;
    if (output === undefined) return;
    if (output.systemMessage !== undefined && output.systemMessage !== '') systemMessages.push(output.systemMessage);
    if (output.continue === false) {
      block(label, output.stopReason?.trim() || 'the hook returned continue: false without a stopReason');
    }
    if (output.decision === 'block') {
      block(label, output.reason?.trim() || 'the hook returned decision: "block" without a reason');
    }
    const specific = output.hookSpecificOutput;
    if (specific?.additionalContext !== undefined && specific.additionalContext !== '') {
      outcome.additionalContext.push(specific.additionalContext);
    }
    if (event !== 'PreToolUse') return;
    // Claude Code's older `decision: "approve"` means what `permissionDecision: "allow"` means now.
    let behavior = specific?.permissionDecision ?? (output.decision === 'approve' ? 'allow' : undefined);
    let updatedInput = specific?.updatedInput;
    const unknownIf = selected[index]!.unknownIf;
    if (unknownIf !== undefined && (behavior === 'allow' || updatedInput !== undefined)) {
      // The hook was meant for some calls only and this one could not be placed: what it
      // says may narrow the call, never widen or rewrite it.
      outcome.errors.push({
        hook: label,
        message: `its "if" condition ${JSON.stringify(unknownIf)} could not be evaluated for this ${input.tool_name} call, so it ran and its ${behavior === 'allow' ? 'allow decision' : 'rewritten input'} was not used; write the condition as a rule for the tool, such as "Bash(git *)" or "Edit(*.ts)"`,
      });
      if (behavior === 'allow') behavior = undefined;
      updatedInput = undefined;
    }
    if (behavior !== undefined) {
      const current = outcome.permissionDecision;
      if (current === undefined || STRENGTH[behavior] > STRENGTH[current.behavior]) {
        const reason =
          specific?.permissionDecisionReason ??
          (specific?.permissionDecision === undefined ? output.reason : undefined);
        outcome.permissionDecision =
          reason === undefined ? { behavior, hook: label } : { behavior, reason, hook: label };
      }
    }
    if (updatedInput !== undefined) outcome.updatedInput = updatedInput;
  });

  if (systemMessages.length > 0) outcome.systemMessages = systemMessages;
  return outcome;
}

async function runOne(hook: HookDefinition, input: HookInput, options: RunHooksOptions): Promise<HookRunResult> {
  try {
    if (typeof hook === 'function' || hook.type === 'function') {
      return await runFunctionHook(hook, input, { signal: options.signal });
    }
    if (hook.type === 'command') return await runCommandHook(hook, input, options);
    if (hook.type === 'http') return await runHttpHook(hook, input, { signal: options.signal });
    const type = (hook as { type?: unknown }).type;
    return badHook(
      hook,
      `unknown hook type ${JSON.stringify(type) ?? String(type)}; use "command", "http" or "function"`,
    );
  } catch (error) {
    // The runners never reject; this guards against a malformed hook object from settings.
    return badHook(hook, `could not run: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function badHook(hook: HookDefinition, startError: string): HookRunResult {
  let label: string;
  try {
    label = hookLabel(hook);
  } catch {
    label = 'malformed hook';
  }
  return { hook: label, exitCode: null, stdout: '', stderr: '', timedOut: false, aborted: false, startError };
}
