/** A prompt as `prompts/get` answers it. */
export interface McpPromptResult {
  description?: string | undefined;
  messages: { role: string; content: unknown }[];
}

/**
 * A prompt's messages as text a model or a person reads: each message `[role] text`, an embedded
 * resource with its URI and text, other content named by type; the description first.
 *
 * @param prompt What `prompts/get` answered.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { promptText } from './_prompt_text.ts';
 *
 * promptText({ messages: [{ role: 'user', content: { type: 'text', text: 'Review a.ts' } }] }); // '[user] Review a.ts'
 * ```
 */
export function promptText(prompt: McpPromptResult): string {
  const lines = prompt.messages.map((m) => {
    const c = m.content as { type: string; text?: string; resource?: { uri: string; text?: string } };
    const body =
      c.type === 'text'
        ? (c.text ?? '')
        : c.type === 'resource' && c.resource
          ? `[resource ${c.resource.uri}]\n${c.resource.text ?? ''}`
          : `[${c.type} content]`;
    return `[${m.role}] ${body}`;
  });
  return `${prompt.description ? `${prompt.description}\n\n` : ''}${lines.join('\n\n')}`;
}
