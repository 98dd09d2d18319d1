import type { CanUseTool, Session } from '@toolshed/core';
import type { CliIo } from './cli_io.ts';
import type { Prompter } from './_prompter.ts';
import { escapeUnprintable, printableMessage } from './_printable.ts';

/** What {@linkcode askInChat} asks with. */
export interface AskInChatOptions {
  prompter: Prompter;
  io: CliIo;
  /** The rules "always" remembered, for the rest of the chat. */
  always: Set<string>;
  getSession: () => Session | undefined;
}

/**
 * The chat's permission prompt: allow once, always (for the rest of the chat) or deny. "Always"
 * remembers every rule the call needs, and a later call is allowed without asking only when all
 * of its rules were remembered: the suggestions are the parts of one call.
 *
 * @example
 * ```ts
 * import type { CliIo } from './cli_io.ts';
 * import type { Prompter } from './_prompter.ts';
 * import { askInChat } from './_chat_permission_prompt.ts';
 * declare const prompter: Prompter;
 * declare const io: CliIo;
 *
 * const canUseTool = askInChat({ prompter, io, always: new Set(), getSession: () => undefined });
 * ```
 */
export function askInChat({ prompter, io, always, getSession }: AskInChatOptions): CanUseTool {
  return async (toolName, input, { reason, signal, suggestions }) => {
    // Remembered only when every rule the call needs was: each suggestion covers a part of the call,
    // so one remembered part (npm test) must not allow the rest (npm test && rm -rf build).
    if (suggestions.length > 0 && suggestions.every((s) => always.has(s))) return { behavior: 'allow' };
    const tool = getSession()
      ?.catalog()
      .find((e) => e.name === toolName)?.tool;
    let summary = '';
    try {
      const parsed = tool?.inputSchema.safeParse(input);
      if (tool && parsed?.success) summary = tool.getToolUseSummary(parsed.data);
    } catch {
      // no summary
    }
    const rule = suggestions.join(' ');
    // The call's text is the model's: its escape codes are shown, so none can hide a part of it.
    const shown = escapeUnprintable(`${toolName}${summary ? ` ${summary}` : ''}`);
    io.stderr.write(`\n${shown} needs approval: ${printableMessage(reason)}\n`);
    const answer = await Promise.race([
      prompter.ask(`  [y] allow once${rule ? `, [a] always allow ${escapeUnprintable(rule)}` : ''}, [n] deny: `),
      new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true })),
    ]);
    const word = answer?.trim().toLowerCase() ?? '';
    if (word === 'y' || word === 'yes') return { behavior: 'allow' };
    if ((word === 'a' || word === 'always') && rule) {
      for (const s of suggestions) always.add(s);
      io.stderr.write(`  (${escapeUnprintable(rule)} is allowed for the rest of this chat)\n`);
      return { behavior: 'allow' };
    }
    return {
      behavior: 'deny',
      message: answer === undefined ? 'no answer at the prompt' : 'the user declined at the prompt',
    };
  };
}
