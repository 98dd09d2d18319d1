import { ToolshedError } from '@toolshed/core';
import { describe, expect, test } from 'vitest';
import { isLspServerError, LSP_SERVER_FAILED, LSP_SERVER_MISSING, LSP_SERVER_TIMEOUT } from './lsp_errors.ts';

describe('isLspServerError', () => {
  test('recognises the three server failures and nothing else', () => {
    for (const code of [LSP_SERVER_MISSING, LSP_SERVER_TIMEOUT, LSP_SERVER_FAILED])
      expect(isLspServerError(new ToolshedError(code, 'x'))).toBe(true);
    expect(isLspServerError(new ToolshedError('settings_invalid', 'x'))).toBe(false);
    expect(isLspServerError(new Error('lsp_server_failed'))).toBe(false);
    expect(isLspServerError({ code: LSP_SERVER_FAILED })).toBe(false);
  });
});
