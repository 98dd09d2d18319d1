import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { findRipgrep, runRipgrep, streamRipgrep } from './_ripgrep.ts';
import { resolveSearchEngine } from './_search_engine.ts';
import { RIPGREP } from './_test_engines.ts';

const rgDir = path.dirname(RIPGREP ?? '/usr/bin/rg');

describe.skipIf(RIPGREP === undefined)('findRipgrep', () => {
  test('RIPGREP_PATH wins when it is executable, and a wrong one finds nothing', () => {
    expect(findRipgrep({ RIPGREP_PATH: RIPGREP, PATH: '' })).toBe(RIPGREP);
    expect(findRipgrep({ RIPGREP_PATH: '/nonexistent/rg', PATH: rgDir })).toBeUndefined();
  });

  test('without RIPGREP_PATH it looks on PATH', () => {
    expect(findRipgrep({ PATH: `/nonexistent:${rgDir}` })).toBe(RIPGREP);
    expect(findRipgrep({ PATH: '/nonexistent' })).toBeUndefined();
  });
});

describe('resolveSearchEngine', () => {
  test('"js" always gives the JS engine, and an explicit ripgrepPath is used as given', () => {
    expect(resolveSearchEngine({ searchEngine: 'js' })).toEqual({ kind: 'js' });
    expect(resolveSearchEngine({ ripgrepPath: '/opt/rg' })).toEqual({ kind: 'ripgrep', path: '/opt/rg' });
  });
});

describe.skipIf(RIPGREP === undefined)('runRipgrep', () => {
  test('returns exit code and output of a real ripgrep run, and is killed by an abort', async () => {
    const run = await runRipgrep(RIPGREP!, ['--version'], { cwd: '/' });
    expect(run.code).toBe(0);
    expect(run.stdout.toString()).toMatch(/^ripgrep /);
  });

  test('an abort kills a ripgrep that would never finish (blocked on a FIFO)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-rg-'));
    try {
      execFileSync('mkfifo', [path.join(dir, 'fifo')]);
      const controller = new AbortController();
      const running = runRipgrep(RIPGREP!, ['x', 'fifo'], { cwd: dir, signal: controller.signal });
      controller.abort(new Error('stop'));
      await expect(running).rejects.toThrow('stop');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(RIPGREP === undefined)('streamRipgrep with onChunks', () => {
  test('gives whole records as bytes, however the pipe cuts them, and stops when told', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-rg-'));
    try {
      // Lines of many lengths (some over 64 KB), a non-ASCII one, and no newline at the very end.
      const lines = Array.from({ length: 3_000 }, (_, i) => `hit ${i} ${'é✓x'.repeat((i * 37) % 400)}`);
      lines[1_500] = `hit ${'y'.repeat(200_000)}`;
      await writeFile(path.join(dir, 'a.txt'), lines.join('\n'));
      const chunks: Buffer[] = [];
      const run = await streamRipgrep(RIPGREP!, ['--no-filename', 'hit', 'a.txt'], {
        cwd: dir,
        separator: '\n',
        onChunks: (bytes) => {
          chunks.push(Buffer.from(bytes));
        },
      });
      expect(run.code).toBe(0);
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) expect(c.at(-1)).toBe(10);
      expect(Buffer.concat(chunks).toString('utf8')).toBe(`${lines.join('\n')}\n`);
      let seen = 0;
      const stopped = await streamRipgrep(RIPGREP!, ['--no-filename', 'hit', 'a.txt'], {
        cwd: dir,
        separator: '\n',
        onChunks: () => ++seen === 2,
      });
      expect(stopped.stopped).toBe(true);
      expect(seen).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
