import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  backgroundTasksOf,
  buildTool,
  openChildSession,
  openTaskLog,
  serviceKey,
  type BackgroundTask,
  type PermissionResult,
  type ServiceKey,
  type Session,
  type TaskLog,
  type TaskStatus,
  type Tool,
  type ToolContext,
} from '@toolshed/core';
import { UnreadBuffer } from '@toolshed/core/internal';
import {
  BUILT_IN_AGENTS,
  SUB_AGENT_EXCLUDED_TOOLS,
  type AgentDefinition,
  type LoadedAgent,
} from './agent_definition.ts';
import { runAgent, type AgentEvent, type RunAgentResult } from './run_agent.ts';
import { modelFor as defaultModelFor } from './model_for.ts';
import type { ModelAdapter } from './model_adapter.ts';
import { activeModels } from './_active_models.ts';
import { createGitWorktree } from './worktree/worktree_tools.ts';

/**
 * Input of the Agent tool (Claude Code's fields).
 *
 * @example
 * ```ts
 * import { agentInput } from '@toolshed/tool-agent';
 *
 * agentInput.parse({ description: 'Find the parser', prompt: 'Where is the config parsed?', subagent_type: 'Explore' });
 * ```
 */
export const agentInput = z.object({
  description: z.string().min(1).describe('A short (3-5 word) description of the task'),
  prompt: z
    .string()
    .min(1)
    .describe(
      'The task for the agent to perform: everything it needs to know, since it sees nothing else of this conversation',
    ),
  subagent_type: z
    .string()
    .min(1)
    .optional()
    .describe('The type of agent to use (see the list in this description); default general-purpose'),
  model: z
    .string()
    .min(1)
    .optional()
    .describe("A model for this agent: sonnet, opus, haiku or a model id; default the agent definition's, else yours"),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Run the agent in the background: returns a task id at once; read its output with TaskOutput, stop it with TaskStop',
    ),
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional()
    .describe('A name for a background agent, so SendMessage can reach it while it runs'),
  isolation: z
    .enum(['worktree'])
    .optional()
    .describe(
      '"worktree": the agent works in a new git worktree of the project on its own branch, so its edits stay out of your checkout until merged',
    ),
});

/** What the Agent tool returns. */
export interface AgentToolResult {
  agent_id: string;
  subagent_type: string;
  /** Set for a background agent: the task id for TaskOutput and TaskStop. */
  task_id?: string;
  /** The sub-agent's final text (empty for a background agent). */
  text: string;
  /** With `isolation: "worktree"`: the worktree holding the agent's changes, and its branch. */
  worktree_path?: string;
  worktree_branch?: string;
  /** One line: tool calls, tokens, seconds, why it stopped. */
  summary: string;
  stop_reason: string;
  transcript_path: string;
}

/** The agents of one session (built-ins, options, files), for the Agent tool. */
export interface AgentRegistry {
  list(): readonly LoadedAgent[];
  get(name: string): LoadedAgent | undefined;
}

/**
 * Where a session keeps its {@linkcode AgentRegistry}: the agent family's setup puts it there.
 *
 * @example
 * ```ts
 * import { agentRegistryKey } from '@toolshed/tool-agent';
 * import type { ToolContext } from '@toolshed/core';
 * declare const ctx: ToolContext;
 *
 * ctx.services.get(agentRegistryKey)?.list().map((a) => a.name);
 * ```
 */
export const agentRegistryKey: ServiceKey<AgentRegistry> = serviceKey<AgentRegistry>('toolshed.agent.registry');

/**
 * Where a session may keep the model sub-agents inherit (otherwise: the model of the running
 * `runAgent`, or the family's `model` option).
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { agentModelKey, agentTools, type ModelAdapter } from '@toolshed/tool-agent';
 * declare const cwd: string;
 * declare const model: ModelAdapter;
 *
 * await createSession({ cwd, families: [agentTools()], services: [[agentModelKey, model]] });
 * ```
 */
export const agentModelKey: ServiceKey<ModelAdapter> = serviceKey<ModelAdapter>('toolshed.agent.model');

/** How {@linkcode createAgentTool} finds agents and models. */
export interface AgentToolConfig {
  /** The agents for a working directory (the tool's description lists them). */
  agentsFor(cwd: string): readonly LoadedAgent[];
  /** The parent's model when no session service or running loop gives one. */
  model?: ModelAdapter | undefined;
  /** Maps a `model` name to an adapter. @default {@linkcode modelFor} */
  modelFor?: ((model: string | undefined, parent: ModelAdapter) => ModelAdapter) | undefined;
  /** @default 50 */
  maxTurns?: number | undefined;
}

/**
 * An agent registry of built-ins, then definitions given in code, then files (later wins).
 *
 * @param agents Layers of agents, in order.
 * @returns The registry.
 *
 * @example
 * ```ts
 * import { agentRegistry, agentsFromOptions, builtInAgents, loadAgentFiles } from '@toolshed/tool-agent';
 *
 * const fromOptions = agentsFromOptions({ reviewer: { description: 'Reviews diffs', prompt: 'You review diffs.' } });
 * const fromFiles = await loadAgentFiles({ cwd: process.cwd() });
 * const registry = agentRegistry([builtInAgents(), fromOptions, fromFiles.agents]);
 * ```
 */
export function agentRegistry(agents: readonly (readonly LoadedAgent[])[]): AgentRegistry {
  const byName = new Map<string, LoadedAgent>();
  for (const layer of agents) for (const agent of layer) byName.set(agent.name, agent);
  const list = [...byName.values()];
  return { list: () => list, get: (name) => byName.get(name) };
}

/**
 * The built-in agents as loaded agents.
 *
 * @returns general-purpose, Explore and Plan.
 *
 * @example
 * ```ts
 * import { builtInAgents } from '@toolshed/tool-agent';
 *
 * builtInAgents().map((a) => a.name); // ['general-purpose', 'Explore', 'Plan']
 * ```
 */
export function builtInAgents(): LoadedAgent[] {
  return Object.entries(BUILT_IN_AGENTS).map(([name, def]) => ({ ...def, name, source: 'built-in' }));
}

/**
 * Agents given in code (`agentTools({ agents })`), checked.
 *
 * @param agents Name → definition.
 * @returns The loaded agents.
 * @throws {TypeError} When a definition lacks a description or a prompt.
 *
 * @example
 * ```ts
 * import { agentsFromOptions } from '@toolshed/tool-agent';
 *
 * agentsFromOptions({ reviewer: { description: 'Reviews diffs', prompt: 'You review diffs.' } });
 * ```
 */
export function agentsFromOptions(agents: Readonly<Record<string, AgentDefinition>> = {}): LoadedAgent[] {
  return Object.entries(agents).map(([name, def]) => {
    if (
      !def ||
      typeof def.description !== 'string' ||
      !def.description ||
      typeof def.prompt !== 'string' ||
      !def.prompt
    ) {
      throw new TypeError(`Agent "${name}" needs a description and a prompt (strings), got ${JSON.stringify(def)}`);
    }
    return { ...def, name, source: 'options' };
  });
}

function describeAgents(agents: readonly LoadedAgent[]): string {
  return agents
    .map((a) => {
      const tools = a.tools && !a.tools.includes('*') ? a.tools.join(', ') : 'all tools';
      const without = a.disallowedTools?.length ? ` except ${a.disallowedTools.join(', ')}` : '';
      return `- ${a.name}: ${a.description} (Tools: ${tools}${without})`;
    })
    .join('\n');
}

function summaryLine(type: string, result: RunAgentResult): string {
  const calls = Object.values(result.toolCalls).reduce((a, b) => a + b, 0);
  const tokens = result.usage.inputTokens + result.usage.outputTokens;
  return `[${type} agent: ${calls} tool call${calls === 1 ? '' : 's'}, ${tokens} tokens, ${(result.durationMs / 1000).toFixed(1)} s, stopped: ${result.stopReason}${result.error ? ` (${result.error})` : ''}]`;
}

async function writeTranscript(
  file: string,
  meta: Record<string, unknown>,
  result: RunAgentResult | undefined,
): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(
      file,
      `${JSON.stringify({ ...meta, ...(result ? { stopReason: result.stopReason, usage: result.usage, toolCalls: result.toolCalls, messages: result.messages } : {}) }, null, 1)}\n`,
      { mode: 0o600 },
    );
  } catch {
    // A transcript that cannot be written must not fail the agent's result.
  }
}

function systemPromptFor(agent: LoadedAgent, child: Session): string {
  return `${agent.prompt}\n\nWorking directory: ${child.cwd}. Paths in your reply should be absolute or relative to it.`;
}

let agentCounter = 0;

/**
 * Builds the Agent tool (alias `Task`): it starts a sub-agent in a child session that core
 * opens — the parent's pool ∩ the definition's tools − its disallowed tools − Agent and the
 * task-control and plan-mode tools; the parent's rules and mode hold (a mode can only narrow);
 * asks go to the parent's `canUseTool`; its own file-state cache; the parent's abort aborts it.
 * The result is the sub-agent's final text and a one-line summary; the transcript is kept under
 * the state dir. With `run_in_background` it returns a task id at once.
 *
 * @param config Where agents and the model come from.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { builtInAgents, createAgentTool, type ModelAdapter } from '@toolshed/tool-agent';
 * declare const cwd: string;
 * declare const model: ModelAdapter;
 *
 * const agent = createAgentTool({ agentsFor: () => builtInAgents(), model });
 * const session = await createSession({ cwd, tools: [agent] });
 * ```
 */
export function createAgentTool(config: AgentToolConfig): Tool<typeof agentInput, AgentToolResult> {
  const agentsOf = (ctx: Pick<ToolContext, 'services' | 'cwd'>) =>
    ctx.services.get(agentRegistryKey)?.list() ?? config.agentsFor(ctx.cwd);
  return buildTool({
    name: 'Agent',
    aliases: ['Task'],
    searchHint: 'start sub-agent delegate task explore plan in parallel background',
    async description({ cwd }) {
      return agentToolDescription(config.agentsFor(cwd));
    },
    inputSchema: agentInput,
    // The Agent call itself touches nothing: every call the sub-agent makes is checked
    // with this session's rules, in a mode never more permissive than this one's. A worktree
    // for it is a write (a branch and a checkout), which plan mode does not allow.
    isReadOnly: (input) => input.isolation !== 'worktree',
    isConcurrencySafe: () => true,
    checkPermissions: agentPermission,
    preparePermissionMatcher:
      ({ subagent_type }) =>
      (rule) =>
        rule === (subagent_type ?? 'general-purpose'),
    getToolUseSummary: ({ description, subagent_type }) => `${subagent_type ?? 'general-purpose'}: ${description}`,
    renderToolUse: ({ description, subagent_type, run_in_background }) =>
      `${subagent_type ?? 'general-purpose'} agent: ${description}${run_in_background ? '  (background)' : ''}`,
    interruptBehavior: 'cancel',
    maxResultSizeChars: 100_000,
    mapResult: agentResultText,
    async call(input, ctx, { onProgress, signal }) {
      const type = input.subagent_type ?? 'general-purpose';
      const agents = agentsOf(ctx);
      const agent = agents.find((a) => a.name === type);
      if (!agent)
        throw new Error(
          `No agent type "${type}"; the types are ${agents.map((a) => a.name).join(', ')}. Pick one of them as subagent_type.`,
        );
      const parent = config.model ?? ctx.services.get(agentModelKey) ?? activeModels.get(ctx.sessionId);
      if (!parent)
        throw new Error(
          'No model to run the agent with: run this session through runAgent, or give agentTools({ model }) a model adapter',
        );
      const model = (config.modelFor ?? ((m, p) => defaultModelFor(p, m)))(input.model ?? agent.model, parent);
      const background = input.run_in_background === true;
      const tasks = background ? backgroundTasksOf(ctx) : undefined;
      if (
        background &&
        input.name &&
        tasks!.list().some((t) => t.kind === 'agent' && t.name === input.name && t.status === 'running')
      ) {
        throw new Error(
          `A background agent named "${input.name}" is running already; give this one another name, or send it a message with SendMessage`,
        );
      }
      const agentId = background
        ? tasks!.newId('agent')
        : `agent_${++agentCounter}_${Math.random().toString(36).slice(2, 8)}`;
      const transcriptPath = path.join(ctx.stateDir, 'agents', `${agentId}.json`);
      const controller = new AbortController();
      // The parent's abort aborts a foreground child; a background one lives until TaskStop or close.
      const childSignal = background ? controller.signal : AbortSignal.any([signal, controller.signal]);
      // isolation: "worktree" — a fresh worktree of the project is the child's only working directory.
      const worktree =
        input.isolation === 'worktree'
          ? await createGitWorktree({
              cwd: ctx.cwd,
              stateDir: ctx.stateDir,
              name: agentId.replace(/[^A-Za-z0-9._-]/g, '-'),
              trusted: ctx.projectTrusted === true,
              signal,
            })
          : undefined;
      const child = await openChildSession(ctx, {
        ...(worktree ? { cwd: worktree.cwd } : {}),
        tools: agent.tools,
        disallowedTools: [...(agent.disallowedTools ?? []), ...SUB_AGENT_EXCLUDED_TOOLS],
        mode: agent.permissionMode,
        signal: childSignal,
        source: `agent "${agent.name}"`,
        sessionId: `${ctx.sessionId}/${agentId}`,
        stateDir: path.join(ctx.stateDir, 'agents', agentId),
      });
      const meta = {
        agentId,
        subagentType: agent.name,
        description: input.description,
        prompt: input.prompt,
        model: model.model,
        parentSessionId: ctx.sessionId,
      };
      const run = (onEvent: (e: AgentEvent) => void, inbox?: () => readonly string[]) =>
        runAgent({
          session: child,
          model,
          system: systemPromptFor(agent, child),
          prompt: input.prompt,
          maxTurns: agent.maxTurns ?? config.maxTurns ?? 50,
          signal: childSignal,
          onEvent,
          inbox,
        }).finally(() => child.close());

      if (!background) {
        const result = await run((event) => {
          if (event.type === 'session' && event.event.type === 'tool_start')
            onProgress({
              message: `${agent.name}: ${event.event.toolName}`,
              agent: agentId,
              tool: event.event.toolName,
            });
        });
        await writeTranscript(transcriptPath, meta, result);
        const where = worktree
          ? ` Its changes are in the worktree ${worktree.worktreePath} on branch ${worktree.branch} (kept: review and merge it, or remove it with git worktree remove).`
          : '';
        const data: AgentToolResult = {
          agent_id: agentId,
          subagent_type: agent.name,
          text: result.text,
          summary: `${summaryLine(agent.name, result)}${where}`,
          stop_reason: result.stopReason,
          transcript_path: transcriptPath,
          ...(worktree ? { worktree_path: worktree.worktreePath, worktree_branch: worktree.branch } : {}),
        };
        if (result.stopReason === 'aborted' && signal.aborted) throw new Error(`The ${agent.name} agent was aborted`);
        return { data, ...(result.stopReason === 'model_error' ? { isError: true } : {}) };
      }

      const log = openTaskLog(path.join(ctx.stateDir, 'tasks'), agentId);
      const task = new AgentTask(agentId, input.name, agent.name, input.description, log, controller);
      tasks!.add(task);
      task.start(
        run,
        async (result) => writeTranscript(transcriptPath, meta, result),
        (result) => summaryLine(agent.name, result),
      );
      return {
        data: {
          agent_id: input.name ?? agentId,
          subagent_type: agent.name,
          task_id: agentId,
          text: '',
          summary: '',
          stop_reason: 'running',
          transcript_path: transcriptPath,
        },
      };
    },
  });
}

/** Allowed (each call of the sub-agent is checked on its own), but a worktree is a write plan mode refuses. */
function agentPermission(input: z.output<typeof agentInput>, ctx: ToolContext): PermissionResult {
  return input.isolation === 'worktree' && ctx.permissions.mode === 'plan'
    ? {
        behavior: 'deny',
        message:
          'Agent with isolation "worktree" was not run: the session is in plan mode, and making a worktree writes a branch and a checkout. Start the agent without isolation (its calls stay read-only in plan mode), or present your plan first.',
      }
    : { behavior: 'allow', reason: 'each call of the sub-agent is checked on its own' };
}

/** The Agent tool's description: the agent types with their tools, and how to use them. */
function agentToolDescription(agents: readonly LoadedAgent[]): string {
  return `Starts a sub-agent to handle a complex, multi-step task on its own. The agent types and the tools each has:
${describeAgents(agents)}

- Give subagent_type (default general-purpose) and a prompt with everything the agent needs: it sees none of this conversation, and its final reply is all you get back (with a one-line summary).
- Start several agents in one message to run them in parallel. Explore and Plan cannot edit files.
- run_in_background: true returns a task id at once; read its output with TaskOutput, stop it with TaskStop, and reach a named one (name) with SendMessage while it runs.
- An agent's tools and permissions are yours or fewer, never more; it cannot start agents.`;
}

/** What the model reads of an Agent call: the agent's reply and summary, or the background task's handles. */
function agentResultText(r: AgentToolResult): string {
  return r.task_id
    ? `Started ${r.subagent_type} agent in the background with task id ${r.task_id}${r.agent_id !== r.task_id ? ` (name ${r.agent_id})` : ''}. Read its output with TaskOutput({"task_id":"${r.task_id}"}), stop it with TaskStop${r.agent_id !== r.task_id ? `, and send it messages with SendMessage({"to":"${r.agent_id}", ...})` : ''}. Transcript: ${r.transcript_path}`
    : `${r.text || '(the agent gave no final text)'}\n\n${r.summary}`;
}

/** A background sub-agent in the session's shared task registry. */
class AgentTask implements BackgroundTask {
  readonly kind = 'agent';
  status: TaskStatus = 'running';
  exitCode: number | null = null;
  signal: NodeJS.Signals | null = null;
  stopReason: string | undefined;
  #unread = new UnreadBuffer();
  #inbox: string[] = [];
  #done: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(
    readonly id: string,
    readonly name: string | undefined,
    readonly agentType: string,
    readonly description: string,
    readonly log: TaskLog,
    readonly controller: AbortController,
  ) {}

  get command(): string {
    return `${this.agentType} agent: ${this.description}`;
  }

  get logPath(): string {
    return this.log.path;
  }

  start(
    run: (onEvent: (e: AgentEvent) => void, inbox: () => readonly string[]) => Promise<RunAgentResult>,
    onResult: (result: RunAgentResult | undefined) => Promise<void>,
    summary: (result: RunAgentResult) => string,
  ): void {
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'text') this.#write(event.text);
      else if (event.type === 'tool_use') this.#write(`\n[tool ${event.block.name}]\n`);
      else if (event.type === 'inbox') this.#write(`\n[message received: ${event.messages.join(' | ')}]\n`);
    };
    this.#done = run(onEvent, () => this.#inbox.splice(0))
      .then(async (result) => {
        this.#write(`\n\n${summary(result)}\n`);
        await onResult(result);
        this.status =
          this.#stopped || result.stopReason === 'aborted'
            ? 'killed'
            : result.stopReason === 'model_error'
              ? 'failed'
              : 'completed';
        this.exitCode = this.status === 'completed' ? 0 : 1;
      })
      .catch(async (e: unknown) => {
        this.#write(`\n\nThe agent failed: ${(e as Error).message}\n`);
        await onResult(undefined);
        this.status = this.#stopped ? 'killed' : 'failed';
        this.exitCode = 1;
      })
      .finally(() => this.log.close());
  }

  #write(text: string): void {
    this.#unread.push(text);
    if (!this.log.write(text) && !this.#stopped) {
      this.stopReason = `It was stopped because its log reached the cap of ${this.log.bytes} bytes.`;
      void this.stop();
    }
  }

  takeUnread(): { text: string; skippedChars: number } {
    return this.#unread.take();
  }

  send(message: string): void {
    this.#inbox.push(message);
  }

  async wait(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.status !== 'running') return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const ended = await Promise.race([
      this.#done.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        onAbort = () => resolve(false);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    return ended;
  }

  async stop(): Promise<void> {
    if (this.status === 'running') {
      this.#stopped = true;
      this.controller.abort(new Error('stopped with TaskStop'));
    }
    await this.#done;
  }
}
