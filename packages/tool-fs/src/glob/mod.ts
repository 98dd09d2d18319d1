/**
 * The Glob tool: files by pattern, newest first, ignore files respected.
 *
 * @module
 */
export {
  createGlobTool,
  globFiles,
  globInput,
  globTool,
  MAX_GLOB_RESULTS,
  type GlobFilesOptions,
  type GlobOutput,
} from './glob_tool.ts';
