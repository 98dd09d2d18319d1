import type { CatalogEntry } from './context.ts';

/**
 * The system-prompt text that names deferred tools, grouped by family (MCP tools by server),
 * and says how to load them with ToolSearch.
 *
 * @param deferred The deferred, not yet loaded, catalog entries.
 * @returns The notice, or '' when nothing is deferred.
 *
 * @example
 * ```ts
 * deferredNoticeText(session.catalog().filter((e) => e.deferred && !e.loaded));
 * ```
 */
export function deferredNoticeText(deferred: readonly CatalogEntry[]): string {
  if (deferred.length === 0) return '';
  const groups = new Map<string, string[]>();
  for (const entry of deferred) {
    const group = entry.isMcp ? `MCP server ${entry.name.split('__')[1] ?? entry.family}` : entry.family;
    groups.set(group, [...(groups.get(group) ?? []), entry.name]);
  }
  const lines = [...groups].map(([group, names]) => `- ${group}: ${names.join(', ')}`);
  return [
    'These tools are available but not loaded yet; their definitions are not in your tool list.',
    'To use one, first call ToolSearch with `select:<name>[,<name>...]` (or a keyword query), then call the tool.',
    ...lines,
  ].join('\n');
}
