import { notReadMessage, readShortRegularFile } from '@toolshed/core/internal';

/** Options of {@linkcode readShortText}. */
export interface ReadShortTextOptions {
  /** Bytes past which the file is not read. */
  maxBytes: number;
  /** What the file is meant to be, for the message about one that is too big: "an agent definition is a short Markdown file". */
  tooBig: string;
  /** A symbolic link is not followed (refused by the open itself). @default false */
  noFollow?: boolean;
}

/**
 * The text of a short file a repository ships (an agent definition, a `SKILL.md`), or why it is
 * not read: the name may lead to a FIFO or `/dev/zero`, which would hang the session's start, or
 * to a file of gigabytes (a sparse one takes no disk), which would be read whole into memory.
 * Opened without waiting for a writer; only a regular file of at most `maxBytes` is read.
 *
 * @param file The file.
 * @param options The bound, and what to say of a file past it.
 * @returns `{ text }`, or `{ problem }` saying why it was not read.
 * @throws {Error} When the file cannot be opened or read (its code says why).
 *
 * @example
 * ```ts
 * import { readShortText } from './_read_short_text.ts';
 *
 * const read = await readShortText('/repo/.claude/agents/reviewer.md', {
 *   maxBytes: 1024 * 1024,
 *   tooBig: 'an agent definition is a short Markdown file',
 * });
 * if ('problem' in read) console.warn(read.problem);
 * ```
 */
export async function readShortText(
  file: string,
  options: ReadShortTextOptions,
): Promise<{ text: string } | { problem: string }> {
  const read = await readShortRegularFile(file, {
    maxBytes: options.maxBytes,
    ...(options.noFollow ? { noFollow: true } : {}),
  });
  return 'text' in read ? read : { problem: notReadMessage(read.notRead, options) };
}
