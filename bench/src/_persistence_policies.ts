import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** One output of a turn as a policy sees it. */
export interface PolicyInput {
  id: string;
  tool: string;
  text: string;
}

/** What a policy sent for one output, and where it saved the whole, if it did. */
export interface PolicyOutput {
  sent: string;
  savedPath?: string;
}

/** A baseline policy: what another agent does with a large tool output. */
export interface BaselinePolicy {
  name: string;
  description: string;
  /** Applies the policy to one turn; files go below `dir`. */
  apply(
    turn: readonly PolicyInput[],
    dir: string,
  ): Promise<{ outputs: PolicyOutput[]; savedBytes: number; saveMs: number }>;
}

const GEMINI_LIMIT = 40_000;
const OPENCODE_LINES = 2_000;
const OPENCODE_BYTES = 50 * 1024;
const TRUNCATE_LIMIT = 30_000;

/**
 * The baselines of the result_persistence suite, each as the project documents it:
 * Gemini CLI (over 40 000 characters: the first 20% and the last 80% of 40 000 are kept, the
 * whole is saved to a file named in the message), opencode (over 2 000 lines or 50 KB: the first
 * 2 000 lines within 50 KB are kept, the whole is saved and the message says to Grep or Read it),
 * plain truncation at 30 000 characters (nothing saved), and no limit.
 *
 * @example
 * ```ts
 * const { outputs } = await BASELINE_POLICIES[0]!.apply([{ id: 't1', tool: 'Grep', text }], dir);
 * ```
 */
export const BASELINE_POLICIES: readonly BaselinePolicy[] = [
  {
    name: 'gemini-cli',
    description: 'Gemini CLI: over 40 000 chars, 20% head + 80% tail of 40 000 kept, whole output saved to a file',
    apply: (turn, dir) =>
      applyEach(turn, dir, (item, save) => {
        if (item.text.length <= GEMINI_LIMIT) return { sent: item.text };
        const head = item.text.slice(0, GEMINI_LIMIT * 0.2);
        const tail = item.text.slice(item.text.length - GEMINI_LIMIT * 0.8);
        const file = save();
        return {
          sent:
            `Tool output was too large and has been truncated.\nThe full output has been saved to: ${file}\n` +
            `To read the complete output, use the read_file tool with the absolute file path above, or search it with grep.\n` +
            `Truncated part of the output:\n${head}\n\n... [${item.text.length - head.length - tail.length} characters truncated] ...\n\n${tail}`,
          savedPath: file,
        };
      }),
  },
  {
    name: 'opencode',
    description:
      'opencode: over 2 000 lines or 50 KB, the first 2 000 lines within 50 KB kept, whole output saved to a file',
    apply: (turn, dir) =>
      applyEach(turn, dir, (item, save) => {
        const lines = item.text.split('\n');
        if (lines.length <= OPENCODE_LINES && Buffer.byteLength(item.text) <= OPENCODE_BYTES)
          return { sent: item.text };
        const kept: string[] = [];
        let bytes = 0;
        for (const line of lines) {
          const size = Buffer.byteLength(line) + 1;
          if (kept.length >= OPENCODE_LINES || bytes + size > OPENCODE_BYTES) break;
          kept.push(line);
          bytes += size;
        }
        const file = save();
        return {
          sent:
            `${kept.join('\n')}\n\n...${lines.length - kept.length} lines truncated...\n\n` +
            `The tool call succeeded but the output was truncated. Full output saved to: ${file}\n` +
            'Use Grep to search the full content or Read with offset/limit to view specific sections.',
          savedPath: file,
        };
      }),
  },
  {
    name: 'truncate-30k',
    description: 'plain truncation at 30 000 chars, nothing saved',
    apply: (turn, dir) =>
      applyEach(turn, dir, (item) => ({
        sent:
          item.text.length <= TRUNCATE_LIMIT
            ? item.text
            : `${item.text.slice(0, TRUNCATE_LIMIT)}\n\n[Output truncated: ${item.text.length - TRUNCATE_LIMIT} more characters]`,
      })),
  },
  {
    name: 'no-limit',
    description: 'no limit: every output sent whole',
    apply: (turn, dir) => applyEach(turn, dir, (item) => ({ sent: item.text })),
  },
];

async function applyEach(
  turn: readonly PolicyInput[],
  dir: string,
  policy: (item: PolicyInput, save: () => string) => PolicyOutput,
): Promise<{ outputs: PolicyOutput[]; savedBytes: number; saveMs: number }> {
  const outputs: PolicyOutput[] = [];
  let savedBytes = 0;
  let saveMs = 0;
  for (const item of turn) {
    let pending: { file: string; text: string } | undefined;
    const out = policy(item, () => {
      pending = { file: path.join(dir, `${item.id.replace(/[^A-Za-z0-9_-]/g, '_')}.txt`), text: item.text };
      return pending.file;
    });
    if (pending) {
      const started = performance.now();
      await mkdir(dir, { recursive: true });
      await writeFile(pending.file, pending.text);
      saveMs += performance.now() - started;
      savedBytes += Buffer.byteLength(pending.text);
    }
    outputs.push(out);
  }
  return { outputs, savedBytes, saveMs };
}
