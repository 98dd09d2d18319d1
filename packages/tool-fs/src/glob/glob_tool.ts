import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { buildTool, type Tool } from '@toolshed/core';
import { compileGlob } from '../_glob_match.ts';
import { addInSlices, NewestFiles } from '../_mtimes.ts';
import { missingFileMessage, toAbsolute } from '../_paths.ts';
import { runRipgrep } from '../_ripgrep.ts';
import { resolveSearchEngine, type SearchEngine, type SearchEngineOptions } from '../_search_engine.ts';
import { walkFiles } from '../_walk.ts';
import { openSearchRoot, searchDeniedTest } from '../_search_root.ts';

/** Input of {@linkcode globTool}: Claude Code's fields. */
export const globInput = z.strictObject({
  pattern: z.string().min(1).describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/*.{ts,tsx}"'),
  path: z
    .string()
    .optional()
    .describe(
      'The directory to search in; defaults to the working directory. Omit it rather than passing "undefined" or "null"',
    ),
});

/** What {@linkcode globTool} returns. */
export interface GlobOutput {
  /** The folder searched; `filenames` are relative to it. */
  root: string;
  /** Newest first, at most {@linkcode MAX_GLOB_RESULTS}. */
  filenames: string[];
  /** How many files matched in all. */
  numFiles: number;
  truncated: boolean;
}

/** How many paths one Glob returns. */
export const MAX_GLOB_RESULTS = 100;

const DESCRIPTION = `Fast file pattern matching for any codebase size.

- Supports glob patterns like "**/*.js" or "src/**/*.{ts,tsx}"; "*" stays within a folder, "**" crosses folders, so "*.ts" matches only at the top of the searched folder.
- Returns matching file paths relative to the searched folder, most recently modified first, at most ${MAX_GLOB_RESULTS} (it says when there were more: then narrow the pattern or the path).
- Files ignored by .gitignore (and .ignore) are left out, as is .git, and so are files your permission rules deny reading; hidden files are included.
- Use it to find files by name. To search file contents use Grep. For open-ended searches that need several rounds, run several searches in one turn; they run in parallel.`;

/**
 * Builds a Glob tool with a given search engine (ripgrep's file walk or the JS walker).
 *
 * @param options Which engine; see {@linkcode SearchEngineOptions}.
 * @returns The Glob tool.
 *
 * @example
 * ```ts
 * import { createGlobTool } from '@toolshed/tool-fs';
 *
 * const jsGlob = createGlobTool({ searchEngine: 'js' });
 * ```
 */
export function createGlobTool(options: SearchEngineOptions = {}): Tool<typeof globInput, GlobOutput> {
  return buildTool({
    name: 'Glob',
    searchHint: 'find files by name pattern, list files, glob',
    description: DESCRIPTION,
    inputSchema: globInput,
    inputExamples: [{ pattern: '**/*.test.ts' }, { pattern: '*.json', path: 'config' }],
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    getToolUseSummary: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
    // An absolute or upward pattern (`/etc/**`, `../x/*`) searches its own fixed folders: those are what is read.
    resources: (input, ctx) => [
      { path: globBase(toAbsolute(input.path ?? '.', ctx.cwd), input.pattern).base, access: 'read' },
    ],
    validateInput(input) {
      try {
        compileGlob(input.pattern);
      } catch (e) {
        return { result: false, message: (e as Error).message };
      }
      return { result: true };
    },
    mapResult(output) {
      if (output.numFiles === 0) return `No files found in ${output.root}.`;
      const list = output.filenames.join('\n');
      return output.truncated
        ? `${list}\n(Results are truncated: showing the ${output.filenames.length} newest of ${output.numFiles} files. Narrow the pattern or the path.)`
        : list;
    },
    renderResult: (output) => `Found ${output.numFiles} file${output.numFiles === 1 ? '' : 's'}`,
    async call(input, ctx, { signal }) {
      // Listing is cheap in JS and a spawn is not: ripgrep only when asked for (see SearchEngineOptions).
      const engine: SearchEngine = options.searchEngine === 'ripgrep' ? resolveSearchEngine(options) : { kind: 'js' };
      const root = toAbsolute(input.path ?? '.', ctx.cwd);
      const st = await stat(root).catch(() => undefined);
      if (!st)
        throw new Error(
          `${(await missingFileMessage(root, ctx.cwd, { ctx })).replace('File does not exist', 'Directory does not exist')}`,
        );
      if (!st.isDirectory()) throw new Error(`path ${root} is a file, not a directory; give the folder to search in.`);
      const { base } = globBase(root, input.pattern);
      // What is listed is the folder opened here and checked against the permission decision, not
      // its path again: a link on the way may have been re-pointed since.
      // An absolute pattern's fixed folders that are not there list nothing, as before.
      if (base !== root && !(await stat(base).catch(() => undefined))?.isDirectory())
        return { data: { root, filenames: [], numFiles: 0, truncated: false } };
      const opened = await openSearchRoot(base, { ctx, kind: 'folder' });
      try {
        const exclude = searchDeniedTest('Glob', base, { ctx, real: opened.real });
        const data = await globFiles(root, input.pattern, {
          engine,
          signal,
          ...(exclude ? { exclude } : {}),
          ...(opened.via ? { openedBase: opened.via } : {}),
        });
        return { data };
      } finally {
        await opened.close();
      }
    },
  });
}

/** Options of {@linkcode globFiles}. */
export interface GlobFilesOptions {
  /** ripgrep's file listing or the JS walker. @default { kind: 'js' } */
  engine?: SearchEngine;
  /** Stops the search. */
  signal?: AbortSignal;
  /** Leaves out the files it returns true for (paths relative to the pattern's base folder): deny rules. */
  exclude?: (rel: string) => boolean;
  /**
   * The pattern's base folder as the caller opened it (`/proc/self/fd/N`): everything is listed
   * and stat'ed through it rather than through the base's path, which a link re-pointed since a
   * permission check could lead elsewhere. The paths returned are the same. @default the base's path
   */
  openedBase?: string;
}

/**
 * Finds files under `root` matching a glob, honouring ignore files, newest first.
 *
 * @param root The folder to search (absolute).
 * @param pattern The glob.
 * @param options The engine, a signal and files to leave out.
 * @returns The output of Glob.
 * @throws {Error} When the search fails.
 *
 * @example
 * ```ts
 * import { globFiles } from '@toolshed/tool-fs';
 *
 * await globFiles('/repo', '**\/*.ts', { engine: { kind: 'js' } });
 * ```
 */
export async function globFiles(root: string, pattern: string, options: GlobFilesOptions = {}): Promise<GlobOutput> {
  const { engine = { kind: 'js' }, signal, exclude } = options;
  const { base, rel } = globBase(root, pattern);
  const reading = options.openedBase ?? base;
  // `base` holds the pattern's fixed leading folders already (globBase): the walk starts there.
  const matcher = compileGlob(rel);
  // Only the newest names are held, however many files the walk passes.
  const newest = new NewestFiles(reading, MAX_GLOB_RESULTS);
  const matching = {
    add: (f: string) => {
      if (matcher.test(f) && !exclude?.(f)) newest.add(f);
    },
  };
  if ((await stat(reading).catch(() => undefined))?.isDirectory()) {
    if (engine.kind === 'ripgrep')
      await addInSlices(matching, await rgFiles(engine.path, { cwd: reading, base, signal }), { signal });
    else await walkFiles(reading, { parentsOf: base, onFile: matching.add, ...(signal ? { signal } : {}) });
  }
  const display = (f: string) => (base === root ? f : path.relative(root, path.join(base, f)));
  return {
    root,
    filenames: newest.files().map(display),
    numFiles: newest.count,
    truncated: newest.count > MAX_GLOB_RESULTS,
  };
}

/** Where a pattern is searched from: its fixed leading folders under `root` (`root` itself when it starts with a wildcard). */
function globBase(root: string, pattern: string): { base: string; rel: string } {
  const rel = pattern.replace(/^\.\//, '');
  // Every pattern's fixed leading folders are part of what is read and declared: `out/*.txt` reads
  // `out`, which may be a link to a folder outside the working directories (the walk below them
  // follows no link, but the way to them does). `..` anywhere walks outside `root` the same way.
  const full = toAbsolute(rel, root);
  const parts = full.split('/');
  const fixed = parts.findIndex((p) => /[*?[\]{}]/.test(p));
  const cut = fixed === -1 ? parts.length - 1 : fixed;
  return { base: parts.slice(0, cut).join('/') || '/', rel: parts.slice(cut).join('/') };
}

/** Lists every file under `base` with ripgrep, run in `cwd` (`base`, or the folder as opened). */
async function rgFiles(
  rg: string,
  { cwd, base, signal }: { cwd: string; base: string; signal: AbortSignal | undefined },
): Promise<string[]> {
  const args = ['--files', '--hidden', '--no-require-git', '--glob', '!.git', '--null'];
  const run = await runRipgrep(rg, args, signal ? { cwd, signal } : { cwd });
  if (run.code === 2 && run.stdout.length === 0)
    throw new Error(`ripgrep could not list ${base}: ${run.stderr.trim().split('\n').join(' ')}`);
  return run.stdout
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((f) => f.replace(/^\.\//, ''));
}

/**
 * Finds files by glob pattern, newest first, `.gitignore` respected, 100 at most.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await session.run([{ type: 'tool_use', id: 't1', name: 'Glob', input: { pattern: '**\/*.ts' } }]);
 * ```
 */
export const globTool: Tool<typeof globInput, GlobOutput> = createGlobTool();
