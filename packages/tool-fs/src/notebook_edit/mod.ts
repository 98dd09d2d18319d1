/**
 * The NotebookEdit tool: replace, insert or delete Jupyter notebook cells.
 *
 * @module
 */
export { notebookEditInput, notebookEditTool, type NotebookEditOutput } from './notebook_edit_tool.ts';
