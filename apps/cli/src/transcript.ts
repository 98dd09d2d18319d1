import type { ToolUseBlock } from '@toolshed/core';
import { UsageError } from './usage_error.ts';

const EXAMPLE = '[[{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a.ts"}}]]';

/**
 * Checks that a parsed transcript is what `toolshed run` replays: an array of turns, each an
 * array of `tool_use` blocks (`type`, a non-empty string `id` unique across the transcript, a
 * non-empty string `name`, and an `input`). The blocks' inputs are not checked here: a bad input
 * is the pipeline's to answer, as it would be for a model.
 *
 * @param value The parsed JSON.
 * @param source Where it came from, for messages (`file "t.json"`, `stdin`).
 * @returns The turns.
 * @throws {UsageError} Naming the turn (and block) that is wrong, with 1-based numbers and the
 *   0-based JSON index.
 *
 * @example
 * ```ts
 * import { parseTranscript } from '@toolshed/cli';
 *
 * parseTranscript([[{ type: 'tool_use', id: 't1', name: 'Echo', input: { text: 'hi' } }]], 'stdin');
 * ```
 */
export function parseTranscript(value: unknown, source: string): ToolUseBlock[][] {
  const fail = (message: string): never => {
    throw new UsageError(`The transcript (${source}) ${message}`, { command: 'run' });
  };
  if (!Array.isArray(value)) {
    return fail(
      `is ${describe(value)}; it must be a JSON array of turns, each an array of tool_use blocks, for example ${EXAMPLE}.`,
    );
  }
  const seen = new Map<string, string>();
  return value.map((turn: unknown, t) => {
    const turnName = `turn ${t + 1} (index ${t})`;
    if (!Array.isArray(turn)) {
      return fail(
        `has ${describe(turn)} as ${turnName}; each turn must be an array of tool_use blocks, for example ${EXAMPLE}.`,
      );
    }
    return turn.map((block: unknown, b): ToolUseBlock => {
      const where = `${turnName}, block ${b + 1} (index ${b})`;
      if (typeof block !== 'object' || block === null || Array.isArray(block)) {
        return fail(
          `has ${describe(block)} at ${where}; each block must be a tool_use object such as ${EXAMPLE.slice(2, -2)}.`,
        );
      }
      const record = block as Record<string, unknown>;
      if (record['type'] !== 'tool_use') {
        fail(
          `has a block of type ${JSON.stringify(record['type'] ?? null)} at ${where}; every block must have "type": "tool_use".`,
        );
      }
      const id = record['id'];
      if (typeof id !== 'string' || id === '')
        fail(`has a block without a string "id" at ${where}; give each block a unique id such as "t1".`);
      const name = record['name'];
      if (typeof name !== 'string' || name === '')
        fail(`has a block without a string "name" at ${where}; name the tool, for example "name": "Read".`);
      if (!('input' in record))
        fail(`has a block without "input" at ${where}; give the tool's input, for example "input": {}.`);
      const earlier = seen.get(id as string);
      if (earlier)
        fail(
          `uses the id "${id as string}" again at ${where} (first used at ${earlier}); ids must be unique across the transcript.`,
        );
      seen.set(id as string, where);
      return { type: 'tool_use', id: id as string, name: name as string, input: record['input'] };
    });
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}
