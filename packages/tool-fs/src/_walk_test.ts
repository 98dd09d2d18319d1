import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { walkFiles } from './_walk.ts';
import { runRipgrep } from './_ripgrep.ts';
import { RIPGREP } from './_test_engines.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-walk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
async function put(name: string, content = 'x'): Promise<void> {
  await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
  await writeFile(path.join(dir, name), content);
}
/** ripgrep's own listing, to compare with; without ripgrep, the walk's result itself (the literal expectations still hold). */
async function rgFiles(root: string, globs: string[] = []): Promise<string[]> {
  if (RIPGREP === undefined) return (await walkFiles(root, { globs })).sort();
  const args = ['--files', '--hidden', '--no-require-git', '--glob', '!.git', ...globs.flatMap((g) => ['--glob', g])];
  const run = await runRipgrep(RIPGREP!, args, { cwd: root });
  return run.stdout.toString().split('\n').filter(Boolean).sort();
}

describe('walkFiles', () => {
  test('lists the same files as rg --files: nested ignore files, negations, .ignore, hidden files, no .git', async () => {
    await put('.gitignore', 'node_modules/\n*.log\n!keep.log\n/rootonly.txt\n');
    await put('node_modules/pkg/index.js');
    await put('a.log');
    await put('keep.log');
    await put('rootonly.txt');
    await put('sub/rootonly.txt');
    await put('sub/.gitignore', 'secret/\n');
    await put('sub/secret/s.txt');
    await put('sub/.ignore', 'tmp.txt\n');
    await put('sub/tmp.txt');
    await put('.hidden/h.txt');
    await put('.git/HEAD');
    await put('src/main.ts');
    const files = (await walkFiles(dir)).sort();
    expect(files).toEqual(await rgFiles(dir));
    expect(files).toContain('keep.log');
    expect(files).toContain('sub/rootonly.txt');
    expect(files).not.toContain('rootonly.txt');
  });

  test('ignore files in folders above the root apply, as ripgrep applies them', async () => {
    await put('.gitignore', 'ignored.txt\n');
    await put('inner/ignored.txt');
    await put('inner/kept.txt');
    expect(await walkFiles(path.join(dir, 'inner'))).toEqual(['kept.txt']);
    expect(await rgFiles(path.join(dir, 'inner'))).toEqual(['kept.txt']);
  });

  test('a root inside an ignored folder is listed, as ripgrep lists it, with the name-only rules above still applied', async () => {
    await put('.gitignore', 'node_modules\n*.log\n');
    await put('node_modules/pkg/index.js');
    await put('node_modules/pkg/lib/util.js');
    await put('node_modules/pkg/debug.log');
    await put('node_modules/pkg/node_modules/dep/x.js');
    const root = path.join(dir, 'node_modules', 'pkg');
    const files = (await walkFiles(root)).sort();
    expect(files).toEqual(['index.js', 'lib/util.js']);
    expect(files).toEqual(await rgFiles(root));
  });

  test('globs override as rg --glob does: a positive glob includes an ignored file, a negative one excludes', async () => {
    await put('.gitignore', 'secret.ts\nbuild/\n');
    await put('secret.ts');
    await put('a.ts');
    await put('a.test.ts');
    await put('b.js');
    await put('build/out.ts');
    const globs = ['*.ts', '!*.test.ts'];
    expect((await walkFiles(dir, { globs })).sort()).toEqual(await rgFiles(dir, globs));
    expect((await walkFiles(dir, { globs })).sort()).toEqual(['a.ts', 'secret.ts']);
  });

  test("a repository's .git/info/exclude is honoured, as by ripgrep", async () => {
    await put('.git/info/exclude', 'local-notes.md\n');
    await put('local-notes.md');
    await put('README.md');
    expect(await walkFiles(dir)).toEqual(['README.md']);
    expect(await rgFiles(dir)).toEqual(['README.md']);
  });

  test('symlinks are not followed', async () => {
    await put('real/x.txt');
    await symlink(path.join(dir, 'real'), path.join(dir, 'link'));
    await symlink(path.join(dir, 'real', 'x.txt'), path.join(dir, 'file_link'));
    expect(await walkFiles(dir)).toEqual(['real/x.txt']);
  });

  test('an aborted walk rejects with the reason', async () => {
    await put('a.txt');
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(walkFiles(dir, { signal: controller.signal })).rejects.toThrow('stopped');
  });
});
