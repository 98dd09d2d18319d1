import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runToolshed } from './_test_process.ts';

async function project(): Promise<{ home: string; cwd: string }> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-readfirst-')));
  await mkdir(path.join(root, 'home'));
  await mkdir(path.join(root, 'project'));
  await writeFile(path.join(root, 'project', 'a.txt'), 'hello world\n');
  return { home: path.join(root, 'home'), cwd: path.join(root, 'project') };
}

const edit = JSON.stringify({ file_path: 'a.txt', old_string: 'world', new_string: 'there' });

describe('toolshed call Edit/Write of an existing file', () => {
  test('an Edit of an existing file succeeds: call reads it first', async () => {
    const { home, cwd } = await project();
    const r = await runToolshed(['call', 'Edit', edit, '--yes', '--cwd', cwd], { home });
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(path.join(cwd, 'a.txt'), 'utf8')).toBe('hello there\n');
  });

  test('a Write over an existing file succeeds too', async () => {
    const { home, cwd } = await project();
    const r = await runToolshed(
      ['call', 'Write', JSON.stringify({ file_path: 'a.txt', content: 'new\n' }), '--yes', '--cwd', cwd],
      { home },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(path.join(cwd, 'a.txt'), 'utf8')).toBe('new\n');
  });

  test('--no-read-first leaves the edit to fail as in a fresh session', async () => {
    const { home, cwd } = await project();
    const r = await runToolshed(['call', 'Edit', edit, '--yes', '--no-read-first', '--cwd', cwd], { home });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not been read/i);
    expect(await readFile(path.join(cwd, 'a.txt'), 'utf8')).toBe('hello world\n');
  });

  test('a Read deny rule still applies: the read first is refused and the file is not edited', async () => {
    const { home, cwd } = await project();
    const r = await runToolshed(['call', 'Edit', edit, '--yes', '--deny', 'Read(./a.txt)', '--cwd', cwd], { home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the Read failed');
    expect(r.stderr).toContain('Read(./a.txt)');
    expect(await readFile(path.join(cwd, 'a.txt'), 'utf8')).toBe('hello world\n');
  });
});
