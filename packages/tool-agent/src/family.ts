import { createRequire } from 'node:module';
import path from 'node:path';
import {
  defineFamily,
  skillSourcesOf,
  taskOutputTool,
  taskStopTool,
  type Family,
  type SkillSources,
} from '@toolshed/core';
import type { AgentDefinition, LoadedAgent } from './agent_definition.ts';
import { agentRegistry, agentRegistryKey, agentsFromOptions, builtInAgents, createAgentTool } from './agent_tool.ts';
import { loadAgentFiles } from './load_agent_files.ts';
import { sendMessageTool } from './send_message_tool.ts';
import type { ModelAdapter } from './model_adapter.ts';
import { askUserQuestionTool } from './ask_user_question_tool.ts';
import { createPlanModeTools } from './plan_mode_tools.ts';
import type { SkillDefinition } from './skill/load_skills.ts';
import { createSkillTool } from './skill/skill_tool.ts';
import { fileSkillSource } from './skill/skill_source.ts';
import { sleepTool } from './sleep_tool.ts';
import { taskListTools, type TaskListToolsOptions } from './task_list/task_tools.ts';
import { createTodoWriteTool } from './todo_write_tool.ts';
import { createWorktreeTools } from './worktree/worktree_tools.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode agentTools}. */
export interface AgentToolsOptions {
  /** Agents in the Claude Agent SDK's shape, on top of the built-ins (and below the files). @default {} */
  agents?: Readonly<Record<string, AgentDefinition>>;
  /** Read `.claude/agents/*.md` and `.toolshed/agents/*.md` of the user and the project. @default ['user', 'project'] */
  agentFiles?: readonly ('user' | 'project')[];
  /** Offer general-purpose, Explore and Plan. @default true */
  builtInAgents?: boolean;
  /**
   * The model sub-agents inherit. Without it: the session's `agentModelKey` service, else the
   * model of the `runAgent` that drives the session.
   */
  model?: ModelAdapter;
  /** Maps a `model` name (`sonnet`, `opus`, `haiku`, an id) to an adapter. @default {@linkcode modelFor} */
  modelFor?: (model: string | undefined, parent: ModelAdapter) => ModelAdapter;
  /** A sub-agent's turns, unless its definition says. @default 50 */
  maxTurns?: number;
  /** What `~` is, for the user's agent and skill folders and the task lists. @default os.homedir() */
  homeDir?: string;
  /** Which shared task list TaskCreate/Get/Update/List use and where it lives. @default one list per project under `~/.toolshed/tasks` */
  tasks?: TaskListToolsOptions;
  /** Skills given in code, on top of the `SKILL.md` folders found. @default [] */
  skills?: readonly SkillDefinition[];
  /** More folders of skill folders, besides `.claude/skills` and `.toolshed/skills` of the user and the project. @default [] */
  skillDirs?: readonly string[];
}

/**
 * The `agent` family: Agent (alias Task) to start sub-agents, SendMessage to reach a running
 * background agent, and the shared TaskOutput and TaskStop (core's, the same tools the shell
 * family lists) to read and stop them; and the planning tools: TodoWrite, the shared task list
 * (TaskCreate, TaskGet, TaskUpdate, TaskList), AskUserQuestion, EnterPlanMode/ExitPlanMode,
 * EnterWorktree/ExitWorktree, Skill and Sleep. Its setup reads the agent files of the user and the
 * project; a malformed file is reported as a session notice (file, key, fix) and skipped.
 *
 * @param options Agents, agent files, the model.
 * @returns The family, for `createSession({ families })`.
 * @throws {TypeError} When an agent of `agents` lacks a description or a prompt.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { agentTools, runAgent, type ModelAdapter } from '@toolshed/tool-agent';
 * import { fileTools } from '@toolshed/tool-fs';
 * declare const model: ModelAdapter;
 *
 * const session = await createSession({ cwd: process.cwd(), families: [fileTools(), agentTools({ agents: { reviewer: { description: 'Reviews diffs', prompt: 'You review diffs.' } } })] });
 * const result = await runAgent({ session, model, prompt: 'Use the reviewer agent on the last commit' });
 * ```
 */
export function agentTools(options: AgentToolsOptions = {}): Family {
  const base: LoadedAgent[][] = [
    options.builtInAgents === false ? [] : builtInAgents(),
    agentsFromOptions(options.agents),
  ];
  const byCwd = new Map<string, LoadedAgent[]>();
  const agentsFor = (cwd: string) => byCwd.get(cwd) ?? agentRegistry(base).list();
  const agent = createAgentTool({
    agentsFor,
    model: options.model,
    modelFor: options.modelFor,
    maxTurns: options.maxTurns,
  });
  const home = options.homeDir;
  const skillOptions = {
    ...(home ? { homeDir: home } : {}),
    ...(options.skills ? { skills: options.skills } : {}),
    ...(options.skillDirs ? { skillDirs: options.skillDirs } : {}),
  };
  // The session's skill sources (an MCP server's prompts), as its setup saw them, for Skill's description.
  const skillSources = new Map<string, SkillSources>();
  const planning = [
    createTodoWriteTool().tool,
    ...taskListTools({
      ...(home && !options.tasks?.tasksDir ? { tasksDir: path.join(home, '.toolshed', 'tasks') } : {}),
      ...options.tasks,
    }),
    askUserQuestionTool,
    ...createPlanModeTools(),
    ...createWorktreeTools(),
    createSkillTool({ ...skillOptions, sourcesFor: (cwd) => skillSources.get(cwd) }),
    sleepTool,
  ];
  return defineFamily({
    name: 'agent',
    version,
    tools: [agent, sendMessageTool, taskOutputTool, taskStopTool, ...planning],
    async setup(api) {
      const sources = options.agentFiles ?? ['user', 'project'];
      const { agents, problems } = sources.length
        ? await loadAgentFiles({ cwd: api.cwd, homeDir: options.homeDir, sources })
        : { agents: [], problems: [] };
      for (const problem of problems)
        api.emit({
          type: 'notice',
          level: 'warn',
          message: `Agent file skipped or partly ignored: ${problem.message}`,
        });
      const registry = agentRegistry([...base, agents]);
      byCwd.set(api.cwd, [...registry.list()]);
      api.services.set(agentRegistryKey, registry);
      // The skill files are a skill source too: a served session offers them as MCP prompts.
      const skillRegistry = skillSourcesOf(api);
      api.onClose(skillRegistry.add(fileSkillSource(api.cwd, skillOptions)));
      skillSources.set(api.cwd, skillRegistry);
    },
  });
}
