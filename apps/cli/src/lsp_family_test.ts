import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { EMPTY_HOME, tempDir } from './_test_io.ts';
import { cliNodeArgs } from './_test_cli.ts';

const lspPackage = fileURLToPath(new URL('../../../packages/tool-lsp/', import.meta.url));
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

/** The binary with `PATH` set as a user's who installed typescript-language-server would be. */
function toolshed(
  args: string[],
  home: string = EMPTY_HOME,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliNodeArgs(), ...args], {
      cwd: fileURLToPath(new URL('..', import.meta.url)), // where tsx resolves
      env: {
        ...process.env,
        TOOLSHED_DEBUG: '',
        HOME: home,
        PATH: `${path.join(lspPackage, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('toolshed with the lsp family', () => {
  test('run: Read, Edit, then LSP goToDefinition in one session sees the edit, with the default servers', {
    timeout: 180_000,
  }, async () => {
    const cwd = await realpath(await tempDir());
    await cp(path.join(lspPackage, 'src', 'testdata', 'project'), cwd, { recursive: true });
    // The project's own typescript, as typescript-language-server expects to find it (no other is
    // beside the server here: the workspace's own is the native compiler, without a tsserver).
    const typescript = path.dirname(
      createRequire(path.join(lspPackage, 'package.json')).resolve('typescript-for-tsserver/package.json'),
    );
    await mkdir(path.join(cwd, 'node_modules'));
    await symlink(typescript, path.join(cwd, 'node_modules', 'typescript'));
    const transcript = path.join(cwd, 'transcript.json');
    await writeFile(
      transcript,
      JSON.stringify([
        [use('r1', 'Read', { file_path: 'src/main.ts' })],
        [
          use('e1', 'Edit', {
            file_path: 'src/main.ts',
            old_string: '  let sum = 0;',
            new_string: '  let sum = 0;\n  sum = add(sum, 1);',
          }),
        ],
        [use('l1', 'LSP', { operation: 'goToDefinition', filePath: 'src/main.ts', line: 5, character: 9 })],
      ]),
    );
    const home = path.join(cwd, '.home');
    await mkdir(home);
    // The project's own TypeScript is the project's code: it runs only once the folder is trusted.
    const definition = JSON.stringify({ operation: 'goToDefinition', filePath: 'src/main.ts', line: 5, character: 9 });
    const untrusted = await toolshed(['call', 'LSP', definition, '--only', 'lsp', '--cwd', cwd], home);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout + untrusted.stderr).toContain(
      `The project folder "${cwd}" is not trusted, so typescript-language-server is not started with the project's own TypeScript ("${path.join(cwd, 'node_modules', 'typescript', 'lib', 'tsserver.js')}")`,
    );
    expect((await toolshed(['trust', cwd], home)).code).toBe(0);
    const r = await toolshed(['run', transcript, '--json', '--yes', '--only', 'fs,lsp', '--cwd', cwd], home);
    expect(r.stderr).not.toContain('could not be loaded');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { turns: { content: string; is_error?: boolean }[][] };
    const lsp = out.turns[2]![0]!;
    expect(lsp.is_error ?? false).toBe(false);
    expect(lsp.content).toBe(
      'Found 1 definition of the symbol at src/main.ts:5:9:\nsrc/math.ts:13:17: export function add(a: number, b: number): number {',
    );
  });
});

describe('the "lsp" key of the settings files', () => {
  /** A home and a project; the "server" of the `.zz` language only writes a marker file. */
  async function setup(where: 'user' | 'project', lsp: unknown = undefined) {
    const root = await realpath(await tempDir());
    const home = path.join(root, 'home');
    const cwd = path.join(root, 'project');
    const marker = path.join(root, 'started');
    await mkdir(path.join(home, '.toolshed'), { recursive: true });
    await mkdir(path.join(cwd, '.toolshed'), { recursive: true });
    await writeFile(path.join(cwd, 'a.zz'), 'x\n');
    const value = lsp ?? {
      servers: {
        zz: {
          command: process.execPath,
          args: ['-e', "require('fs').writeFileSync(process.argv[1], 'started')", marker],
          extensions: ['.zz'],
        },
      },
    };
    const file =
      where === 'user' ? path.join(home, '.toolshed', 'settings.json') : path.join(cwd, '.toolshed', 'settings.json');
    await writeFile(file, JSON.stringify({ lsp: value }));
    return { home, cwd, marker };
  }
  const symbols = JSON.stringify({ operation: 'documentSymbol', filePath: 'a.zz' });

  test("the user's settings add a language server that `call LSP` starts", { timeout: 60_000 }, async () => {
    const { home, cwd, marker } = await setup('user');
    const r = await toolshed(['call', 'LSP', symbols, '--only', 'lsp', '--cwd', cwd], home);
    expect(r.stdout + r.stderr).not.toContain('No language server is configured');
    expect(existsSync(marker)).toBe(true);
  });

  test('an untrusted project cannot add one: nothing is started and the warning names the key', {
    timeout: 60_000,
  }, async () => {
    const { home, cwd, marker } = await setup('project');
    const r = await toolshed(['call', 'LSP', symbols, '--only', 'lsp', '--cwd', cwd], home);
    expect(existsSync(marker)).toBe(false);
    expect(r.stdout + r.stderr).toContain('No language server is configured for "a.zz"');
    expect(r.stderr).toMatch(/not trusted[^\n]*"lsp"/);
  });

  test('a file with the key loads when --only leaves the lsp family out', { timeout: 60_000 }, async () => {
    const { home, cwd } = await setup('user');
    const r = await toolshed(
      ['call', 'Read', JSON.stringify({ file_path: 'a.zz' }), '--only', 'fs', '--cwd', cwd],
      home,
    );
    expect(r.stderr).not.toContain('not a settings key');
    expect(r.code).toBe(0);
  });

  test('a bad value stops the command, and rules lint reports it the same way', { timeout: 60_000 }, async () => {
    const { home, cwd } = await setup('user', { timeoutMs: 'soon' });
    const call = await toolshed(['call', 'LSP', symbols, '--only', 'lsp', '--cwd', cwd], home);
    expect(call.code).toBe(2);
    expect(call.stderr).toContain('lsp.timeoutMs is invalid');
    const lint = await toolshed(['rules', 'lint', '--only', 'lsp', '--cwd', cwd], home);
    expect(lint.code).toBe(1);
    expect(lint.stdout + lint.stderr).toContain('lsp.timeoutMs is invalid');
  });
});
