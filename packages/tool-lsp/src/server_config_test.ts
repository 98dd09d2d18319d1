import { describe, expect, test } from 'vitest';
import { checkServerConfigs, DEFAULT_LSP_SERVERS, languageIdOf, serverForFile } from './server_config.ts';

describe('serverForFile', () => {
  test('picks the server by extension, whatever its case', () => {
    expect(serverForFile(DEFAULT_LSP_SERVERS, '/p/src/App.TSX')?.language).toBe('typescript');
    expect(serverForFile(DEFAULT_LSP_SERVERS, 'tool.py')?.language).toBe('python');
    expect(serverForFile(DEFAULT_LSP_SERVERS, 'Makefile')).toBeUndefined();
    expect(serverForFile(DEFAULT_LSP_SERVERS, 'notes.md')).toBeUndefined();
  });
});

describe('languageIdOf', () => {
  test("gives the ids servers expect, the server's own mapping first", () => {
    expect(languageIdOf('a.tsx', DEFAULT_LSP_SERVERS.typescript!)).toBe('typescriptreact');
    expect(languageIdOf('a.mjs', DEFAULT_LSP_SERVERS.typescript!)).toBe('javascript');
    expect(languageIdOf('a.vue', { command: 'vls', extensions: ['.vue'] })).toBe('vue');
    expect(languageIdOf('a.h', { command: 'clangd', extensions: ['.h'], languageIds: { '.h': 'cpp' } })).toBe('cpp');
  });
});

describe('checkServerConfigs', () => {
  test('lower-cases extensions and refuses what cannot work, with the value', () => {
    expect(checkServerConfigs({ go: { command: 'gopls', extensions: ['.GO'] } }).go!.extensions).toEqual(['.go']);
    expect(() => checkServerConfigs({ go: { command: 'gopls', extensions: [] } })).toThrow(
      'servers.go.extensions must list the file extensions it serves, such as [".ts"], got []',
    );
    expect(() =>
      checkServerConfigs({ go: { command: 'gopls', args: '--stdio' as never, extensions: ['.go'] } }),
    ).toThrow('servers.go.args must be a list of strings, got "--stdio"');
    expect(() => checkServerConfigs([] as never)).toThrow('servers must be an object');
  });
});
