import { mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from '../_test_session.ts';
import { SEARCH_ENGINES } from '../_test_engines.ts';

describe.each(SEARCH_ENGINES)('Glob with the %s engine', (engine) => {
  let bench: TestBench;
  beforeEach(async () => {
    bench = await makeBench({ family: { searchEngine: engine } });
  });
  afterEach(async () => {
    await bench.cleanup();
  });
  async function put(name: string, content = 'x\n', ageSeconds = 0): Promise<void> {
    const f = path.join(bench.dir, name);
    await mkdir(path.dirname(f), { recursive: true });
    await writeFile(f, content);
    const t = new Date(Date.now() - ageSeconds * 1000);
    await utimes(f, t, t);
  }

  test('Glob returns matches relative to the search root, newest first', async () => {
    await put('src/old.ts', 'x', 300);
    await put('src/new.ts', 'x', 10);
    await put('src/deep/mid.ts', 'x', 100);
    await put('src/a.js');
    const { text } = await bench.call('Glob', { pattern: '**/*.ts' });
    expect(text.split('\n')).toEqual(['src/new.ts', 'src/deep/mid.ts', 'src/old.ts']);
  });

  test('"*" stays within one folder and "**" crosses folders', async () => {
    await put('top.ts');
    await put('sub/inner.ts');
    expect((await bench.call('Glob', { pattern: '*.ts' })).text).toBe('top.ts');
    expect((await bench.call('Glob', { pattern: 'sub/*.{ts,js}' })).text).toBe('sub/inner.ts');
  });

  test('Glob leaves out files ignored by .gitignore (nested ones too) and .git, and includes hidden files', async () => {
    await put('.gitignore', 'dist/\n*.log\n');
    await put('pkg/.gitignore', 'generated.ts\n');
    await put('dist/out.ts');
    await put('app.log');
    await put('pkg/generated.ts');
    await put('pkg/kept.ts');
    await put('.github/workflow.yml');
    await put('.git/HEAD');
    const files = (await bench.call('Glob', { pattern: '**/*' })).text.split('\n').sort();
    expect(files).toEqual(['.github/workflow.yml', '.gitignore', 'pkg/.gitignore', 'pkg/kept.ts']);
  });

  test('Glob lists files in a git-ignored folder when the pattern or the path names it', async () => {
    await writeFile(path.join(bench.dir, '.gitignore'), 'node_modules/\n');
    await mkdir(path.join(bench.dir, 'node_modules', 'pkg'), { recursive: true });
    await writeFile(path.join(bench.dir, 'node_modules', 'pkg', 'index.d.ts'), 'export {};\n');
    expect((await bench.call('Glob', { pattern: '**/*.d.ts' })).text).toBe(`No files found in ${bench.dir}.`);
    expect((await bench.call('Glob', { pattern: 'node_modules/pkg/*.d.ts' })).text).toBe('node_modules/pkg/index.d.ts');
    expect((await bench.call('Glob', { pattern: '*.d.ts', path: 'node_modules/pkg' })).text).toBe('index.d.ts');
  });

  test('Glob searches in path, and paths are relative to it', async () => {
    await put('a/b/c.md');
    await put('a/d.md');
    const { text } = await bench.call('Glob', { pattern: '**/*.md', path: 'a' });
    expect(text.split('\n').sort()).toEqual(['b/c.md', 'd.md']);
  });

  test('Glob returns at most 100 paths with a notice to narrow the pattern', async () => {
    for (let i = 0; i < 130; i++) await put(`many/f${i}.txt`);
    const { text } = await bench.call('Glob', { pattern: 'many/*.txt' });
    const lines = text.split('\n');
    expect(lines.length).toBe(101);
    expect(lines[100]).toBe(
      '(Results are truncated: showing the 100 newest of 130 files. Narrow the pattern or the path.)',
    );
  });

  test('Glob says when nothing matched, and refuses a missing or non-folder path', async () => {
    await put('a.txt');
    expect((await bench.call('Glob', { pattern: '*.rs' })).text).toBe(`No files found in ${bench.dir}.`);
    const missing = await bench.call('Glob', { pattern: '*', path: 'nope' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Directory does not exist');
    expect((await bench.call('Glob', { pattern: '*', path: 'a.txt' })).text).toContain('is a file, not a directory');
  });

  test('Glob does not follow symlinks, as ripgrep does not', async () => {
    await put('real/x.ts');
    await symlink(path.join(bench.dir, 'real'), path.join(bench.dir, 'linked'));
    expect((await bench.call('Glob', { pattern: '**/*.ts' })).text).toBe('real/x.ts');
  });

  test('an absolute pattern is searched from its fixed folders', async () => {
    await put('abs/q.json');
    const { text } = await bench.call('Glob', { pattern: `${bench.dir}/abs/*.json` });
    expect(text).toBe('abs/q.json');
  });

  test('a malformed pattern is refused with the position', async () => {
    const { text, isError } = await bench.call('Glob', { pattern: 'src/{a,b' });
    expect(isError).toBe(true);
    expect(text).toContain('unclosed "{"');
  });
});

describe.each(SEARCH_ENGINES)('Glob between its permission check and its search (%s engine)', (engine) => {
  // Approved as d -> notes (inside the project); meanwhile (here while a person reads the prompt)
  // something re-points d at a folder outside it, holding a secret.
  let bench: TestBench;
  let secrets: string;
  let notes: string;
  let repoint = false;
  beforeEach(async () => {
    secrets = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-secrets-')));
    await writeFile(path.join(secrets, 'launch-plan-7731.txt'), 'secret\n');
    bench = await makeBench({
      family: { searchEngine: engine },
      permissions: { ask: ['Glob'] },
      canUseTool: async () => {
        if (repoint) {
          await rm(path.join(bench.dir, 'd'));
          await symlink(secrets, path.join(bench.dir, 'd'));
        }
        return { behavior: 'allow' };
      },
    });
    notes = path.join(bench.dir, 'notes');
    await mkdir(path.join(notes, 'sub'), { recursive: true });
    await writeFile(path.join(notes, 'a.txt'), 'notes\n');
    await writeFile(path.join(notes, 'sub', 'b.txt'), 'notes\n');
    await symlink('notes', path.join(bench.dir, 'd'));
    repoint = true;
  });
  afterEach(async () => {
    await bench.cleanup();
    await rm(secrets, { recursive: true, force: true });
  });

  test('a folder whose link is re-pointed after the check is not listed, and the error names both places', async () => {
    for (const input of [
      { pattern: '**/*.txt', path: 'd' },
      { pattern: '*.txt', path: 'd' },
      { pattern: `${bench.dir}/d/*.txt` },
    ]) {
      const { text, isError } = await bench.call('Glob', input);
      expect(text).not.toContain('launch-plan');
      expect(isError).toBe(true);
      expect(text).toContain(
        `${path.join(bench.dir, 'd')} changed between its permission check and the search: it now leads to "${secrets}", not to "${notes}", which was checked; nothing was searched.`,
      );
      await rm(path.join(bench.dir, 'd'));
      await symlink('notes', path.join(bench.dir, 'd'));
    }
  });

  test('with the link left alone, a Glob through it lists what it always did', async () => {
    repoint = false;
    const glob = async (input: Record<string, unknown>) => {
      const { text, isError } = await bench.call('Glob', input);
      expect(isError).toBe(false);
      return text.split('\n').sort();
    };
    expect(await glob({ pattern: '**/*.txt', path: 'd' })).toEqual(['a.txt', 'sub/b.txt']);
    expect(await glob({ pattern: 'sub/*.txt', path: 'd' })).toEqual(['sub/b.txt']);
    expect(await glob({ pattern: 'sub/b.txt', path: 'd' })).toEqual(['sub/b.txt']);
    expect(await glob({ pattern: `${bench.dir}/d/**/*.txt` })).toEqual(['d/a.txt', 'd/sub/b.txt']);
  });
});
