import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';
import { editTool } from './edit/mod.ts';
import { createGlobTool } from './glob/mod.ts';
import { createGrepTool } from './grep/mod.ts';
import { notebookEditTool } from './notebook_edit/mod.ts';
import { readTool } from './read/mod.ts';
import { writeTool } from './write/mod.ts';
import type { SearchEngineOptions } from './_search_engine.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode fileTools}. */
export interface FileToolsOptions extends SearchEngineOptions {}

/**
 * The `fs` family: Read, Edit, Write, Glob, Grep and NotebookEdit, with Claude Code's names and
 * fields. Glob and Grep use ripgrep when it is installed and a JS engine with the same semantics
 * otherwise.
 *
 * @param options The search engine for Glob and Grep (`searchEngine`, default `'auto'`; `ripgrepPath`;
 *   `jsMatchBudgetMs`).
 * @returns The family, for `createSession({ families })`.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { fileTools } from '@toolshed/tool-fs';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [fileTools()] });
 * const [result] = await session.run([{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'README.md' } }]);
 * ```
 */
export function fileTools(options: FileToolsOptions = {}): Family {
  const engine: SearchEngineOptions = {};
  if (options.searchEngine !== undefined) engine.searchEngine = options.searchEngine;
  if (options.ripgrepPath !== undefined) engine.ripgrepPath = options.ripgrepPath;
  if (options.jsMatchBudgetMs !== undefined) engine.jsMatchBudgetMs = options.jsMatchBudgetMs;
  return defineFamily({
    name: 'fs',
    version,
    tools: [readTool, editTool, writeTool, createGlobTool(engine), createGrepTool(engine), notebookEditTool],
  });
}
