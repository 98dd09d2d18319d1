import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FileStateCache, hashContent } from './file_state_cache.ts';
import type { FileStateInput } from './file_state_cache.ts';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'toolshed-filestate-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Reads a real file the way Read does and returns what the cache is given. */
async function readState(path: string, range: { offset?: number; limit?: number } = {}): Promise<FileStateInput> {
  const text = await readFile(path, 'utf8');
  const st = await stat(path);
  const partial = range.offset !== undefined || range.limit !== undefined;
  return { contentHash: hashContent(text), mtimeMs: st.mtimeMs, size: st.size, partial, ...range, content: text };
}

async function current(path: string): Promise<{ contentHash: string; mtimeMs: number }> {
  const bytes = await readFile(path);
  return { contentHash: hashContent(bytes), mtimeMs: (await stat(path)).mtimeMs };
}

function stub(content?: string): FileStateInput {
  const base = { contentHash: hashContent(content ?? ''), mtimeMs: 1, size: 0, partial: false };
  return content === undefined ? base : { ...base, content };
}

describe('FileStateCache', () => {
  test('hashContent hashes text as UTF-8, so text and bytes of a file agree', async () => {
    const path = join(tmp, 'u.txt');
    await writeFile(path, 'héllo 😀\n');
    expect(hashContent(await readFile(path, 'utf8'))).toBe(hashContent(await readFile(path)));
    expect(hashContent('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(FileStateCache.hashContent('abc')).toBe(hashContent('abc'));
  });

  test('a contentHash given as a function is taken on first use, once, and then checks as a string would', async () => {
    const path = join(tmp, 'w.txt');
    await writeFile(path, 'written\n');
    const st = await stat(path);
    let calls = 0;
    const cache = new FileStateCache();
    const entry = cache.record(path, {
      contentHash: () => {
        calls++;
        return hashContent('written\n');
      },
      mtimeMs: st.mtimeMs,
      size: st.size,
      partial: false,
    });
    expect(calls).toBe(0);
    expect(cache.checkFresh(path, await current(path))).toEqual({ status: 'fresh' });
    expect(entry.contentHash).toBe(hashContent('written\n'));
    expect({ ...cache.get(path) }.contentHash).toBe(hashContent('written\n'));
    expect(calls).toBe(1);
    await writeFile(path, 'changed\n');
    expect(cache.checkFresh(path, await current(path)).status).toBe('stale');
    expect(calls).toBe(1);
  });

  test('checkFresh says not_read for a file that was never read', async () => {
    const path = join(tmp, 'a.txt');
    await writeFile(path, 'one\n');
    expect(new FileStateCache().checkFresh(path, await current(path))).toEqual({ status: 'not_read' });
  });

  test('checkFresh says fresh for a file unchanged since it was read', async () => {
    const path = join(tmp, 'a.txt');
    await writeFile(path, 'one\n');
    const cache = new FileStateCache();
    cache.record(path, await readState(path));
    expect(cache.checkFresh(path, await current(path))).toEqual({ status: 'fresh' });
  });

  test('checkFresh stays fresh when only the mtime changed (touch, a formatter that changed nothing)', async () => {
    const path = join(tmp, 'a.txt');
    await writeFile(path, 'one\n');
    const cache = new FileStateCache();
    cache.record(path, await readState(path));
    const later = new Date(Date.now() + 60_000);
    await utimes(path, later, later);
    const now = await current(path);
    expect(now.mtimeMs).not.toBe(cache.get(path)?.mtimeMs);
    expect(cache.checkFresh(path, now)).toEqual({ status: 'fresh' });
  });

  test('checkFresh says stale with an actionable reason when the content changed on disk', async () => {
    const path = join(tmp, 'a.txt');
    await writeFile(path, 'one\n');
    const cache = new FileStateCache();
    cache.record(path, await readState(path));
    await writeFile(path, 'two\n');
    const check = cache.checkFresh(path, await current(path));
    expect(check.status).toBe('stale');
    if (check.status !== 'stale') return;
    expect(check.reason).toContain(path);
    expect(check.reason).toMatch(/changed on disk/);
    expect(check.reason).toMatch(/Read it again/);
  });

  test('checkFresh says partial when only a range of the file was read', async () => {
    const path = join(tmp, 'a.txt');
    await writeFile(path, 'one\ntwo\nthree\n');
    const cache = new FileStateCache();
    cache.record(path, await readState(path, { offset: 2, limit: 1 }));
    expect(cache.checkFresh(path, await current(path))).toEqual({ status: 'partial' });
    cache.record(path, await readState(path));
    expect(cache.checkFresh(path, await current(path))).toEqual({ status: 'fresh' });
  });

  test('checkFresh reports a changed file as stale even after a partial read', async () => {
    const path = join(tmp, 'a.txt');
    await writeFile(path, 'one\ntwo\n');
    const cache = new FileStateCache();
    cache.record(path, await readState(path, { offset: 1, limit: 1 }));
    await writeFile(path, 'ONE\ntwo\n');
    expect(cache.checkFresh(path, await current(path)).status).toBe('stale');
  });

  test('isUnchangedRead is true only for the same range and the same content', async () => {
    const path = join(tmp, 'a.txt');
    await writeFile(path, 'one\ntwo\nthree\n');
    const cache = new FileStateCache();
    cache.record(path, await readState(path, { offset: 2, limit: 1 }));
    const { contentHash } = await current(path);
    expect(cache.isUnchangedRead(path, { offset: 2, limit: 1, contentHash })).toBe(true);
    expect(cache.isUnchangedRead(path, { offset: 1, limit: 1, contentHash })).toBe(false);
    expect(cache.isUnchangedRead(path, { offset: 2, limit: 2, contentHash })).toBe(false);
    expect(cache.isUnchangedRead(path, { contentHash })).toBe(false);
    await writeFile(path, 'one\nTWO\nthree\n');
    expect(cache.isUnchangedRead(path, { offset: 2, limit: 1, ...(await current(path)) })).toBe(false);
    expect(cache.isUnchangedRead(join(tmp, 'other.txt'), { contentHash })).toBe(false);
  });

  test('isUnchangedRead matches a whole-file read with no range given', async () => {
    const path = join(tmp, 'a.txt');
    await writeFile(path, 'whole\n');
    const cache = new FileStateCache();
    cache.record(path, await readState(path));
    expect(cache.isUnchangedRead(path, { offset: undefined, limit: undefined, ...(await current(path)) })).toBe(true);
  });

  test('the cache keys entries by normalized absolute path', () => {
    const cache = new FileStateCache();
    cache.record('/repo/src/../lib/./a.ts', stub('x'));
    expect(cache.get('/repo/lib/a.ts')?.path).toBe('/repo/lib/a.ts');
    expect(cache.get('/repo//lib/a.ts/')).toBeDefined();
    expect(cache.size).toBe(1);
  });

  test('the cache refuses a relative path and says how to fix it', () => {
    const cache = new FileStateCache();
    expect(() => cache.record('src/a.ts', stub())).toThrow(TypeError);
    expect(() => cache.get('./a.ts')).toThrow(/absolute path, got '\.\/a\.ts'/);
  });

  test('record fills readAt with the time of the read when none is given', () => {
    const cache = new FileStateCache();
    const before = Date.now();
    const entry = cache.record('/a', stub());
    expect(entry.readAt).toBeGreaterThanOrEqual(before);
    expect(cache.record('/b', { ...stub(), readAt: 42 }).readAt).toBe(42);
  });

  test('the cache drops the least recently used entry when it has more than maxEntries', () => {
    const cache = new FileStateCache({ maxEntries: 3 });
    cache.record('/a', stub('a'));
    cache.record('/b', stub('b'));
    cache.record('/c', stub('c'));
    cache.get('/a'); // a is now the most recently used, b the least
    cache.record('/d', stub('d'));
    expect(cache.size).toBe(3);
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')).toBeDefined();
    expect(cache.get('/c')).toBeDefined();
    expect(cache.get('/d')).toBeDefined();
  });

  test('checkFresh and isUnchangedRead count as use for the LRU order', () => {
    const cache = new FileStateCache({ maxEntries: 2 });
    cache.record('/a', stub('a'));
    cache.record('/b', stub('b'));
    cache.checkFresh('/a', { contentHash: hashContent('a'), mtimeMs: 1 });
    cache.record('/c', stub('c'));
    expect(cache.get('/a')).toBeDefined();
    expect(cache.get('/b')).toBeUndefined();
  });

  test('an evicted file counts as not read', () => {
    const cache = new FileStateCache({ maxEntries: 1 });
    cache.record('/a', stub('a'));
    cache.record('/b', stub('b'));
    expect(cache.checkFresh('/a', { contentHash: hashContent('a'), mtimeMs: 1 })).toEqual({ status: 'not_read' });
  });

  test('the cache drops the least recently used entries when stored content passes maxBytes', () => {
    const cache = new FileStateCache({ maxBytes: 1_000 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) cache.record(`/${name}`, stub(name.repeat(200)));
    expect(cache.bytes).toBe(1_000);
    expect(cache.size).toBe(5);
    cache.get('/a');
    cache.record('/f', stub('f'.repeat(150)));
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')).toBeDefined();
    expect(cache.bytes).toBe(950);
    expect(cache.size).toBe(5);
  });

  test('the cache counts stored content in UTF-8 bytes', () => {
    const cache = new FileStateCache({ maxBytes: 1_000 });
    cache.record('/u', stub('😀'.repeat(10))); // 20 UTF-16 units, 40 bytes
    expect(cache.bytes).toBe(40);
  });

  test('the cache keeps the entry but not the content when content is over a quarter of maxBytes', () => {
    const cache = new FileStateCache({ maxBytes: 1_000 });
    cache.record('/big', stub('x'.repeat(251)));
    const entry = cache.get('/big');
    expect(entry).toBeDefined();
    expect(entry?.content).toBeUndefined();
    expect(entry?.contentHash).toBe(hashContent('x'.repeat(251)));
    expect(cache.bytes).toBe(0);
    cache.record('/edge', stub('y'.repeat(250)));
    expect(cache.get('/edge')?.content).toBe('y'.repeat(250));
  });

  test('content short enough in UTF-16 units but over the bound in UTF-8 bytes is not stored', () => {
    const cache = new FileStateCache({ maxBytes: 1_000 });
    // 125 units, 250 bytes: at the bound; 126 units, 252 bytes: over it though its length is not.
    cache.record('/at', stub('é'.repeat(125)));
    expect(cache.get('/at')?.content).toBe('é'.repeat(125));
    expect(cache.bytes).toBe(250);
    cache.record('/over', stub('é'.repeat(126)));
    expect(cache.get('/over')?.content).toBeUndefined();
    expect(cache.bytes).toBe(250);
    // Replacing a stored content by one too large to store takes its bytes off the total.
    cache.record('/at', stub('x'.repeat(10_000)));
    expect(cache.get('/at')?.content).toBeUndefined();
    expect(cache.get('/at')?.contentHash).toBe(hashContent('x'.repeat(10_000)));
    expect(cache.bytes).toBe(0);
  });

  test('recording a file again replaces its entry without counting its bytes twice', () => {
    const cache = new FileStateCache();
    cache.record('/a', stub('a'.repeat(100)));
    cache.record('/a', stub('b'.repeat(30)));
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(30);
    expect(cache.get('/a')?.content).toBe('b'.repeat(30));
    cache.record('/a', stub());
    expect(cache.bytes).toBe(0);
  });

  test('delete and clear forget entries and their bytes', () => {
    const cache = new FileStateCache();
    cache.record('/a', stub('aaaa'));
    cache.record('/b', stub('bb'));
    expect(cache.delete('/a')).toBe(true);
    expect(cache.delete('/a')).toBe(false);
    expect(cache.bytes).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(cache.get('/b')).toBeUndefined();
  });

  test('stored entries cannot be changed from outside', () => {
    const cache = new FileStateCache();
    const entry = cache.record('/a', stub('abc'));
    expect(() => {
      (entry as { content?: string }).content = 'x'.repeat(10_000);
    }).toThrow(TypeError);
    expect(cache.bytes).toBe(3);
  });

  test('the constructor rejects bounds that are not positive', () => {
    expect(() => new FileStateCache({ maxEntries: 0 })).toThrow(/maxEntries.*0/);
    expect(() => new FileStateCache({ maxEntries: 1.5 })).toThrow(RangeError);
    expect(() => new FileStateCache({ maxBytes: -1 })).toThrow(/maxBytes/);
  });
});
