/**
 * The Grep tool: ripgrep, or a JS engine with the same semantics.
 *
 * @module
 */
export {
  createGrepTool,
  DEFAULT_HEAD_LIMIT,
  formatGrepResult,
  grepInput,
  grepTool,
  splitGlobs,
  type GrepOutput,
} from './grep_tool.ts';
