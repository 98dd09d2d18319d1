import { ToolshedError } from '@toolshed/core';

declare module '@toolshed/core' {
  interface ToolshedErrorCodes {
    /** A language server that is not installed (its program was not found). */
    lsp_server_missing: true;
    /** A language server that did not answer in time. */
    lsp_server_timeout: true;
    /** A language server that exited or failed to start. */
    lsp_server_failed: true;
  }
}

/** The error code of a server that is not installed (its program was not found). */
export const LSP_SERVER_MISSING = 'lsp_server_missing' as const;
/** The error code of a server that did not answer in time (it is stopped, and restarted on the next call). */
export const LSP_SERVER_TIMEOUT = 'lsp_server_timeout' as const;
/** The error code of a server that exited or failed to start (restarted on the next call). */
export const LSP_SERVER_FAILED = 'lsp_server_failed' as const;

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
    [LSP_SERVER_MISSING, LSP_SERVER_TIMEOUT, LSP_SERVER_FAILED].some((code) => code === error.code)
  );
}
