import type { PermissionDecision } from '@toolshed/core';
import type { CommandInvocation } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { readJsonInput } from './_read_input.ts';
import { withSession } from './session_from_args.ts';

/** What `toolshed check --json` prints: always these five keys, `null` where a decision has none. */
export interface CheckOutput {
  behavior: PermissionDecision['behavior'];
  reason: string;
  rule: string | null;
  source: string | null;
  /** For an ask: the allow rules that would allow the call (empty when none is safe to suggest). */
  suggestions: string[];
}

/**
 * `toolshed check <Tool> <json|-> [--json]`: the permission decision for a call, without running
 * the tool or its hooks (`session.explain`). Prints `allow|ask|deny: reason (rule "X" from SOURCE)`,
 * or with `--json` `{ "behavior", "reason", "rule", "source", "suggestions" }`.
 *
 * @param invocation The tool name, the input (or `-` for stdin) and the flags.
 * @param io The CLI's streams.
 * @returns 0: the decision was printed, whatever it is.
 * @throws {UsageError} When the input is not a JSON object.
 *
 * @example
 * ```ts
 * import { checkCommand, type CliIo, type CommonArgs } from '@toolshed/cli';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await checkCommand({ positionals: ['Bash', '{"command":"rm -rf /"}'], args }, io);
 * // deny: Denied by rule "Bash(rm:*)" from cli
 * ```
 */
export async function checkCommand(invocation: CommandInvocation, io: CliIo): Promise<number> {
  const { positionals, args } = invocation;
  const name = positionals[0]!;
  const input = await readJsonInput(positionals[1]!, { command: 'check', position: 2, io });
  return withSession(args, io, {
    run: async (session) => {
      // A deny rule without a specifier (`--deny Write`) takes the tool out of the pool; core's
      // explain still names that rule and its source rather than "No such tool available".
      const decision = await session.explain(name, input);
      const output: CheckOutput = {
        behavior: decision.behavior,
        reason: decision.reason,
        rule: decision.rule ?? null,
        source: decision.source ?? null,
        suggestions: decision.suggestions ?? [],
      };
      io.stdout.write(args.json ? `${JSON.stringify(output, null, 2)}\n` : `${formatDecision(output)}\n`);
      return 0;
    },
  });
}

/**
 * The one-line text form of a decision.
 *
 * @param decision The decision, as {@linkcode CheckOutput}.
 * @returns `allow|ask|deny: reason (rule "X" from SOURCE)`; the part in parentheses only says
 *   what the decision has, and is left out when the reason names the rule and its source already.
 *
 * @example
 * ```ts
 * import { formatDecision } from '@toolshed/cli';
 *
 * formatDecision({ behavior: 'deny', reason: 'Denied', rule: 'Bash', source: 'cli' }); // 'deny: Denied (rule "Bash" from cli)'
 * formatDecision({ behavior: 'deny', reason: 'Denied by rule "Bash" from cli', rule: 'Bash', source: 'cli' }); // 'deny: Denied by rule "Bash" from cli'
 * ```
 */
export function formatDecision(decision: Omit<CheckOutput, 'suggestions'> & { suggestions?: string[] }): string {
  // Core's reason often names the rule and its source already ("Denied by rule "X" from F"): not twice.
  const named =
    decision.rule !== null &&
    decision.reason.includes(`"${decision.rule}"`) &&
    (decision.source === null || decision.reason.includes(decision.source));
  const origin = named
    ? ''
    : decision.rule !== null
      ? ` (rule "${decision.rule}" from ${decision.source ?? 'an unknown source'})`
      : decision.source !== null
        ? ` (from ${decision.source})`
        : '';
  const rules =
    decision.suggestions && decision.suggestions.length > 1
      ? `\n  rules that would allow it: ${decision.suggestions.join(' ')}`
      : '';
  return `${decision.behavior}: ${decision.reason}${origin}${rules}`;
}
