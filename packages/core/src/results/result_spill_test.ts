import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { unfold } from './_test_unfold.ts';
import { isPersistedPreview } from './result_budget.ts';
import { ResultSpill } from './result_spill.ts';

describe('ResultSpill', () => {
  let stateDir: string;
  beforeEach(async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-spill-'));
  });
  afterEach(async () => {
    await rm(stateDir, { recursive: true, force: true });
  });

  test('ResultSpill returns a text within maxChars whole and writes no file', async () => {
    const spill = new ResultSpill({ toolUseId: 't1', stateDir, maxChars: 100 });
    spill.write('a\n');
    spill.write('b\n');
    expect(spill.spilled).toBe(false);
    expect(await spill.finish()).toEqual({ content: 'a\nb\n', totalChars: 4 });
    await expect(readdir(path.join(stateDir, 'tool-results'))).rejects.toThrow(/ENOENT/);
  });

  test('ResultSpill writes a text past maxChars to the file piece by piece, holding no more than maxChars plus a piece', async () => {
    const spill = new ResultSpill({ toolUseId: 't/2', stateDir, maxChars: 1_000, previewChars: 200 });
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const line = `src/file${i}.ts:${i}:some text\n`;
      lines.push(line);
      spill.write(line);
    }
    expect(spill.spilled).toBe(true);
    expect(spill.peakHeldChars).toBeLessThanOrEqual(1_000 + 40);
    const out = await spill.finish();
    expect(out.persistedPath).toMatch(/tool-results\/t_2-[0-9a-f]{10}\.txt$/);
    expect(await readFile(out.persistedPath!, 'utf8')).toBe(lines.join(''));
    expect(isPersistedPreview(out.content)).toBe(true);
    expect(out.content).toContain(`Output too large: ${out.totalChars.toLocaleString('en-US')} characters`);
    expect(out.content).toContain('src/file0.ts:0:some text');
    expect(out.content.length).toBeLessThan(1_000);
    // No temp file is left beside it.
    expect(await readdir(path.dirname(out.persistedPath!))).toEqual([path.basename(out.persistedPath!)]);
  });

  test('ResultSpill never names its file over an existing one', async () => {
    const first = new ResultSpill({ toolUseId: 'same', stateDir, maxChars: 5 });
    first.write('first output\n');
    const second = new ResultSpill({ toolUseId: 'same', stateDir, maxChars: 5 });
    second.write('second output\n');
    const a = await first.finish();
    const b = await second.finish();
    expect(a.persistedPath).not.toBe(b.persistedPath);
    expect(await readFile(a.persistedPath!, 'utf8')).toBe('first output\n');
    expect(await readFile(b.persistedPath!, 'utf8')).toBe('second output\n');
  });

  test('ResultSpill removes what it wrote when refuseToSave refuses a later piece, and returns the start with the reason', async () => {
    const spill = new ResultSpill({
      toolUseId: 't3',
      stateDir,
      maxChars: 20,
      refuseToSave: (text) => (text.includes('.env') ? 'it quotes .env' : undefined),
    });
    spill.write('a.ts:1:one\nb.ts:2:two\n');
    spill.write('.env:1:SECRET\n');
    spill.write('c.ts:3:three\n');
    const out = await spill.finish();
    expect(out.notSavedReason).toBe('it quotes .env');
    expect(out.persistedPath).toBeUndefined();
    expect(out.content).toMatch(
      /^a\.ts:1:one\nb\.ts:2:tw\n\[Output too large: .* not saved to a file: it quotes \.env/,
    );
    expect(await readdir(path.join(stateDir, 'tool-results'))).toEqual([]);
  });

  test('ResultSpill reports a state directory it cannot write to, with the start of the text', async () => {
    // A file where the state directory should be: no folder can be made under it.
    const notADir = path.join(stateDir, 'file');
    await writeFile(notADir, '');
    const spill = new ResultSpill({ toolUseId: 't4', stateDir: notADir, maxChars: 4 });
    spill.write('hello world\n');
    const out = await spill.finish();
    expect(out.persistError).toMatch(/could not write the 12-character output/);
    expect(out.content.startsWith('hell\n[')).toBe(true);
  });

  test('ResultSpill gathers pieces into writes of at most 1 MB: the saved bytes are exact and what waits stays bounded', async () => {
    const spill = new ResultSpill({ toolUseId: 't5', stateDir, maxChars: 1_000 });
    const parts: string[] = [];
    let chars = 0;
    for (let i = 0; chars < 10_000_000; i++) {
      // ASCII bytes, non-ASCII bytes (decoded, counted in characters) and strings, mixed.
      const line = i % 97 === 0 ? `f${i}.ts:${i}:naïve café ✓ 😀\n` : `src/file${i}.ts:${i}:${'x'.repeat(i % 300)}\n`;
      parts.push(line);
      chars += line.length;
      if (i % 3 === 0) spill.write(line);
      else spill.writeBytes(Buffer.from(line, 'utf8'));
    }
    expect(spill.totalChars).toBe(chars);
    const out = await spill.finish();
    expect(out.content).toContain(`Output too large: ${chars.toLocaleString('en-US')} characters`);
    expect(await readFile(out.persistedPath!, 'utf8')).toBe(parts.join(''));
    expect(spill.peakBatchedBytes).toBeGreaterThan(500_000);
    expect(spill.peakBatchedBytes).toBeLessThanOrEqual(1024 * 1024);
    // Over 10 MB in about 600 000 pieces: a few writes per megabyte, not one per piece.
    expect(spill.fileWrites).toBeLessThan(40);
  });

  test('ResultSpill.writeBytes keeps a text within maxChars in memory, and a piece larger than the batch goes in one write', async () => {
    const small = new ResultSpill({ toolUseId: 't6', stateDir, maxChars: 100 });
    small.writeBytes(Buffer.from('é\n'));
    expect(await small.finish()).toEqual({ content: 'é\n', totalChars: 2 });
    const big = new ResultSpill({ toolUseId: 't7', stateDir, maxChars: 10 });
    const text = `${'y'.repeat(3_000_000)}\n`;
    big.writeBytes(Buffer.from('start\n'));
    big.writeBytes(Buffer.from(text));
    const out = await big.finish();
    // Folded so that Read reaches every character; the stated rule gives the output back.
    expect(unfold(await readFile(out.persistedPath!, 'utf8'))).toBe(`start\n${text}`);
    expect(big.peakBatchedBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(big.fileWrites).toBe(1);
    expect(() => big.writeBytes(Buffer.from('late'))).toThrow(/after finish/);
  });

  test('ResultSpill refuses a bad maxChars with the value given', () => {
    expect(() => new ResultSpill({ toolUseId: 't', stateDir, maxChars: -1 })).toThrow(RangeError);
  });
});
