import { spawn } from 'node:child_process';
import { cp, mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { EMPTY_HOME, tempDir } from './_test_io.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const lspPackage = fileURLToPath(new URL('../../../packages/tool-lsp/', import.meta.url));
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

/** The binary with `PATH` set as a user's who installed typescript-language-server would be. */
function toolshed(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@toolshed/source', '--import', 'tsx', main, ...args], {
      cwd: fileURLToPath(new URL('..', import.meta.url)), // where tsx resolves
      env: {
        ...process.env,
        TOOLSHED_DEBUG: '',
        HOME: EMPTY_HOME,
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
    // The project's own typescript, as typescript-language-server expects to find it.
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
    const r = await toolshed(['run', transcript, '--json', '--yes', '--only', 'fs,lsp', '--cwd', cwd]);
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
