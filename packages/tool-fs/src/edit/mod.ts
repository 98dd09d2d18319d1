/**
 * The Edit tool: exact string replacement with read-first and staleness checks, quote
 * normalisation and a closest-region error.
 *
 * @module
 */
export { editInput, editTool, type EditOutput } from './edit_tool.ts';
