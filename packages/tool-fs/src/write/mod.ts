/**
 * The Write tool: create or overwrite a file atomically, read-first for existing files.
 *
 * @module
 */
export { writeInput, writeTool, type WriteOutput } from './write_tool.ts';
