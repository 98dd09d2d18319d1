import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RIPGREP } from '../_test_engines.ts';
import { cutPoints, cutTree, escapeGlob, PIECE_SHARES } from './_rg_cut.ts';

describe('cutPoints', () => {
  test('cuts where the weight before reaches each running share, and never leaves a piece empty', () => {
    expect(cutPoints([1, 1, 1, 1], [0.5, 0.5])).toEqual([0, 2, 4]);
    expect(cutPoints([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [0.05, 0.1, 0.2, 0.3, 0.35])).toEqual([0, 1, 2, 4, 7, 10]);
    expect(cutPoints([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], PIECE_SHARES)).toEqual([0, 3, 5, 8, 10]);
    // One heavy leaf takes several shares: the cuts that fall together are one.
    expect(cutPoints([100, 1, 1], [0.25, 0.25, 0.5])).toEqual([0, 1, 3]);
    expect(cutPoints([1], PIECE_SHARES)).toEqual([0, 1]);
    expect(cutPoints([], PIECE_SHARES)).toEqual([0]);
  });
});

describe('escapeGlob', () => {
  test('escapes what a gitignore-style glob reads as special, and trailing spaces', () => {
    expect(escapeGlob('x[1]*?')).toBe('x\\[1\\]\\*\\?');
    expect(escapeGlob('br{a,b}')).toBe('br\\{a,b\\}');
    expect(escapeGlob('bs\\q!')).toBe('bs\\\\q\\!');
    expect(escapeGlob('sp  ')).toBe('sp[ ][ ]');
    expect(escapeGlob('tab\t\u00a0')).toBe('tab[\t][\u00a0]');
    expect(escapeGlob('plain.ts')).toBe('plain.ts');
  });
});

describe.skipIf(RIPGREP === undefined)('cutTree with ripgrep', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rg-cut-'));
    // Names a glob reads as special, names whose byte order is not walk order, ignore files at
    // two levels, a hidden folder, a link, an empty folder, a folder deeper than the reading goes.
    const files = [
      'a/b.ts',
      'a-c.ts',
      'a.b/x.ts',
      'we*ird/f.ts',
      'x[1]/f.ts',
      'br{a,b}/f.ts',
      'bs\\q/f.ts',
      'sp /f.ts',
      '!bang/f.ts',
      '#hash/f.ts',
      'ü/naïve.ts',
      '.hidden/h.ts',
      'ignored/i.ts',
      'sub/.gitignore',
      'sub/kept.ts',
      'sub/skip.log',
      'z.md',
    ];
    for (let i = 0; i < 120; i++) files.push(`deep/${i % 4}/${i % 3}/${i % 5}/f${i}.ts`);
    for (const name of files) {
      await mkdir(path.join(dir, path.dirname(name)), { recursive: true });
      await writeFile(path.join(dir, name), name.endsWith('.gitignore') ? '*.log\n' : `hit ${name}\n`);
    }
    await writeFile(path.join(dir, '.gitignore'), 'ignored/\n');
    await mkdir(path.join(dir, 'empty'));
    await symlink('a', path.join(dir, 'link'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const rgFiles = (extra: readonly string[]) =>
    execFileSync(RIPGREP!, ['--no-config', '--files', '--sort', 'path', '--hidden', '--no-require-git', ...extra], {
      cwd: dir,
    }).toString();

  test.each([
    ['the default shares', PIECE_SHARES, {}],
    ['ten equal shares', Array.from({ length: 10 }, () => 0.1), {}],
    ['two shares, the root read alone', [0.5, 0.5], { maxReads: 1 }],
    ['five shares, two levels read', PIECE_SHARES, { maxReads: 30 }],
  ])(
    'with %s, the pieces one after another list what one sorted run lists, each file once',
    async (_, shares, options) => {
      const pieces = await cutTree(dir, shares, options);
      expect(pieces).toBeDefined();
      expect(pieces!.length).toBeGreaterThan(1);
      for (const filters of [[], ['--glob', '*.ts'], ['--glob', '!*.md'], ['--type', 'ts']]) {
        const whole = rgFiles(filters);
        const joined = pieces!.map((piece) => rgFiles([...filters, ...piece.args])).join('');
        expect(joined, JSON.stringify(filters)).toBe(whole);
        for (const piece of pieces!.map(({ args }) => rgFiles([...filters, ...args]))) expect(piece).not.toBe(whole);
      }
      // What ignore files leave out stays out.
      expect(rgFiles([])).not.toMatch(/ignored\/|skip\.log/);
    },
  );

  test('only the root is read when that is all maxReads allows: cuts fall between its entries', async () => {
    const pieces = await cutTree(dir, [0.5, 0.5], { maxReads: 1 });
    for (const glob of pieces!.flatMap((p) => p.args).filter((a) => a !== '--glob')) expect(glob).toMatch(/^!\/[^/]+$/);
  });

  test('what ignore files leave out weighs nothing: the pieces share what is searched, not a big ignored folder', async () => {
    const repo = await mkdtemp(path.join(tmpdir(), 'rg-cut-ignored-'));
    try {
      await writeFile(path.join(repo, '.gitignore'), 'node_modules/\n*.log\n');
      for (let i = 0; i < 400; i++) {
        await mkdir(path.join(repo, 'node_modules', `pkg${i}`), { recursive: true });
        await writeFile(path.join(repo, 'node_modules', `pkg${i}`, 'index.js'), 'hit\n');
      }
      for (let i = 0; i < 40; i++) {
        await mkdir(path.join(repo, 'src', `m${i % 8}`), { recursive: true });
        await writeFile(path.join(repo, 'src', `m${i % 8}`, `f${i}.ts`), 'hit\n');
        await writeFile(path.join(repo, 'src', `m${i % 8}`, `f${i}.log`), 'hit\n');
      }
      const pieces = await cutTree(repo, [0.25, 0.25, 0.25, 0.25]);
      const listed = pieces!.map(
        ({ args }) =>
          execFileSync(
            RIPGREP!,
            ['--no-config', '--files', '--sort', 'path', '--hidden', '--no-require-git', ...args],
            {
              cwd: repo,
            },
          )
            .toString()
            .split('\n')
            .filter((f) => f.startsWith('src/')).length,
      );
      // Every piece has a share of the 40 files searched (each folder of 5 whole).
      expect(listed.reduce((a, b) => a + b, 0)).toBe(40);
      for (const n of listed) expect(n).toBeGreaterThanOrEqual(5);
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });

  test('a folder too big to sort for a cut is left whole; a root that big is not cut', async () => {
    const big = await mkdtemp(path.join(tmpdir(), 'rg-cut-big-'));
    try {
      await mkdir(path.join(big, 'flat'));
      for (let i = 0; i < 4100; i++) await writeFile(path.join(big, 'flat', `f${i}`), '');
      for (let i = 0; i < 6; i++) await writeFile(path.join(big, `r${i}`), '');
      const pieces = await cutTree(big, [0.5, 0.5]);
      // Cut between the root's names, never inside `flat`.
      for (const glob of pieces!.flatMap((p) => p.args).filter((a) => a !== '--glob'))
        expect(glob).toMatch(/^!\/[^/]+$/);
      expect(await cutTree(path.join(big, 'flat'), [0.5, 0.5])).toBeUndefined();
    } finally {
      await rm(big, { recursive: true, force: true });
    }
  });

  test('gives up (undefined) where a glob cannot say a name, or a piece would need too many', async () => {
    const odd = await mkdtemp(path.join(tmpdir(), 'rg-cut-odd-'));
    try {
      await writeFile(path.join(odd, 'a\nb.ts'), 'hit\n');
      await writeFile(path.join(odd, 'c.ts'), 'hit\n');
      expect(await cutTree(odd, [0.5, 0.5])).toBeUndefined();
      await rm(path.join(odd, 'a\nb.ts'));
      // One file: nothing to cut.
      expect(await cutTree(odd, [0.5, 0.5])).toBeUndefined();
      for (let i = 0; i < 30; i++) await writeFile(path.join(odd, `f${i}.ts`), 'hit\n');
      expect(await cutTree(odd, [0.5, 0.5], { maxGlobs: 10 })).toBeUndefined();
      expect(await cutTree(odd, [0.5, 0.5], { maxGlobs: 20 })).toHaveLength(2);
    } finally {
      await rm(odd, { recursive: true, force: true });
    }
  });
});
