import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';
import { createLspTool, type LspToolOptions } from './lsp_tool.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode lspTools}: the LSP tool's. */
export interface LspToolsOptions extends LspToolOptions {}

/**
 * The `lsp` family: the LSP tool (go to definition, references, hover, symbols,
 * implementations, call hierarchy) over real language servers, started on the first call that
 * needs one and stopped with the session. Deferred by default: ToolSearch finds it.
 *
 * @param options The servers (merged over {@linkcode DEFAULT_LSP_SERVERS}), the timeout, deferral.
 * @returns The family, for `createSession({ families })`.
 * @throws {TypeError} For a malformed server (see {@linkcode checkServerConfigs}).
 * @throws {RangeError} For a `timeoutMs` or `startTimeoutMs` that is not a positive number.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { lspTools } from '@toolshed/tool-lsp';
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   families: [lspTools({ servers: { typescript: { command: 'typescript-language-server', args: ['--stdio'], extensions: ['.ts', '.tsx'] } } })],
 * });
 * ```
 */
export function lspTools(options: LspToolsOptions = {}): Family {
  return defineFamily({ name: 'lsp', version, tools: [createLspTool(options)] });
}
