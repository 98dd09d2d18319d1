import { ToolshedError } from '@toolshed/core';

/** The error code of a server that is not installed (its program was not found). */
export const LSP_SERVER_MISSING = 'lsp_server_missing';
/** The error code of a server that did not answer in time (it is stopped, and restarted on the next call). */
export const LSP_SERVER_TIMEOUT = 'lsp_server_timeout';
/** The error code of a server that exited or failed to start (restarted on the next call). */
export const LSP_SERVER_FAILED = 'lsp_server_failed';

/**
 * Whether an error is one of the language-server failures the LSP tool reports
 * (`lsp_server_missing`, `lsp_server_timeout`, `lsp_server_failed`).
 *
 * @param error Anything thrown.
 * @returns True for a `ToolshedError` with one of those codes.
 *
 * @example
 * ```ts
 * import { ToolshedError } from '@toolshed/core';
 * import { LSP_SERVER_TIMEOUT, isLspServerError } from '@toolshed/tool-lsp';
 *
 * isLspServerError(new ToolshedError(LSP_SERVER_TIMEOUT, 'slow')); // true
 * ```
 */
export function isLspServerError(error: unknown): error is ToolshedError {
  return (
    ToolshedError.isInstance(error) &&
    [LSP_SERVER_MISSING, LSP_SERVER_TIMEOUT, LSP_SERVER_FAILED].includes((error as ToolshedError).code)
  );
}
