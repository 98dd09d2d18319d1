/**
 * `@toolshed/tool-agent`: Toolshed runs agents. Model adapters for the Anthropic Messages API and
 * OpenAI Chat Completions / Responses (typed against the SDK clients you pass in; the SDKs are
 * optional peer dependencies), the `runAgent` loop, the Agent tool (alias Task) with sub-agents
 * in narrowed child sessions, background agents and SendMessage, and the planning tools
 * (TodoWrite, file-backed task lists, AskUserQuestion, plan mode, worktrees, Skill, Sleep).
 *
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { createSession } from '@toolshed/core';
 * import { fileTools } from '@toolshed/tool-fs';
 * import { agentTools, anthropicModel, runAgent } from '@toolshed/tool-agent';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [fileTools(), agentTools()] });
 * const model = anthropicModel({ client: new Anthropic(), model: 'claude-sonnet-5-5' });
 * const result = await runAgent({ session, model, prompt: 'Find and fix the typo in src/' });
 * console.log(result.text);
 * await session.close();
 * ```
 *
 * @module
 */
export { agentTools, type AgentToolsOptions } from './family.ts';
export { ModelError, modelErrorOf, parseToolArguments, textOf } from './model_adapter.ts';
export type {
  AgentMessage,
  MessageBlock,
  ModelAdapter,
  ModelStreamEvent,
  ModelTurn,
  ModelTurnRequest,
  ModelUsage,
  StopReason,
} from './model_adapter.ts';
export {
  anthropicModel,
  type AnthropicClientLike,
  type AnthropicCreateBody,
  type AnthropicModelOptions,
} from './anthropic_model.ts';
export {
  openaiChatModel,
  type OpenAIChatClientLike,
  type OpenAIChatCreateBody,
  type OpenAIChatModelOptions,
} from './openai_chat_model.ts';
export {
  openaiResponsesModel,
  type OpenAIResponsesClientLike,
  type OpenAIResponsesCreateBody,
  type OpenAIResponsesModelOptions,
} from './openai_responses_model.ts';
export {
  runAgent,
  type AgentEvent,
  type AgentStopReason,
  type AgentTurn,
  type RunAgentOptions,
  type RunAgentResult,
} from './run_agent.ts';
export {
  BUILT_IN_AGENTS,
  SUB_AGENT_EXCLUDED_TOOLS,
  type AgentDefinition,
  type LoadedAgent,
} from './agent_definition.ts';
export {
  agentDirectories,
  loadAgentFiles,
  parseAgentFile,
  type AgentFileProblem,
  type LoadAgentFilesOptions,
} from './load_agent_files.ts';
export {
  agentInput,
  agentModelKey,
  agentRegistry,
  agentRegistryKey,
  agentsFromOptions,
  builtInAgents,
  createAgentTool,
  type AgentRegistry,
  type AgentToolConfig,
  type AgentToolResult,
} from './agent_tool.ts';
export { sendMessageInput, sendMessageTool, type SendMessageResult } from './send_message_tool.ts';
export { ANTHROPIC_MODEL_ALIASES, modelFor } from './model_for.ts';
export {
  askUserQuestionInput,
  askUserQuestionTool,
  QUESTION_UNANSWERED,
  type QuestionAnswer,
} from './ask_user_question_tool.ts';
export { createPlanModeTools, enterPlanModeInput, exitPlanModeInput } from './plan_mode_tools.ts';
export {
  loadSkills,
  type LoadSkillsOptions,
  type Skill,
  type SkillDefinition,
  type SkillProblem,
} from './skill/load_skills.ts';
export { createSkillTool, SKILL_NOT_FOUND, skillInput, type SkillToolOptions } from './skill/skill_tool.ts';
export { FILE_SKILL_SOURCE, fileSkillSource } from './skill/skill_source.ts';
export { MAX_SLEEP_SECONDS, sleepInput, sleepTool } from './sleep_tool.ts';
export { taskListFolder, type TaskListLocationOptions } from './task_list/task_list_location.ts';
export {
  corruptMessage,
  isCorrupt,
  TaskStore,
  type CorruptTask,
  type TaskChanges,
  type TaskRecord,
  type TaskStatus,
  type TaskStoreOptions,
  type TaskUpdateOutcome,
  type TaskUpdateRefusal,
} from './task_list/task_store.ts';
export {
  TASK_REFUSED,
  taskCreateInput,
  taskGetInput,
  taskListInput,
  taskListTools,
  taskUpdateInput,
  type TaskListToolsOptions,
} from './task_list/task_tools.ts';
export {
  createTodoWriteTool,
  renderChecklist,
  todoWriteInput,
  type Todo,
  type TodoWriteOutput,
} from './todo_write_tool.ts';
export {
  createWorktreeTools,
  enterWorktreeInput,
  exitWorktreeInput,
  WORKTREE_FAILED,
  type WorktreeSession,
} from './worktree/worktree_tools.ts';
