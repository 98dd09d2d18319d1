import { matchWildcardSpecifier, type PermissionResult, type ToolContext } from '@toolshed/core';
import { isPathInside, protectedPath, resolvePath } from '@toolshed/core/internal';
import { ruleBehindUnknownProgram } from './_hidden_commands.ts';
import { classifyCommand } from './classify_command.ts';
import { commandResources } from './command_resources.ts';
import { MAX_COMMAND_PARTS, splitCommand } from './command_matcher.ts';
import { commandEnv, type ResolvedShellOptions } from './shell_options.ts';

/**
 * The Bash tool's own permission check. Core's decision has already applied the Bash deny and
 * ask rules (through the command matcher) and the path guard over what `resources` declared
 * (`Read(…)`/`Edit(…)` deny and ask rules, and later protected paths and the working
 * directories); this adds what only the shell knows:
 *
 * 1. more than {@linkcode MAX_COMMAND_PARTS} simple commands → ask; a program the guard does not
 *    know whose words may run a command a `Bash(…)` deny or ask rule names (`perf stat rm x`
 *    under `Bash(rm:*)`) → ask, in every mode (a safety check);
 * 2. with the sandbox on and `autoAllow`, allow — unless the command declares a write outside
 *    what the sandbox makes writable, a protected path, a read outside the working
 *    directories, or a path not known before it runs, which are left to core's guard (file
 *    arguments not known before the command runs are declared as `unknown` resources, which
 *    core's guard asks about in every mode where a rule could be behind them);
 * 3. a compound command whose every part is allowed by some `Bash(…)` allow rule, or is
 *    read-only with every path known, is allowed (not in plan mode); core's path guard still
 *    checks its paths first;
 * 4. otherwise no opinion (`passthrough`): rules, mode and read-only auto-approval decide.
 *
 * @param command The command string.
 * @param ctx The call's context (cwd, permission rules, working directories).
 * @param options The family's options (sandbox).
 * @returns The tool's permission result.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { checkShellPermissions, loadBashParser, resolveShellOptions } from '@toolshed/tool-shell/internal';
 * declare const ctx: ToolContext;
 *
 * await loadBashParser();
 * // With deny: ['Read(./.env)'] in the session:
 * checkShellPermissions('cat $F', ctx, resolveShellOptions()).behavior; // 'ask'
 * ```
 */
export function checkShellPermissions(
  command: string,
  ctx: ToolContext,
  options: ResolvedShellOptions,
): PermissionResult {
  const split = splitCommand(command);
  if (split.parts.length > MAX_COMMAND_PARTS) {
    return {
      behavior: 'ask',
      reason: `the command has ${split.parts.length} parts, more than ${MAX_COMMAND_PARTS}, which is too many to check one by one`,
      message: `This command has ${split.parts.length} simple commands (more than ${MAX_COMMAND_PARTS}); it needs approval as a whole.`,
    };
  }
  const hidden = ruleBehindUnknownProgram(
    command,
    [...ctx.permissions.rules.deny, ...ctx.permissions.rules.ask].filter((r) => r.toolName === 'Bash'),
  );
  if (hidden) {
    const verb = hidden.rule.behavior === 'deny' ? 'denies' : 'asks about';
    const why = `${hidden.why}, which rule "${hidden.rule.raw}" ${verb}`;
    return {
      behavior: 'ask',
      safety: true,
      reason: `${why}; so it asks, in every mode`,
      message: `${why}. It needs approval, in every mode; to run it without asking, run what it runs directly, or ask the user to change the rule.`,
    };
  }
  const env = commandEnv(ctx, options);
  const dirs = ctx.permissions.workingDirectories.map((d) => resolvePath(d, ctx.cwd));
  const resources = commandResources(command, ctx.cwd, {
    homeDir: ctx.permissions.homeDir,
    env,
    workingDirectories: dirs,
  });
  // Not in plan mode, where only read-only calls run: an allow here would come before the mode's deny.
  if (options.sandbox?.autoAllow && ctx.permissions.mode !== 'plan') {
    const writable = [...dirs, ...(options.sandbox.allowWrite ?? []).map((d) => resolvePath(d, ctx.cwd))];
    const confined = resources.accesses.every((a) =>
      // The sandbox masks what deny rules name, so an unknown read stays inside; an unknown
      // write could reach a protected file inside the working directories.
      a.kind === 'unknown'
        ? a.access === 'read'
        : a.from !== undefined
          ? false // what a folder holds lands there: core judges it entry by entry
          : a.access === 'write'
            ? writable.some((d) => isPathInside(a.path, d)) && !protectedPath(a.path)
            : dirs.some((d) => isPathInside(a.path, d)),
    );
    if (confined) {
      return {
        behavior: 'allow',
        reason:
          'the command runs in the bubblewrap sandbox (read-only root, writes only to the working directories and a private /tmp) and sandbox.autoAllow is on',
      };
    }
  }
  const byParts = allowedPartByPart(split, ctx, env);
  if (byParts) return byParts;
  // Rules, the mode and read-only auto-approval decide; the message says why the command is
  // not read-only, for a permission layer that shows it.
  const classification = classifyCommand(command);
  return classification.readOnly
    ? { behavior: 'passthrough' }
    : { behavior: 'passthrough', message: `It is not read-only: ${classification.reason}.` };
}

/** Allow for a compound command each of whose parts an allow rule (or read-only) covers. */
function allowedPartByPart(
  split: ReturnType<typeof splitCommand>,
  ctx: ToolContext,
  env: Readonly<Record<string, string | undefined>>,
): PermissionResult | undefined {
  if (!split.ok || split.parts.length < 2 || ctx.permissions.mode === 'plan') return undefined;
  const rules = ctx.permissions.rules.allow.filter((r) => r.toolName === 'Bash' && r.ruleContent !== undefined);
  const used: string[] = [];
  for (const part of split.parts) {
    const rule = rules.find((r) => part.allowForms.some((form) => matchWildcardSpecifier(r.ruleContent!, form)));
    if (rule) {
      if (!used.includes(rule.raw)) used.push(rule.raw);
      continue;
    }
    if (
      classifyCommand(part.text).readOnly &&
      commandResources(part.text, ctx.cwd, {
        homeDir: ctx.permissions.homeDir,
        env,
        workingDirectories: ctx.permissions.workingDirectories.map((d) => resolvePath(d, ctx.cwd)),
      }).accesses.every((a) => a.kind !== 'unknown')
    )
      continue;
    return undefined;
  }
  if (used.length === 0) return undefined;
  return {
    behavior: 'allow',
    reason: `every part of the command is allowed: by ${used.map((r) => `"${r}"`).join(', ')}, the rest read-only`,
  };
}
