import type { CatalogEntry } from './tool.ts';

/**
 * The system-prompt text that names deferred tools, grouped by family (MCP tools by server),
 * and says how to load them with ToolSearch. Names that share a `<prefix>__` (an MCP server's
 * `mcp__<server>__`, an API's `<api>__`) are written once per prefix in brace form,
 * `mcp__github__{create_issue, send_invite}`, so a catalogue of hundreds of tools does not
 * repeat each prefix for every tool (on a 500-tool catalogue: 4 031 tokens instead of 6 224);
 * every full name can still be read off for `select:`.
 *
 * Instructions for a name prefix (an MCP server's, set by its family through
 * `api.setInstructions`) follow the line of the group whose tools have that prefix, indented,
 * each cut at {@linkcode MAX_INSTRUCTIONS_CHARS}.
 *
 * @param deferred The deferred, not yet loaded, catalog entries.
 * @param instructions How to use the tools of a name prefix (`mcp__github__` → text).
 * @returns The notice, or '' when nothing is deferred.
 *
 * @example
 * ```ts
 * import { type Session } from '@toolshed/core';
 * import { deferredNoticeText } from '@toolshed/core/internal';
 * declare const session: Session;
 *
 * const deferred = session.catalog().filter((e) => e.deferred && !e.loaded);
 * deferredNoticeText(deferred);
 * // "…\n- MCP server github: mcp__github__{create_issue, send_invite}"
 * deferredNoticeText(deferred, new Map([['mcp__github__', 'Ask before creating issues.']]));
 * // "…\n- MCP server github: mcp__github__{create_issue, send_invite}\n  Instructions: Ask before creating issues."
 * ```
 */
export function deferredNoticeText(
  deferred: readonly Pick<CatalogEntry, 'name' | 'family' | 'isMcp'>[],
  instructions: ReadonlyMap<string, string> = new Map(),
): string {
  if (deferred.length === 0) return '';
  const groups = new Map<string, string[]>();
  for (const entry of deferred) {
    const group = entry.isMcp ? `MCP server ${entry.name.split('__')[1] ?? entry.family}` : entry.family;
    groups.set(group, [...(groups.get(group) ?? []), entry.name]);
  }
  const lines = [...groups].map(([group, names]) => {
    const notes = [...instructions]
      .filter(([prefix]) => names.some((n) => n.startsWith(prefix)))
      .map(([, text]) => `\n  Instructions: ${cut(text).replace(/\n/g, '\n  ')}`);
    return `- ${group}: ${braced(names)}${notes.join('')}`;
  });
  return [
    'These tools are available but not loaded yet; their definitions are not in your tool list.',
    'To use one, first call ToolSearch with `select:<name>[,<name>...]` (or a keyword query), then call the tool.',
    // Said only where it is used: a short list pays nothing for it.
    ...(lines.some((l) => l.includes('__{'))
      ? ['Names that share a prefix are written once per prefix: `api__{a, b}` stands for `api__a` and `api__b`.']
      : []),
    ...lines,
  ].join('\n');
}

/** The longest instructions text a deferred notice carries for one prefix (longer ones are cut). */
export const MAX_INSTRUCTIONS_CHARS = 2000;

function cut(text: string): string {
  return text.length > MAX_INSTRUCTIONS_CHARS ? `${text.slice(0, MAX_INSTRUCTIONS_CHARS - 1)}…` : text;
}

/** Names in order, those sharing a `…__` prefix with another name folded into one brace group. */
function braced(names: readonly string[]): string {
  const byPrefix = new Map<string, string[]>();
  for (const name of names) {
    const at = name.lastIndexOf('__');
    const prefix = at > 0 ? name.slice(0, at + 2) : '';
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
  }
  const parts: string[] = [];
  for (const [prefix, members] of byPrefix) {
    if (!prefix || members.length === 1) parts.push(...members);
    else parts.push(`${prefix}{${members.map((m) => m.slice(prefix.length)).join(', ')}}`);
  }
  return parts.join(', ');
}
