import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsSearch } from './_js_engine.ts';
import type { GrepQuery, GrepSink } from './_types.ts';

const LINES = 20_000;

describe('jsSearch stops inside one big file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-jsgrep-'));
    await writeFile(path.join(dir, 'many.txt'), 'a match here\n'.repeat(LINES));
    // 4 MB of lines without a match: one file, a single pass of the matcher without chunks.
    await writeFile(path.join(dir, 'big.txt'), `${'nothing to see on this line\n'.repeat(150_000)}`);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const query = (file: string, mode: GrepQuery['mode'], pattern = 'ma[t]ch'): GrepQuery => ({
    pattern,
    dir,
    file,
    mode,
    before: 0,
    after: 0,
    ignoreCase: false,
    multiline: false,
    globs: [],
  });
  const sink = (onLine: () => void = () => {}): GrepSink & { lines: number } => ({
    lines: 0,
    file() {},
    count() {},
    line() {
      this.lines++;
      onLine();
    },
    full: false,
  });

  test('a signal aborted while the lines of one file go out stops it within a few thousand lines', async () => {
    const controller = new AbortController();
    const s = sink(() => controller.abort());
    await expect(jsSearch(query('many.txt', 'content'), s, { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(s.lines).toBeGreaterThan(0);
    expect(s.lines).toBeLessThan(LINES / 4);
  });

  test('the event loop gets turns inside one big file, so a signal aborted from elsewhere stops it', async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    // sliceMs 0: a turn at every chunk of the file, so the test does not depend on the machine's speed.
    await expect(
      jsSearch(query('big.txt', 'files_with_matches', 'ma[t]ch'), sink(), { signal: controller.signal, sliceMs: 0 }),
    ).rejects.toThrow(/abort/i);
  });

  test('the chunked file gives every line a whole search gives', async () => {
    const s = sink();
    await jsSearch(query('many.txt', 'content'), s, { sliceMs: 0 });
    expect(s.lines).toBe(LINES);
    let counted = 0;
    await jsSearch(query('big.txt', 'count', 'see on'), { ...sink(), count: (_r, n) => (counted = n) }, { sliceMs: 0 });
    expect(counted).toBe(150_000);
  });
});
