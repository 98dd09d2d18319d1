/**
 * `@toolshed/tool-lsp`: the LSP tool for Toolshed — go to definition, find references, hover,
 * document and workspace symbols, implementations and call hierarchy, answered by real language
 * servers (typescript-language-server and pyright by default) that start on demand.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { lspTools } from '@toolshed/tool-lsp';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [lspTools()] });
 * const [result] = await session.run([
 *   { type: 'tool_use', id: 't1', name: 'LSP', input: { operation: 'goToDefinition', filePath: 'src/main.ts', line: 3, character: 10 } },
 * ]);
 * await session.close(); // stops the language servers
 * ```
 *
 * @module
 */
export { lspTools, type LspToolsOptions } from './family.ts';
export {
  createLspTool,
  DEFAULT_LSP_HEAD_LIMIT,
  LSP_OPERATIONS,
  lspInput,
  lspTool,
  type LspOperation,
  type LspOutput,
  type LspToolOptions,
} from './lsp_tool.ts';
export {
  checkServerConfigs,
  DEFAULT_LSP_SERVERS,
  languageIdOf,
  serverForFile,
  type LspServerConfig,
} from './server_config.ts';
export { LSP_SETTINGS, lspSettingsSchema, type LspSettings } from './lsp_settings.ts';
export { isLspServerError, LSP_SERVER_FAILED, LSP_SERVER_MISSING, LSP_SERVER_TIMEOUT } from './lsp_errors.ts';
