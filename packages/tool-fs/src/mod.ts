/**
 * `@toolshed/tool-fs`: Read, Edit, Write, Glob, Grep and NotebookEdit for Toolshed, with Claude
 * Code's tool names and fields: read-first and content-hash staleness checks, atomic writes that
 * keep line endings, BOM and mode, ripgrep-backed search with a JS fallback.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { fileTools } from '@toolshed/tool-fs';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [fileTools()], permissions: { allow: ['Edit(./src/**)'] } });
 * const [read] = await session.run([{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'src/a.ts' } }]);
 * const [edit] = await session.run([
 *   { type: 'tool_use', id: 't2', name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'foo', new_string: 'bar' } },
 * ]);
 * ```
 *
 * @module
 */
export { fileTools, type FileToolsOptions } from './family.ts';
export { mapReadResult, readInput, readTool, type ReadOutput } from './read/mod.ts';
export { editInput, editTool, type EditOutput } from './edit/mod.ts';
export { writeInput, writeTool, type WriteOutput } from './write/mod.ts';
export {
  createGlobTool,
  globFiles,
  globInput,
  globTool,
  MAX_GLOB_RESULTS,
  type GlobFilesOptions,
  type GlobOutput,
} from './glob/mod.ts';
export {
  createGrepTool,
  DEFAULT_HEAD_LIMIT,
  formatGrepResult,
  grepInput,
  grepTool,
  splitGlobs,
  type GrepOutput,
} from './grep/mod.ts';
export { notebookEditInput, notebookEditTool, type NotebookEditOutput } from './notebook_edit/mod.ts';
export type { SearchEngine, SearchEngineOptions } from './_search_engine.ts';
