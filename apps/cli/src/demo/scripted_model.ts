import type { ToolUseBlock } from '@toolshed/core';
import type { ModelAdapter, ModelStreamEvent, ModelTurn, ModelTurnRequest } from '@toolshed/tool-agent';

/**
 * The demo's stand-in for a model, for the Explore sub-agent it starts: its first turn greps for
 * the misspelt greeting, its second reports what it found from the Grep result it was sent. No
 * network, no key; the sub-agent itself runs for real in a child session.
 *
 * @returns A model adapter with the Anthropic tool format.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { agentTools } from '@toolshed/tool-agent';
 * import { fileTools } from '@toolshed/tool-fs';
 * import { scriptedExplorer } from './scripted_model.ts';
 * declare const cwd: string;
 *
 * const session = await createSession({ cwd, families: [fileTools(), agentTools({ model: scriptedExplorer() })] });
 * ```
 */
export function scriptedExplorer(): ModelAdapter {
  const adapter: ModelAdapter = {
    format: 'anthropic',
    model: 'scripted-explorer',
    provider: 'scripted',
    async turn(request: ModelTurnRequest): Promise<ModelTurn> {
      const turns = request.messages.filter((m) => m.role === 'assistant').length;
      const usage = { inputTokens: JSON.stringify(request.messages).length >> 2, outputTokens: 20 };
      if (turns === 0) {
        const grep: ToolUseBlock = {
          type: 'tool_use',
          id: 'toolu_explore_01',
          name: 'Grep',
          input: { pattern: 'Helo', output_mode: 'content' },
        };
        return {
          content: [{ type: 'text', text: 'Searching for the misspelt greeting.' }, grep],
          stopReason: 'tool_use',
          usage,
        };
      }
      const last = request.messages.at(-1);
      const found = Array.isArray(last?.content)
        ? last.content
            .flatMap((b) =>
              b.type === 'tool_result'
                ? [
                    typeof b.content === 'string'
                      ? b.content
                      : b.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
                  ]
                : [],
            )
            .join('\n')
        : '';
      const line = found.split('\n').find((l) => l.includes('Helo')) ?? 'no match';
      return { content: [{ type: 'text', text: `The typo is here: ${line.trim()}` }], stopReason: 'end_turn', usage };
    },
    async *stream(request: ModelTurnRequest): AsyncIterable<ModelStreamEvent> {
      const turn = await adapter.turn(request);
      for (const block of turn.content)
        yield block.type === 'text' ? { type: 'text', text: block.text } : { type: 'tool_use', block };
      yield { type: 'done', turn };
    },
    withModel: () => adapter,
  };
  return adapter;
}
