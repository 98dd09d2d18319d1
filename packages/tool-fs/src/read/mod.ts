/**
 * The Read tool: text as numbered lines, images, PDFs, notebooks; refusals for folders, binary
 * and device files.
 *
 * @module
 */
export { mapReadResult, readInput, readTool, type ReadOutput } from './read_tool.ts';
