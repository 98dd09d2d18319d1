import type { ToolContext } from '../tool.ts';
import { deniedPathFilter } from '../permissions/denied_path_filter.ts';
import { pathRulesFor } from '../permissions/path_rule_index.ts';
import type { PermissionRule } from '../permissions/types.ts';

// Longer "paths" are not paths; they would only cost folder lookups.
const MAX_CANDIDATE_CHARS = 1_024;
// The tools whose deny rules guard reading a file's text (a saved result is read with any of them).
const READING_TOOLS = ['Read', 'Grep', 'Glob'];

/**
 * The first file a tool's output quotes that a deny rule guards, such as `./.env` in the output of
 * `grep -rn KEY .` (`./.env:3:KEY=…`) or `git log -p` (`diff --git a/.env b/.env`). Looked for:
 * the part of each line before its first `:` (grep and ripgrep's `path:line:text`), the whole line
 * (`-l` lists, Glob's list, `find`), and the paths of diff headers (`diff --git a/x b/y`,
 * `--- a/x`, `+++ b/x`). The rules are the deny rules of `Read`, `Grep` and `Glob` (every
 * `Read(...)` rule among them), matched as {@linkcode deniedPathFilter} matches them.
 *
 * The test leans to caution: a line that merely looks like `.env: …` counts. Its only use is to
 * keep such an output from being saved to a file (see {@linkcode deniedQuoteGuard}).
 *
 * @param text The output.
 * @param ctx The call's context (working directory and rules).
 * @returns The quoted path (absolute) and the rule that guards it, or undefined.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { quotedDeniedFile } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * // deny: ['Read(./.env)']
 * quotedDeniedFile('./.env:1:API_KEY=abc\nsrc/a.ts:4:key', ctx); // { path: '/repo/.env', rule: … }
 * ```
 */
export function quotedDeniedFile(
  text: string,
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>,
): { path: string; rule: PermissionRule } | undefined {
  // Read's filter holds every Read(...) rule; Grep's and Glob's add only the rules naming them.
  const deny = ctx.permissions.rules.deny;
  const filters = READING_TOOLS.filter(
    (tool) =>
      tool === 'Read' ||
      pathRulesFor(deny, { toolName: tool, access: 'read' }).length >
        pathRulesFor(deny, { toolName: 'Read', access: 'read' }).length,
  )
    .map((tool) => deniedPathFilter(tool, ctx))
    .filter((f) => f !== undefined);
  if (filters.length === 0) return undefined;
  // A relative path may be quoted from another folder (`cd config && grep -rn KEY .` prints
  // `./.env:…`): it is also tried in each folder a deny rule names.
  const bases = [ctx.cwd, ...ruleFolders(deny, ctx.cwd)];
  const seen = new Set<string>();
  const check = (candidate: string): { path: string; rule: PermissionRule } | undefined => {
    const trimmed = candidate.trim();
    if (trimmed === '' || trimmed.length > MAX_CANDIDATE_CHARS || seen.has(trimmed)) return undefined;
    seen.add(trimmed);
    for (const base of trimmed.startsWith('/') ? [''] : bases) {
      const path = normalize(base === '' ? trimmed : `${base}/${trimmed}`);
      for (const filter of filters) {
        const rule = filter(path);
        if (rule) return { path, rule };
      }
    }
    return undefined;
  };
  // Colours (`grep --color=always`) are not part of a path; NUL ends one (`grep -Z`), as a line end does.
  for (const line of text.replace(ANSI_SEQUENCE, '').split(/[\n\r\0]/)) {
    const diff = /^diff --git a\/(.+?) b\/(.+)$/.exec(line);
    const header = /^(?:---|\+\+\+) [ab]\/(.+)$/.exec(line);
    const headTail = /^==> (.+) <==$/.exec(line);
    const colon = line.indexOf(':');
    const candidates = [
      ...(diff ? [diff[1]!, diff[2]!] : []),
      ...(header ? [header[1]!] : []),
      ...(headTail ? [headTail[1]!] : []),
      ...(colon > 0 ? [line.slice(0, colon)] : []),
      line,
    ];
    for (const candidate of candidates) {
      const hit = check(candidate);
      if (hit) return hit;
    }
  }
  return undefined;
}

/**
 * The `refuseToSave` check of {@linkcode persistLargeResult} for one call: it refuses to save an
 * output that quotes a file a deny rule guards, because the saved copy (read with Read or Grep,
 * which a session allows for its own results) would show that file's text where the rule does
 * not reach. Undefined when the context has no deny rule with a path, so that saving costs nothing
 * extra.
 *
 * @param ctx The call's context.
 * @returns The check, or undefined.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { deniedQuoteGuard, persistLargeResult } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 * declare const content: string;
 * const toolUseId = 'toolu_1';
 * const stateDir = '/tmp/toolshed/s1';
 * const maxChars = 50_000;
 *
 * await persistLargeResult(content, { toolUseId, stateDir, maxChars, refuseToSave: deniedQuoteGuard(ctx) });
 * ```
 */
export function deniedQuoteGuard(
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>,
): ((text: string) => string | undefined) | undefined {
  // Looked up in the index kept with the list (per tool), not by a look at every deny rule.
  const deny = ctx.permissions.rules.deny;
  if (!READING_TOOLS.some((tool) => pathRulesFor(deny, { toolName: tool, access: 'read' }).length > 0))
    return undefined;
  return (text) => {
    const hit = quotedDeniedFile(text, ctx);
    return hit
      ? `it quotes "${hit.path}", which rule "${hit.rule.raw}" from ${hit.rule.source} denies, and a saved copy would not be guarded by that rule`
      : undefined;
  };
}

// Terminal escape sequences (CSI and OSC), as `--color=always` writes them around a path.
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;

/**
 * The folders of deny path rules that name files in one folder (`Read(./config/.env)` →
 * `<cwd>/config`, `Read(//etc/ssl/*.pem)` → `/etc/ssl`); rules with `**` and bare names name none.
 */
function ruleFolders(deny: readonly PermissionRule[], cwd: string): string[] {
  const out = new Set<string>();
  for (const rule of deny) {
    const content = rule.ruleContent;
    // Only rules naming files in one folder: with `**` every relative line would be a path under it.
    if (!content || content.includes('**') || !READING_TOOLS.includes(rule.toolName)) continue;
    const literal = content.split(/[*?[{]/)[0]!;
    const slash = literal.lastIndexOf('/');
    if (slash <= 0) continue;
    const folder = literal.slice(0, slash);
    if (folder.startsWith('//')) out.add(normalize(folder.slice(1)));
    else if (folder.startsWith('./')) out.add(normalize(`${rule.root ?? cwd}/${folder.slice(2)}`));
    else if (folder.startsWith('/')) out.add(normalize(`${rule.root ?? cwd}${folder}`));
  }
  out.delete(normalize(cwd));
  return [...out];
}

/** `/a/./b/../c` → `/a/c`, without touching the file system. */
function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}
