import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSession } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { DEFAULT_LSP_SERVERS, LSP_OPERATIONS, lspTools } from './mod.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-lsp-family-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('lspTools', () => {
  test('the lsp family passes the conformance check', async () => {
    const family = lspTools();
    expect(family.name).toBe('lsp');
    expect(
      await checkFamily(family, {
        sampleInputs: {
          LSP: LSP_OPERATIONS.map((operation) => ({ operation, filePath: 'a.ts', line: 1, character: 1 })),
        },
      }),
    ).toEqual([]);
  });

  test('LSP is read-only, concurrency-safe, deferred by default, and hinted for ToolSearch', async () => {
    const [tool] = await lspTools().loadTools();
    expect(tool!.name).toBe('LSP');
    for (const operation of LSP_OPERATIONS) {
      const input = { operation, filePath: 'a.ts', line: 1, character: 1 };
      expect(tool!.isReadOnly(input)).toBe(true);
      expect(tool!.isConcurrencySafe(input)).toBe(true);
      expect(tool!.isDestructive(input)).toBe(false);
    }
    expect(tool!.shouldDefer).toBe(true);
    for (const word of ['definition', 'references', 'symbols']) expect(tool!.searchHint).toContain(word);
    expect((await lspTools({ defer: false }).loadTools())[0]!.shouldDefer).toBe(false);
  });

  test("the input has Claude Code's fields: operation, filePath, 1-based line and character", async () => {
    const [tool] = await lspTools().loadTools();
    const ok = tool!.inputSchema.safeParse({
      operation: 'findReferences',
      filePath: 'src/a.ts',
      line: 3,
      character: 7,
    });
    expect(ok.success).toBe(true);
    expect(tool!.inputSchema.safeParse({ operation: 'rename', filePath: 'a.ts', line: 1, character: 1 }).success).toBe(
      false,
    );
    expect(tool!.inputSchema.safeParse({ operation: 'hover', filePath: 'a.ts', line: 0, character: 1 }).success).toBe(
      false,
    );
    expect(tool!.inputSchema.safeParse({ operation: 'hover', file_path: 'a.ts', line: 1, character: 1 }).success).toBe(
      false,
    );
  });

  test('a call declares its file as a read, so the path guard judges it as it judges Read', async () => {
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [lspTools()],
      permissions: { deny: ['Read(./secret/**)'] },
    });
    try {
      const denied = await session.explain('LSP', { operation: 'documentSymbol', filePath: 'secret/a.ts' });
      expect(denied).toMatchObject({ behavior: 'deny', rule: 'Read(./secret/**)' });
      expect((await session.explain('LSP', { operation: 'documentSymbol', filePath: 'src/a.ts' })).behavior).toBe(
        'allow',
      );
      expect((await session.explain('LSP', { operation: 'documentSymbol', filePath: '/etc/hosts.ts' })).behavior).toBe(
        'ask',
      );
    } finally {
      await session.close();
    }
  });

  test('closing a session that never called LSP starts no server and finishes at once', async () => {
    const session = await createSession({ cwd: dir, stateDir: dir, families: [lspTools()] });
    expect(session.catalog().map((e) => [e.name, e.family])).toEqual([['LSP', 'lsp']]);
    await session.close();
  });

  test('lspTools rejects a malformed server or timeout with the value given', () => {
    expect(() => lspTools({ timeoutMs: 0 })).toThrow('lspTools: timeoutMs must be a positive number, got 0');
    expect(() => lspTools({ startTimeoutMs: -5 })).toThrow(
      'lspTools: startTimeoutMs must be a positive number, got -5',
    );
    expect(() => lspTools({ servers: { go: { command: '', extensions: ['.go'] } } })).toThrow(
      "servers.go.command must be the server's program",
    );
    expect(() => lspTools({ servers: { go: { command: 'gopls', extensions: ['go'] } } })).toThrow(
      'servers.go.extensions has "go": write an extension with its dot, such as ".ts"',
    );
    expect(() => lspTools({ servers: { deno: { command: 'deno', args: ['lsp'], extensions: ['.ts'] } } })).toThrow(
      'servers.deno.extensions has ".ts", which servers.typescript already serves',
    );
    expect(() =>
      lspTools({ servers: { typescript: false, deno: { command: 'deno', args: ['lsp'], extensions: ['.ts'] } } }),
    ).not.toThrow();
  });

  test("a server given for a language with a default keeps the default's other fields", async () => {
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [
        lspTools({
          env: { PATH: '/nonexistent-toolshed-path' },
          servers: { typescript: { command: 'my-ts-server', extensions: ['.ts'] } },
        }),
      ],
    });
    try {
      await writeFile(path.join(dir, 'a.ts'), 'export const a = 1;\n');
      const [result] = await session.run([
        { type: 'tool_use', id: 'm1', name: 'LSP', input: { operation: 'documentSymbol', filePath: 'a.ts' } },
      ]);
      expect(result!.is_error).toBe(true);
      expect(String(result!.content)).toContain(
        '"my-ts-server" was not found on PATH. To use LSP on these files, install it (npm install -g typescript-language-server typescript)',
      );
    } finally {
      await session.close();
    }
  });

  test('the defaults serve TypeScript/JavaScript and Python through npm packages', () => {
    expect(DEFAULT_LSP_SERVERS.typescript).toMatchObject({ command: 'typescript-language-server', args: ['--stdio'] });
    expect(DEFAULT_LSP_SERVERS.typescript!.extensions).toEqual(expect.arrayContaining(['.ts', '.tsx', '.js', '.mjs']));
    expect(DEFAULT_LSP_SERVERS.python).toMatchObject({
      command: 'pyright-langserver',
      args: ['--stdio'],
      extensions: ['.py', '.pyi'],
      install: 'npm install -g pyright',
    });
  });
});

describe('lspTools servers', () => {
  test('a language with a default takes only the fields it changes; a new language needs command and extensions', async () => {
    const session = await createSession({
      cwd: dir,
      families: [lspTools({ servers: { typescript: { command: '/nonexistent/tsls' } } })],
    });
    const [result] = await session.run([
      { type: 'tool_use', id: 't1', name: 'LSP', input: { operation: 'documentSymbol', filePath: 'missing.tsx' } },
    ]);
    // .tsx is still served (the default's extensions), so the error is about the file, not the language.
    expect(String(result!.content)).toContain('File does not exist');
    await session.close();
    expect(() => lspTools({ servers: { rust: { command: 'rust-analyzer' } } })).toThrow(
      'servers.rust.extensions must list the file extensions it serves',
    );
  });
});
