import { z } from 'zod';
import { backgroundTasksOf, buildTool, type Tool } from '@toolshed/core';

/**
 * Input of the SendMessage tool.
 *
 * @example
 * ```ts
 * import { sendMessageInput } from '@toolshed/tool-agent';
 *
 * sendMessageInput.parse({ to: 'researcher', message: 'Also check the tests folder' });
 * ```
 */
export const sendMessageInput = z.object({
  to: z.string().min(1).describe('The name (or task id) of a running background agent, or "*" for every running one'),
  message: z.string().min(1).describe('The message; the agent reads it at its next turn'),
  summary: z.string().optional().describe('A 5-10 word preview of the message, shown to the user'),
});

/** What SendMessage returns. */
export interface SendMessageResult {
  to: string;
  /** The tasks the message was queued for. */
  task_ids: string[];
}

/**
 * SendMessage: queues a message for a running background agent (started by Agent with
 * `run_in_background` and a `name`), or with `to: "*"` for every running one; the agent reads it
 * at its next turn. An unknown or
 * finished name is an error that lists the agents still running.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * declare const session: Session; // with agentTools(), an agent named 'researcher' running in the background
 *
 * await session.run([{ type: 'tool_use', id: 't1', name: 'SendMessage', input: { to: 'researcher', message: 'Stop after the first match' } }]);
 * ```
 */
export const sendMessageTool: Tool<typeof sendMessageInput, SendMessageResult> = buildTool({
  name: 'SendMessage',
  searchHint: 'message send running background agent',
  description:
    'Sends a message to a running background agent (one started with Agent, run_in_background: true and a name). The agent reads it at the start of its next turn; your own text is not visible to it. Use the agent\'s name or its task id, or "*" for every running agent (use sparingly).',
  inputSchema: sendMessageInput,
  checkPermissions: () => ({ behavior: 'allow', reason: 'it only messages an agent this session started' }),
  getToolUseSummary: ({ to, summary }) => (summary ? `${to}: ${summary}` : to),
  mapResult: (r) =>
    `Message queued for ${r.to} (task ${r.task_ids.join(', ')}); ${r.task_ids.length > 1 ? 'each reads it' : 'it reads it'} at its next turn.`,
  async call({ to, message }, ctx) {
    const agents = backgroundTasksOf(ctx)
      .list()
      .filter((t) => t.kind === 'agent');
    const live = agents.filter((t) => t.status === 'running' && t.send);
    const targets =
      to === '*'
        ? live
        : [live.find((t) => t.name === to) ?? live.find((t) => t.id === to)].filter((t) => t !== undefined);
    if (!targets.length) {
      const known = to === '*' ? undefined : agents.find((t) => t.name === to || t.id === to);
      const names = live.map((t) => t.name ?? t.id);
      const why = known
        ? `Agent "${to}" has finished (${known.status}); read what it did with TaskOutput({"task_id":"${known.id}"})`
        : `No background agent "${to}"`;
      throw new Error(
        `${why}. ${names.length ? `Running agents: ${names.join(', ')}.` : 'No background agent is running; start one with Agent, run_in_background: true and a name.'}`,
      );
    }
    for (const target of targets) target.send!(`[Message from the agent that started you]\n${message}`);
    return { data: { to, task_ids: targets.map((t) => t.id) } };
  },
});
