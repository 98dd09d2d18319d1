import type { PermissionMode } from '@toolshed/core';

/**
 * An agent a model can start with the Agent tool, in the Claude Agent SDK's shape
 * (`agents: { name: AgentDefinition }`).
 *
 * @example
 * ```ts
 * import type { AgentDefinition } from '@toolshed/tool-agent';
 *
 * const reviewer: AgentDefinition = {
 *   description: 'Reviews a diff for bugs',
 *   prompt: 'You review code changes. Report bugs with file and line.',
 *   tools: ['Read', 'Grep', 'Glob', 'Bash'],
 *   model: 'haiku',
 * };
 * ```
 */
export interface AgentDefinition {
  /** When to use this agent; shown to the model in the Agent tool's description. */
  description: string;
  /** The sub-agent's system prompt. */
  prompt: string;
  /** The tools it may use (∩ the parent's pool); `undefined` or `['*']` for all. */
  tools?: readonly string[] | undefined;
  /** Tools it may not use. */
  disallowedTools?: readonly string[] | undefined;
  /** `sonnet`, `opus`, `haiku`, `inherit` or a model id. @default 'inherit' */
  model?: string | undefined;
  /** The mode it asks for; it never gets one more permissive than the parent's. */
  permissionMode?: PermissionMode | undefined;
  /** @default 50 */
  maxTurns?: number | undefined;
}

/** An agent definition with its name and where it came from. */
export interface LoadedAgent extends AgentDefinition {
  name: string;
  /** `built-in`, `options`, or the file it was read from. */
  source: string;
}

/**
 * Tools no sub-agent ever has: no Agent inside an agent (no recursion), and none of the
 * tools that control the parent's background work, plan mode or its user.
 *
 * @example
 * ```ts
 * import { SUB_AGENT_EXCLUDED_TOOLS } from '@toolshed/tool-agent';
 *
 * SUB_AGENT_EXCLUDED_TOOLS.includes('Agent'); // true
 * ```
 */
export const SUB_AGENT_EXCLUDED_TOOLS: readonly string[] = [
  'Agent',
  'Task',
  'TaskOutput',
  'TaskStop',
  'SendMessage',
  'EnterPlanMode',
  'ExitPlanMode',
  'AskUserQuestion',
];

const READ_ONLY_DENY = ['Edit', 'Write', 'NotebookEdit'];

/**
 * The built-in agents: `general-purpose` (every tool), `Explore` (read-only: searches and reads)
 * and `Plan` (read-only: researches and returns a plan). The read-only ones run in plan mode,
 * so even their Bash calls must be read-only.
 *
 * @example
 * ```ts
 * import { BUILT_IN_AGENTS } from '@toolshed/tool-agent';
 *
 * BUILT_IN_AGENTS.Explore?.permissionMode; // 'plan'
 * ```
 */
export const BUILT_IN_AGENTS: Readonly<Record<string, AgentDefinition>> = {
  'general-purpose': {
    description:
      'General-purpose agent for researching complex questions, searching for code and carrying out multi-step tasks. Use it when a search may take several rounds of looking.',
    prompt:
      'You are an agent working on a task given by another agent. Use the tools available to complete it fully: search broadly when you do not know where something is, read before you change, and make only the changes asked for. When done, reply with a concise report of what you found or did, with file paths; that reply is all the other agent sees.',
    tools: ['*'],
  },
  Explore: {
    description:
      'Fast read-only agent for exploring a codebase: finding files by pattern, searching code for keywords, answering questions about how the code works. It cannot edit files. Say how thorough to be: "quick", "medium" or "very thorough".',
    prompt:
      'You are a read-only search specialist. Find files with Glob, search contents with Grep, read with Read, and use Bash only for read-only commands (ls, git log, git diff). You cannot create, edit or delete files, and must not try. Reply with what you found: file paths with line numbers and the relevant snippets, concisely; that reply is all the other agent sees.',
    disallowedTools: READ_ONLY_DENY,
    permissionMode: 'plan',
  },
  Plan: {
    description:
      'Read-only software architect agent for designing an implementation plan: it explores the code and returns a step-by-step plan, the files to change and the trade-offs. It cannot edit files.',
    prompt:
      'You are a read-only software architect. Explore the code with Glob, Grep, Read and read-only Bash, then reply with an implementation plan: the steps in order, the files to change and why, the risks and trade-offs. You cannot create, edit or delete files, and must not try. Your reply is all the other agent sees.',
    disallowedTools: READ_ONLY_DENY,
    permissionMode: 'plan',
  },
};
