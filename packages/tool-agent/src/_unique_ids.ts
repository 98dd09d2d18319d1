import type { ToolUseBlock } from '@toolshed/core';
import type { AgentMessage } from './model_adapter.ts';

/**
 * The ids of the conversation's `tool_use` blocks. A model (or a broken endpoint) may repeat an
 * id, in one turn or a later one; the API refuses the next request when two `tool_use` blocks
 * share one, so a repeated id is given a suffix before the call runs (its result carries it).
 */
export class UniqueIds {
  readonly #used = new Set<string>();
  /** The next suffix to try per id: a model repeating one id 100 000 times costs no more than distinct ids. */
  readonly #next = new Map<string, number>();

  /** @param messages The conversation so far: its ids are taken. */
  constructor(messages: readonly AgentMessage[]) {
    for (const m of messages)
      if (typeof m.content !== 'string')
        for (const b of m.content) if (b.type === 'tool_use') this.#used.add(String(b.id));
  }

  /**
   * @param block A call the model wrote.
   * @returns It, or a copy under an id not used yet.
   */
  claim(block: ToolUseBlock): ToolUseBlock {
    const id = String(block.id ?? '') || 'toolu';
    let unique = id;
    let n = this.#next.get(id) ?? 2;
    while (this.#used.has(unique)) unique = `${id}_${n++}`;
    this.#next.set(id, n);
    this.#used.add(unique);
    return unique === block.id ? block : { ...block, id: unique };
  }
}
