import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseRule } from '../permissions/rule_parser.ts';
import { matchPathRule } from '../permissions/path_rule.ts';
import type { PermissionMatcher } from '../permissions/types.ts';
import type { AnyTool } from '../tool.ts';

/**
 * Whether a hook's `if` condition holds for one call: `true` (run it), `false` (skip it), or
 * `undefined` when it cannot be told (the hook then runs, but may only block: see `runHooks`).
 */
export type HookCondition = (condition: string) => Promise<boolean | undefined>;

/** Options of {@linkcode hookConditionMatcher}. */
export interface HookConditionMatcherOptions {
  /** What a relative `file_path` is relative to. */
  cwd: string;
  /** What `~` in a `file_path` stands for. @default os.homedir() */
  homeDir?: string | undefined;
}

/**
 * The evaluator of Claude Code's hook `if` conditions for one call. A condition is a permission
 * rule: its tool name must be the tool's name or one of its aliases (exactly: `Edit` does not
 * cover Write, `mcp__github` names no tool of the server); without a specifier it holds for every
 * call of that tool. A specifier is matched as Claude Code matches it: through the tool's
 * `preparePermissionMatcher` as a deny rule would be (a compound command holds when any part
 * does), or, for a tool without one, as a Read or Edit rule's path (`src/**`, `./x`, `/x` from the
 * project's root, `//abs`, `~/x`, a bare name at any depth) against the `file_path` (or
 * `notebook_path`) of the input. Anything else — a condition that does not
 * parse, a tool with neither, a matcher that throws — is `undefined`: not known.
 *
 * @param tool The tool called.
 * @param input The call's parsed input.
 * @param options The working directory and home directory that a relative or `~` path needs.
 * @returns The evaluator, which prepares the tool's matcher once, on first use.
 *
 * @example
 * ```ts
 * import { type AnyTool } from '@toolshed/core';
 * import { hookConditionMatcher } from '@toolshed/core/internal';
 * declare const editTool: AnyTool;
 *
 * const holds = hookConditionMatcher(editTool, { file_path: 'src/a.ts' }, { cwd: '/p' });
 * await holds('Edit(*.ts)'); // true
 * await holds('Bash(git *)'); // false: another tool
 * ```
 */
export function hookConditionMatcher(
  tool: Pick<AnyTool, 'name' | 'aliases' | 'preparePermissionMatcher'>,
  input: unknown,
  options: HookConditionMatcherOptions,
): HookCondition {
  let prepared: Promise<PermissionMatcher | undefined> | undefined;
  const matcher = (): Promise<PermissionMatcher | undefined> => {
    prepared ??= (async () => {
      if (!tool.preparePermissionMatcher) return undefined;
      const m = await tool.preparePermissionMatcher(input);
      return typeof m === 'function' ? m : undefined;
    })().catch(() => undefined);
    return prepared;
  };
  return async (condition) => {
    let rule: ReturnType<typeof parseRule>;
    try {
      rule = parseRule(condition, { behavior: 'deny', source: 'a hook "if"' });
    } catch {
      return undefined;
    }
    if (rule.toolName !== tool.name && !tool.aliases.includes(rule.toolName)) return false;
    const content = rule.ruleContent;
    if (content === undefined) return true;
    if (tool.preparePermissionMatcher) {
      const match = await matcher();
      if (match === undefined) return undefined;
      try {
        return match(content, 'deny') === true;
      } catch {
        return undefined;
      }
    }
    const path = filePathOf(input, options);
    if (path === undefined) return undefined;
    try {
      // As a Read or Edit rule reads its path: `src/**` and `./x` from cwd, `/x` from the project's root, `//abs`, `~/x`.
      return matchPathRule(content, path, {
        cwd: options.cwd,
        homeDir: options.homeDir ?? homedir(),
        root: options.cwd,
        workingDirectories: [options.cwd],
      });
    } catch {
      return undefined;
    }
  };
}

/** The absolute path a file tool's input names (`file_path`, `notebook_path`), `~` expanded. */
function filePathOf(input: unknown, { cwd, homeDir }: HookConditionMatcherOptions): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  const raw = typeof record['file_path'] === 'string' ? record['file_path'] : record['notebook_path'];
  if (typeof raw !== 'string' || raw === '') return undefined;
  const home = homeDir ?? homedir();
  if (raw === '~') return home;
  return raw.startsWith('~/') ? resolve(home, raw.slice(2)) : resolve(cwd, raw);
}
