import { contentToText, skillArguments, skillUsage, type Session, type SkillArgument } from '@toolshed/core';
import { closestNames } from '@toolshed/core/internal';
import { mcpToolName } from '@toolshed/mcp-bridge';

interface ListedPrompt {
  server: string;
  name: string;
  arguments?: SkillArgument[];
}

/**
 * Chat's `/mcp__<server>__<prompt> ARG…`, as in Claude Code: the MCP server's prompt, its
 * arguments filled from the words (in order, the last taking the rest; `name=value` by name),
 * becomes the user's message. Read through the session's own ListMcpPrompts and GetMcpPrompt
 * tools, so the same permission rules apply.
 *
 * @param session The chat's session.
 * @param line What the user typed, starting with `/mcp__`.
 * @returns The prompt's text, or what is wrong (unknown prompt with a did-you-mean, a missing argument).
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { slashPrompt } from './_slash_prompt.ts';
 * declare const session: Session;
 *
 * const expanded = await slashPrompt(session, '/mcp__everything__args-prompt Paris');
 * if ('text' in expanded) console.log(expanded.text); // [user] What's weather in Paris?
 * ```
 */
export async function slashPrompt(session: Session, line: string): Promise<{ text: string } | { error: string }> {
  const [, command = '', rest = ''] = /^\/(\S+)\s*([\s\S]*)$/.exec(line.trim()) ?? [];
  if (!session.catalog().some((e) => e.name === 'ListMcpPrompts'))
    return { error: `/${command}: no connected MCP server offers prompts (see "toolshed mcp list").` };
  const [listed] = await session.run([{ type: 'tool_use', id: 'slash_list', name: 'ListMcpPrompts', input: {} }]);
  const text = contentToText(listed!.content);
  if (listed!.is_error) return { error: text };
  const prompts = text.startsWith('[') ? (JSON.parse(text) as ListedPrompt[]) : [];
  const byName = new Map(prompts.map((p) => [mcpToolName(p.server, p.name), p]));
  const prompt = byName.get(command);
  if (!prompt) {
    const near = closestNames(command, [...byName.keys()], { max: 2 });
    return {
      error: `/${command} is not an MCP prompt.${near.length ? ` Did you mean ${near.map((n) => `/${n}`).join(' or ')}?` : ''} Prompts: ${[...byName.keys()].map((n) => `/${n}`).join(', ') || 'none'}.`,
    };
  }
  const declared = prompt.arguments ?? [];
  const { values, missing } = skillArguments(rest, declared);
  if (missing.length)
    return {
      error: `/${command} needs ${missing.map((m) => `"${m}"`).join(' and ')}: /${command} ${skillUsage(declared)}`,
    };
  const [got] = await session.run([
    {
      type: 'tool_use',
      id: 'slash_get',
      name: 'GetMcpPrompt',
      input: { server: prompt.server, name: prompt.name, arguments: values },
    },
  ]);
  const body = contentToText(got!.content);
  return got!.is_error ? { error: body } : { text: body.replace(/^\[user\] /, '') };
}
