import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  buildTool,
  DEFAULT_MAX_RESULT_SIZE_CHARS,
  ResultSpill,
  savedOutputReaders,
  type Tool,
  type ToolCallResult,
  type ToolContext,
} from '@toolshed/core';
import { deniedQuoteGuard, isPathInside } from '@toolshed/core/internal';
import { deniedPathTest } from '../_denied_paths.ts';
import { compileGlob } from '../_glob_match.ts';
import { missingFileMessage, specialKind, toAbsolute } from '../_paths.ts';
import {
  checkSearchEngineOptions,
  resolveSearchEngine,
  type SearchEngine,
  type SearchEngineOptions,
} from '../_search_engine.ts';
import { openSearchRoot, searchDeniedTest, type SearchRoot } from '../_search_root.ts';
import { compilePattern } from './_pattern.ts';
import { openedPathOf, searchOpened } from './_opened_search.ts';
import { GrepPage } from './_page.ts';
import { GrepQueryError, MAX_GREP_COLUMNS, type GrepQuery } from './_types.ts';

/** Input of {@linkcode grepTool}: Claude Code's fields, dashes included. */
export const grepInput = z.strictObject({
  pattern: z.string().min(1).describe('The regular expression to search for in file contents (ripgrep syntax)'),
  path: z.string().optional().describe('The file or directory to search in; defaults to the working directory'),
  glob: z
    .string()
    .optional()
    .describe(
      'Glob to filter files, e.g. "*.js" or "*.{ts,tsx}"; several separated by spaces or commas; "!x" excludes (rg --glob)',
    ),
  type: z
    .string()
    .optional()
    .describe(
      'File type to search (rg --type), e.g. js, py, rust, go, java; more efficient than glob for standard types',
    ),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      '"content" shows matching lines (with -A/-B/-C, -n, head_limit), "files_with_matches" shows file paths (the default), "count" shows match counts',
    ),
  '-A': z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Lines to show after each match (rg -A); output_mode "content" only'),
  '-B': z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Lines to show before each match (rg -B); output_mode "content" only'),
  '-C': z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Lines to show before and after each match (rg -C); output_mode "content" only'),
  '-n': z.boolean().optional().describe('Show line numbers (rg -n); output_mode "content" only; default true'),
  '-i': z.boolean().optional().describe('Case-insensitive search (rg -i)'),
  multiline: z
    .boolean()
    .optional()
    .describe('Let patterns span lines, with "." matching newlines (rg -U --multiline-dotall); default false'),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Return only the first N lines / files / counts (default 250; 0 for all)'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Skip the first N lines / files / counts before head_limit applies (default 0)'),
});

/** What {@linkcode grepTool} returns. */
export interface GrepOutput {
  mode: 'content' | 'files_with_matches' | 'count';
  engine: 'ripgrep' | 'js';
  /**
   * Files with matches: in all for files_with_matches and count; for content, the files met up
   * to the end of the page (the search stops there).
   */
  numFiles: number;
  /** files_with_matches: the paths shown, newest first. */
  filenames: string[];
  /** content and count: the lines shown (content: empty when they were saved to a file, see `persisted`). */
  lines: string[];
  /** content: how many lines the result has (those in `lines`, or in the saved file). */
  numLines?: number;
  /**
   * content: the result was over the tool's result size and went to a file as it was found (never
   * held whole): the file and the preview the model reads instead.
   */
  persisted?: { path: string; preview: string };
  /** count: the total of matches over all files. */
  numMatches?: number;
  /** Why the search could not run (a regex or type the engine rejected); the call is an error. */
  error?: string;
  /** Set when head_limit cut the results. */
  appliedLimit?: number;
  appliedOffset?: number;
}

/** The default `head_limit`. */
export const DEFAULT_HEAD_LIMIT = 250;

const DESCRIPTION = `A powerful search tool built on ripgrep (with a built-in engine of the same behaviour when ripgrep is not installed).

- ALWAYS use Grep for searching file contents; do not run grep or rg through Bash.
- Full regex syntax (ripgrep's), e.g. "log.*Error", "function\\s+\\w+". Literal braces need escaping: "interface\\{\\}" finds "interface{}".
- Filter files with glob (e.g. "*.js", "**/*.tsx") or type (e.g. "js", "py", "rust").
- output_mode: "files_with_matches" (default) lists matching files, newest first; "content" shows matching lines with line numbers (-n, default on) and context (-A, -B, -C); "count" shows matches per file.
- Results are limited by head_limit (default ${DEFAULT_HEAD_LIMIT}; 0 for all) after skipping offset; the result says when more exist.
- Patterns match within a line; for patterns that span lines (e.g. "struct \\{[\\s\\S]*?field") set multiline: true.
- Files ignored by .gitignore, and files your permission rules deny reading, are skipped; hidden files are searched; .git is not. Lines longer than ${MAX_GREP_COLUMNS} characters are clipped.
- Paths in results are relative to the working directory when inside it.`;

/**
 * Builds a Grep tool with a given engine.
 *
 * @param options Which engine; see {@linkcode SearchEngineOptions}.
 * @returns The Grep tool.
 * @throws {RangeError} For a `jsMatchBudgetMs` that is not above 0.
 *
 * @example
 * ```ts
 * import { createGrepTool } from '@toolshed/tool-fs';
 *
 * const jsGrep = createGrepTool({ searchEngine: 'js' });
 * ```
 */
export function createGrepTool(options: SearchEngineOptions = {}): Tool<typeof grepInput, GrepOutput> {
  checkSearchEngineOptions(options);
  return buildTool({
    name: 'Grep',
    searchHint: 'search file contents, find text, regex, ripgrep',
    description: DESCRIPTION,
    inputSchema: grepInput,
    inputExamples: [
      { pattern: 'TODO', output_mode: 'files_with_matches' },
      { pattern: 'function\\s+load', type: 'ts', output_mode: 'content', '-C': 2 },
    ],
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    getToolUseSummary: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
    resources: (input, ctx) => [{ path: toAbsolute(input.path ?? '.', ctx.cwd), access: 'read' }],
    async validateInput(input) {
      // Both engines get the same complaint, which the JS walker would otherwise not make (it matched nothing).
      for (const glob of splitGlobs(input.glob)) {
        try {
          compileGlob(glob.startsWith('!') ? glob.slice(1) : glob);
        } catch (e) {
          return {
            result: false,
            message: `${(e as Error).message} Fix the glob field (escape a literal bracket or brace as [[] or [{]).`,
          };
        }
      }
      if (resolveSearchEngine(options).kind === 'js') {
        try {
          await compilePattern({
            pattern: input.pattern,
            ignoreCase: input['-i'] === true,
            multiline: input.multiline === true,
          });
        } catch (e) {
          return { result: false, message: (e as Error).message };
        }
      }
      return { result: true };
    },
    mapResult: formatGrepResult,
    renderResult: (output) =>
      output.error !== undefined
        ? output.error.split('\n')[0]!
        : output.mode === 'files_with_matches'
          ? `Found ${output.numFiles} file${output.numFiles === 1 ? '' : 's'}`
          : `Found ${output.numLines ?? output.lines.length} line${(output.numLines ?? output.lines.length) === 1 ? '' : 's'}`,
    async call(input, ctx, { signal }) {
      const engine = resolveSearchEngine(options);
      const target = toAbsolute(input.path ?? '.', ctx.cwd);
      const st = await stat(target).catch(() => undefined);
      if (!st)
        throw new Error(
          (await missingFileMessage(target, ctx.cwd, { ctx })).replace('File does not exist', 'Path does not exist'),
        );
      // ripgrep would block on a FIFO or read /dev/zero forever, even with the permission layer's approval.
      const special = specialKind(st);
      if (special)
        throw new Error(
          `Cannot search ${target}: it is ${special}, not a file or a folder; reading it could block or never end.`,
        );
      const mode = input.output_mode ?? 'files_with_matches';
      const context = input['-C'] ?? 0;
      const query: GrepQuery = {
        pattern: input.pattern,
        dir: st.isDirectory() ? target : path.dirname(target),
        mode,
        before: mode === 'content' ? (input['-B'] ?? context) : 0,
        after: mode === 'content' ? (input['-A'] ?? context) : 0,
        ignoreCase: input['-i'] === true,
        multiline: input.multiline === true,
        globs: splitGlobs(input.glob),
      };
      if (!st.isDirectory()) query.file = path.basename(target);
      if (input.type !== undefined) query.type = input.type;
      // What is searched is the folder (or file) opened here and checked against the permission
      // decision, not its path again: a link on the way may have been re-pointed since.
      const root = await openSearchRoot(target, { ctx, kind: st.isDirectory() ? 'folder' : 'file' });
      try {
        return await searchAndShow(query, input, { engine, root, ctx, signal });
      } finally {
        await root.close();
      }
    },
  });
}

/** What {@linkcode searchAndShow} takes besides the query and the input. */
interface SearchContext {
  engine: SearchEngine;
  root: SearchRoot;
  ctx: ToolContext;
  signal: AbortSignal | undefined;
}

/** Runs a Grep query on its opened root into a page, and makes the tool's result of it. */
async function searchAndShow(
  query: GrepQuery,
  input: z.infer<typeof grepInput>,
  { engine, root, ctx, signal }: SearchContext,
): Promise<ToolCallResult<GrepOutput>> {
  const mode = query.mode;
  const denied =
    query.file === undefined
      ? searchDeniedTest('Grep', query.dir, { ctx, real: root.real })
      : deniedPathTest('Grep', query.dir, ctx);
  const readPath = openedPathOf(query, root);
  const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
  const offset = input.offset ?? 0;
  // Content lines are written out as they come: past the result size they go to the session's
  // results file, so a result of every line costs a file, not the process's memory.
  const spill =
    mode === 'content'
      ? new ResultSpill({
          toolUseId: ctx.toolUseId,
          stateDir: ctx.stateDir,
          maxChars: MAX_RESULT_CHARS,
          refuseToSave: deniedQuoteGuard(ctx),
          // The preview names only the tools this session has to read the file with.
          readers: savedOutputReaders(ctx.tools),
        })
      : undefined;
  const page = new GrepPage({
    out: spill,
    mode,
    offset,
    limit,
    numbers: input['-n'] !== false,
    withContext: query.before > 0 || query.after > 0,
    denied,
    mtimeOf: (rel) => statSync(readPath(rel), { throwIfNoEntry: false })?.mtimeMs ?? 0,
    show: showPath(query.dir, ctx.cwd),
  });
  try {
    await searchOpened(query, page, { engine, root, signal });
  } catch (e) {
    // The engine's own words, whole (a caret under the bad part of the regex), as an error result.
    if (e instanceof GrepQueryError)
      return {
        data: { mode, engine: engine.kind, numFiles: 0, filenames: [], lines: [], error: e.message },
        isError: true,
      };
    throw e;
  }
  const shown = page.result();
  const output: GrepOutput = {
    mode,
    engine: engine.kind,
    numFiles: shown.numFiles,
    filenames: shown.filenames,
    lines: shown.lines,
  };
  if (shown.numMatches !== undefined) output.numMatches = shown.numMatches;
  if (shown.cut) output.appliedLimit = limit;
  if (shown.cut || offset > 0) output.appliedOffset = offset;
  if (spill) {
    output.numLines = shown.numLines;
    // The saved file ends as the result would have: with the note that more exist.
    if (spill.spilled) spill.write(moreNote(output));
    const saved = await spill.finish();
    grepMemoryProbe.peakHeldChars = Math.max(grepMemoryProbe.peakHeldChars, spill.peakHeldChars);
    grepMemoryProbe.peakBatchedBytes = Math.max(grepMemoryProbe.peakBatchedBytes, spill.peakBatchedBytes);
    if (saved.persistedPath !== undefined) output.persisted = { path: saved.persistedPath, preview: saved.content };
    else if (spill.spilled) output.persisted = { path: '', preview: saved.content };
    else output.lines = saved.content === '' ? [] : saved.content.split('\n');
    if (saved.persistedPath !== undefined)
      return saved.persistedStats
        ? { data: output, persistedPath: saved.persistedPath, persistedStats: saved.persistedStats }
        : { data: output, persistedPath: saved.persistedPath };
  }
  return { data: output };
}

/**
 * Splits Grep's `glob` field into globs: on whitespace and on commas outside braces, so
 * `"*.ts,*.tsx"` is two globs and `"*.{ts,tsx}"` one.
 *
 * @param glob The field.
 * @returns The globs.
 *
 * @example
 * ```ts
 * import { splitGlobs } from '@toolshed/tool-fs';
 *
 * splitGlobs('*.ts,*.tsx !*.d.ts'); // ['*.ts', '*.tsx', '!*.d.ts']
 * ```
 */
export function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return [];
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of glob) {
    if (c === '{') depth++;
    if (c === '}') depth = Math.max(0, depth - 1);
    if ((c === ',' && depth === 0) || /\s/.test(c)) {
      if (current) out.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * Maps a {@linkcode GrepOutput} to the text the model reads.
 *
 * @param output What Grep returned.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { formatGrepResult } from '@toolshed/tool-fs';
 *
 * formatGrepResult({ mode: 'files_with_matches', engine: 'js', numFiles: 0, filenames: [], lines: [] }); // 'No files found'
 * ```
 */
export function formatGrepResult(output: GrepOutput): string {
  if (output.error !== undefined) return output.error;
  if (output.persisted !== undefined) return output.persisted.preview;
  const more = moreNote(output);
  if (output.mode === 'files_with_matches') {
    if (output.numFiles === 0) return 'No files found';
    return `Found ${output.numFiles} file${output.numFiles === 1 ? '' : 's'}\n${output.filenames.join('\n')}${more}`;
  }
  if (output.mode === 'count') {
    if (output.numFiles === 0) return 'No matches found';
    return `${output.lines.join('\n')}\n\nFound ${output.numMatches} total occurrence${output.numMatches === 1 ? '' : 's'} across ${output.numFiles} file${output.numFiles === 1 ? '' : 's'}.${more}`;
  }
  if (output.lines.length === 0)
    return output.numFiles === 0 ? 'No matches found' : `No lines at offset ${output.appliedOffset ?? 0}.`;
  return `${output.lines.join('\n')}${more}`;
}

/**
 * How a path found under `dir` is shown: relative to the working directory when inside it. Worked
 * out once for the folder, since a search of every line meets every file (path.relative per file
 * was a fifth of such a search).
 */
function showPath(dir: string, cwd: string): (rel: string) => string {
  const general = (rel: string) => {
    const abs = path.join(dir, rel);
    return isPathInside(abs, cwd) ? path.relative(cwd, abs) || path.basename(abs) : abs;
  };
  if (!isPathInside(dir, cwd)) return general;
  const base = path.relative(cwd, dir);
  const prefix = base === '' ? '' : `${base}${path.sep}`;
  // ripgrep and the walker give plain relative paths; anything else takes the general way.
  return (rel) =>
    rel === '' || rel.startsWith('/') || rel.startsWith('.') || rel.includes('/.') || rel.includes('\\')
      ? general(rel)
      : prefix + rel;
}

function moreNote(output: GrepOutput): string {
  return output.appliedLimit === undefined
    ? ''
    : `\n\n[Showing results with pagination = limit: ${output.appliedLimit}, offset: ${output.appliedOffset}. More results exist: continue with offset=${(output.appliedOffset ?? 0) + output.appliedLimit}.]`;
}

/** Content past this many characters is written to the session's results file as it is found. */
const MAX_RESULT_CHARS = DEFAULT_MAX_RESULT_SIZE_CHARS;

/**
 * What tests read to check that a big content result was never held whole: the most characters
 * of result text one Grep call held in memory (the gathered piece aside, at most 64 KB), and the
 * most bytes waiting for one write to the results file (at most 1 MB).
 *
 * @example
 * ```ts
 * import { grepMemoryProbe } from './grep_tool.ts';
 *
 * grepMemoryProbe.peakHeldChars = 0;
 * ```
 */
export const grepMemoryProbe = { peakHeldChars: 0, peakBatchedBytes: 0 };

/**
 * Searches file contents with ripgrep (or the JS engine when ripgrep is missing).
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await session.run([{ type: 'tool_use', id: 't1', name: 'Grep', input: { pattern: 'TODO', output_mode: 'content' } }]);
 * ```
 */
export const grepTool: Tool<typeof grepInput, GrepOutput> = createGrepTool();
