/**
 * The names of Claude Code's built-in tools (current and former), as its permission rules name
 * them. `rules lint` treats a rule for one of these that the pool lacks as a warning (the rule
 * is fine for Claude Code and does nothing here), not as an unknown tool.
 *
 * @example
 * ```ts
 * import { CLAUDE_CODE_TOOL_NAMES } from '@toolshed/core/internal';
 *
 * CLAUDE_CODE_TOOL_NAMES.includes('TodoWrite'); // true
 * ```
 */
export const CLAUDE_CODE_TOOL_NAMES: readonly string[] = [
  'Agent',
  'AskUserQuestion',
  'Bash',
  'BashOutput',
  'Config',
  'CronCreate',
  'CronDelete',
  'CronList',
  'Edit',
  'EnterPlanMode',
  'EnterWorktree',
  'ExitPlanMode',
  'ExitWorktree',
  'Glob',
  'Grep',
  'KillBash',
  'KillShell',
  'LS',
  'LSP',
  'ListMcpResourcesTool',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'PowerShell',
  'Read',
  'ReadMcpResourceTool',
  'SendMessage',
  'Skill',
  'SlashCommand',
  'Sleep',
  'Task',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskOutput',
  'TaskStop',
  'TaskUpdate',
  'TeamCreate',
  'TeamDelete',
  'TodoRead',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Write',
];
