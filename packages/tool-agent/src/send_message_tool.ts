import { z } from 'zod';
import { backgroundTasksOf, buildTool, type Tool } from '@toolshed/core';

/**
 * Input of the SendMessage tool.
 *
 * @example
 * ```ts
 * sendMessageInput.parse({ to: 'researcher', message: 'Also check the tests folder' });
 * ```
 */
export const sendMessageInput = z.object({
  to: z.string().min(1).describe('The name (or task id) of a running background agent'),
  message: z.string().min(1).describe('The message; the agent reads it at its next turn'),
});

/** What SendMessage returns. */
export interface SendMessageResult {
  to: string;
  task_id: string;
}

/**
 * SendMessage: queues a message for a running background agent (started by Agent with
 * `run_in_background` and a `name`); the agent reads it at its next turn. An unknown or
 * finished name is an error that lists the agents still running.
 *
 * @example
 * ```ts
 * await session.run([{ type: 'tool_use', id: 't1', name: 'SendMessage', input: { to: 'researcher', message: 'Stop after the first match' } }]);
 * ```
 */
export const sendMessageTool: Tool<typeof sendMessageInput, SendMessageResult> = buildTool({
  name: 'SendMessage',
  searchHint: 'message send running background agent',
  description: 'Sends a message to a running background agent (one started with Agent, run_in_background: true and a name). The agent reads it at the start of its next turn. Use the agent\'s name, or its task id.',
  inputSchema: sendMessageInput,
  checkPermissions: () => ({ behavior: 'allow', reason: 'it only messages an agent this session started' }),
  getToolUseSummary: ({ to }) => to,
  mapResult: (r) => `Message queued for ${r.to} (task ${r.task_id}); it reads it at its next turn.`,
  async call({ to, message }, ctx) {
    const agents = backgroundTasksOf(ctx).list().filter((t) => t.kind === 'agent');
    const live = agents.filter((t) => t.status === 'running' && t.send);
    const target = live.find((t) => t.name === to) ?? live.find((t) => t.id === to);
    if (!target) {
      const known = agents.find((t) => t.name === to || t.id === to);
      const names = live.map((t) => t.name ?? t.id);
      const why = known ? `Agent "${to}" has finished (${known.status}); read what it did with TaskOutput({"task_id":"${known.id}"})` : `No background agent "${to}"`;
      throw new Error(`${why}. ${names.length ? `Running agents: ${names.join(', ')}.` : 'No background agent is running; start one with Agent, run_in_background: true and a name.'}`);
    }
    target.send!(message);
    return { data: { to, task_id: target.id } };
  },
});
