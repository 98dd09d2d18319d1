import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { unfold } from './_test_unfold.ts';
import type { ContentBlock, ToolResultContent } from '../blocks.ts';
import {
  applyTurnBudget,
  fitsResultLimit,
  fitsTurnBudget,
  isPersistedPreview,
  persistLargeResult,
} from './result_budget.ts';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'toolshed-budget-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** `n` lines of `width` characters each (the newline included), numbered so order is checkable. */
function lines(n: number, width = 100): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `line ${i} `.padEnd(width - 1, 'x') + '\n';
  return out;
}

function textOf(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  return content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

async function exists(path: string): Promise<boolean> {
  try {
    await readFile(path);
    return true;
  } catch {
    return false;
  }
}

describe('persistLargeResult', () => {
  test('persistLargeResult returns content at or under the limit unchanged and writes nothing', async () => {
    const content = 'a'.repeat(500);
    const out = await persistLargeResult(content, { toolUseId: 't1', stateDir: tmp, maxChars: 500 });
    expect(out).toEqual({ content, originalChars: 500 });
    expect(await readdir(tmp)).toEqual([]);
  });

  test('persistLargeResult never persists when maxChars is Infinity, however large the output', async () => {
    const content = 'z'.repeat(2_000_000);
    const out = await persistLargeResult(content, { toolUseId: 't1', stateDir: tmp, maxChars: Infinity });
    expect(out.content).toBe(content);
    expect(out.persistedPath).toBeUndefined();
    expect(await readdir(tmp)).toEqual([]);
  });

  test('persistLargeResult writes the whole output to tool-results/<id>.txt and returns a preview that says where it is', async () => {
    const full = lines(700, 150); // 105 000 characters
    const out = await persistLargeResult(full, { toolUseId: 'toolu_01AbC', stateDir: tmp, maxChars: 50_000 });

    const expectedPath = join(tmp, 'tool-results', 'toolu_01AbC.txt');
    expect(out.persistedPath).toBe(expectedPath);
    expect(out.originalChars).toBe(105_000);
    expect(await readFile(expectedPath, 'utf8')).toBe(full);

    const preview = out.content as string;
    expect(typeof preview).toBe('string');
    expect(isPersistedPreview(preview)).toBe(true);
    const previewLines = preview.split('\n');
    const [open, header, where, howTo] = previewLines;
    expect(open).toBe('<persisted-output>');
    expect(header).toContain('105,000 characters');
    expect(header).toContain('50,000');
    expect(where).toContain(expectedPath);
    expect(howTo).toMatch(/Read/);
    expect(howTo).toMatch(/offset/);
    expect(howTo).toMatch(/limit/);
    expect(howTo).toMatch(/Grep/);
    // About 2 000 characters of the start, plus a header of a few hundred.
    expect(preview.length).toBeGreaterThan(2_000);
    expect(preview.length).toBeLessThan(3_000);
    // 2 000 characters end inside line 13; the preview stops at the line boundary before it.
    expect(preview).toContain(full.slice(0, 13 * 150 - 1));
    expect(preview).not.toContain('line 13 ');
    expect(previewLines.at(-3)).toBe(full.split('\n')[12]);
    const leftOutLine = previewLines.at(-2) ?? '';
    expect(leftOutLine.startsWith('…')).toBe(true);
    expect(leftOutLine).toContain(`${(105_000 - (13 * 150 - 1)).toLocaleString('en-US')} more characters`);
    expect(previewLines.at(-1)).toBe('</persisted-output>');
  });

  test('persistLargeResult keeps a 1 MB unicode output byte for byte in the file', async () => {
    const pieces = [
      'ascii text ',
      'héllo wörld ',
      '日本語のテキスト ',
      'emoji 😀🎉👩‍💻 ',
      'Ελληνικά ',
      '\r\n',
      '\t',
      '\n',
    ];
    let full = '';
    for (let i = 0; full.length < 1_048_576; i++) full += pieces[i % pieces.length];
    const out = await persistLargeResult(full, { toolUseId: 'toolu_big', stateDir: tmp, maxChars: 50_000 });

    expect(out.persistedPath).toBeDefined();
    const bytes = await readFile(out.persistedPath!);
    expect(bytes.equals(Buffer.from(full, 'utf8'))).toBe(true);
    expect(out.originalChars).toBe(full.length);
    expect(textOf(out.content).length).toBeLessThan(3_000);
  });

  test('persistLargeResult cuts a preview without line breaks at previewChars and never splits a surrogate pair', async () => {
    const full = 'a'.repeat(99) + '😀'.repeat(1_000); // the 100th code unit starts an emoji
    const out = await persistLargeResult(full, { toolUseId: 't', stateDir: tmp, maxChars: 10, previewChars: 100 });
    const preview = out.content as string;
    const start = preview.split('\n').find((l) => l.startsWith('aaaa')) ?? '';
    expect(start).toBe('a'.repeat(99));
    expect(preview).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  test('persistLargeResult honours previewChars', async () => {
    const full = 'b'.repeat(10_000);
    const out = await persistLargeResult(full, { toolUseId: 't', stateDir: tmp, maxChars: 1_000, previewChars: 300 });
    const preview = out.content as string;
    expect(preview).toContain('b'.repeat(300));
    expect(preview).not.toContain('b'.repeat(301));
    expect(preview).toContain('9,700 more characters');
  });

  test('persistLargeResult keeps a hostile toolUseId inside tool-results', async () => {
    const stateDir = join(tmp, 'state');
    for (const id of ['../../x', '../escape', '/etc/passwd', '..', '', 'a\u0000b', 'C:\\win']) {
      const out = await persistLargeResult('q'.repeat(100), { toolUseId: id, stateDir, maxChars: 10 });
      expect(out.persistedPath).toBeDefined();
      expect(dirname(out.persistedPath!)).toBe(join(stateDir, 'tool-results'));
      expect(out.persistedPath!.split('/').at(-1)).toMatch(/^[A-Za-z0-9_-]+\.txt$/);
    }
    expect((await readdir(tmp)).sort()).toEqual(['state']);
    expect(await readdir(stateDir)).toEqual(['tool-results']);
    expect(await exists(join(tmp, 'x.txt'))).toBe(false);
    expect(await readdir(join(stateDir, 'tool-results'))).toHaveLength(7);
  });

  test('persistLargeResult gives ids that sanitize alike their own files', async () => {
    const a = await persistLargeResult('A'.repeat(50), { toolUseId: 'a/b', stateDir: tmp, maxChars: 10 });
    const b = await persistLargeResult('B'.repeat(50), { toolUseId: 'a.b', stateDir: tmp, maxChars: 10 });
    expect(a.persistedPath).not.toBe(b.persistedPath);
    expect(await readFile(a.persistedPath!, 'utf8')).toBe('A'.repeat(50));
    expect(await readFile(b.persistedPath!, 'utf8')).toBe('B'.repeat(50));
  });

  test('persistLargeResult never overwrites an earlier output saved under the same id', async () => {
    const first = await persistLargeResult('1'.repeat(50), { toolUseId: 'dup', stateDir: tmp, maxChars: 10 });
    const second = await persistLargeResult('2'.repeat(50), { toolUseId: 'dup', stateDir: tmp, maxChars: 10 });
    expect(first.persistedPath).toBe(join(tmp, 'tool-results', 'dup.txt'));
    expect(second.persistedPath).toBe(join(tmp, 'tool-results', 'dup-1.txt'));
    expect(await readFile(first.persistedPath!, 'utf8')).toBe('1'.repeat(50));
    expect(await readFile(second.persistedPath!, 'utf8')).toBe('2'.repeat(50));
    expect(textOf(second.content)).toContain(second.persistedPath!);
  });

  test('persistLargeResult leaves no temp files behind', async () => {
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((id) =>
        persistLargeResult(id.repeat(5_000), { toolUseId: id, stateDir: tmp, maxChars: 10 }),
      ),
    );
    expect((await readdir(join(tmp, 'tool-results'))).sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
  });

  test('persistLargeResult returns the output whole with persistError when the state dir cannot be created', async () => {
    const afile = join(tmp, 'afile');
    await writeFile(afile, 'not a directory');
    const content = lines(1_000);
    const out = await persistLargeResult(content, {
      toolUseId: 't1',
      stateDir: join(afile, 'state'),
      maxChars: 50_000,
    });
    expect(out.content).toBe(content);
    expect(out.persistedPath).toBeUndefined();
    expect(out.originalChars).toBe(100_000);
    expect(out.persistError).toContain(join(afile, 'state'));
    expect(out.persistError).toMatch(/ENOTDIR|EEXIST/);
    expect(await readFile(afile, 'utf8')).toBe('not a directory');
  });

  test('persistLargeResult also keeps the output when stateDir itself is a file', async () => {
    const afile = join(tmp, 'afile');
    await writeFile(afile, '');
    const content = 'c'.repeat(60_000);
    const out = await persistLargeResult(content, { toolUseId: 't1', stateDir: afile, maxChars: 50_000 });
    expect(out.content).toBe(content);
    expect(out.persistError).toBeDefined();
  });

  test('persistLargeResult counts and persists only text blocks and keeps images and documents as they are', async () => {
    const image: ContentBlock = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(500_000) },
    };
    const doc: ContentBlock = {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: 'B'.repeat(500_000) },
    };

    const small: ToolResultContent = [{ type: 'text', text: 'caption' }, image, doc];
    const unchanged = await persistLargeResult(small, { toolUseId: 'img', stateDir: tmp, maxChars: 100 });
    expect(unchanged.content).toBe(small);
    expect(unchanged.originalChars).toBe(7);
    expect(await readdir(tmp)).toEqual([]);

    const big: ToolResultContent = [
      { type: 'text', text: 'x'.repeat(600) },
      image,
      { type: 'text', text: 'y'.repeat(600) },
      doc,
    ];
    const out = await persistLargeResult(big, {
      toolUseId: 'mixed',
      stateDir: tmp,
      maxChars: 1_000,
      previewChars: 100,
    });
    expect(out.originalChars).toBe(1_200);
    expect(await readFile(out.persistedPath!, 'utf8')).toBe(`${'x'.repeat(600)}\n${'y'.repeat(600)}`);
    const blocks = out.content as ContentBlock[];
    expect(blocks.map((b) => b.type)).toEqual(['text', 'image', 'document']);
    expect(blocks[1]).toBe(image);
    expect(blocks[2]).toBe(doc);
    expect(isPersistedPreview((blocks[0] as { text: string }).text)).toBe(true);
  });

  test('persistLargeResult rejects a maxChars that is not a non-negative number', async () => {
    await expect(persistLargeResult('x', { toolUseId: 't', stateDir: tmp, maxChars: Number.NaN })).rejects.toThrow(
      RangeError,
    );
    await expect(persistLargeResult('x', { toolUseId: 't', stateDir: tmp, maxChars: -1 })).rejects.toThrow(
      /maxChars.*-1/,
    );
    await expect(
      persistLargeResult('x', { toolUseId: 't', stateDir: tmp, maxChars: 0, previewChars: 1.5 }),
    ).rejects.toThrow(/previewChars/);
  });
});

describe('fitsResultLimit and fitsTurnBudget', () => {
  test('say whether the text is within a valid limit, counting text blocks only; a limit that is not one never fits', () => {
    const image: ContentBlock = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'x'.repeat(50) },
    };
    expect(fitsResultLimit('abc', 3)).toBe(true);
    expect(fitsResultLimit('abcd', 3)).toBe(false);
    expect(fitsResultLimit([{ type: 'text', text: 'ab' }, image], 2)).toBe(true);
    expect(fitsResultLimit('x'.repeat(10), Infinity)).toBe(true);
    for (const bad of [Number.NaN, -1]) expect(fitsResultLimit('', bad)).toBe(false);
    expect(fitsTurnBudget(['ab', [{ type: 'text', text: 'cd' }]], 4)).toBe(true);
    expect(fitsTurnBudget(['ab', 'cde'], 4)).toBe(false);
    for (const bad of [Number.NaN, -1]) expect(fitsTurnBudget([], bad)).toBe(false);
  });
});

describe('isPersistedPreview', () => {
  test('isPersistedPreview tells a preview from ordinary output', async () => {
    const out = await persistLargeResult('k'.repeat(100), { toolUseId: 't', stateDir: tmp, maxChars: 10 });
    expect(isPersistedPreview(out.content as string)).toBe(true);
    expect(isPersistedPreview('k'.repeat(100))).toBe(false);
    expect(isPersistedPreview('<persisted-output>\nhello\n</persisted-output>')).toBe(false);
    expect(isPersistedPreview('')).toBe(false);
  });
});

describe('applyTurnBudget', () => {
  test('applyTurnBudget leaves a turn within budget as it is', async () => {
    const items = [
      { content: 'a'.repeat(1_000), toolUseId: 't1', maxChars: 50_000 },
      { content: 'b'.repeat(1_000), toolUseId: 't2', maxChars: 50_000 },
    ];
    const out = await applyTurnBudget(items, { stateDir: tmp, budgetChars: 2_000 });
    expect(out.map((o) => o.content)).toEqual(items.map((i) => i.content));
    expect(out[0]!.content).toBe(items[0]!.content);
    expect(await readdir(tmp)).toEqual([]);
  });

  test('applyTurnBudget persists the largest results first until the turn fits and keeps the order', async () => {
    const items = [
      { content: lines(300), toolUseId: 't30k', maxChars: 50_000 },
      { content: lines(900), toolUseId: 't90k', maxChars: 100_000 },
      { content: lines(100), toolUseId: 't10k', maxChars: 50_000 },
      { content: lines(800), toolUseId: 't80k', maxChars: 100_000 },
    ];
    const out = await applyTurnBudget(items, { stateDir: tmp, budgetChars: 100_000 });

    expect(out).toHaveLength(4);
    expect(out[0]).toEqual({ content: items[0]!.content });
    expect(out[2]).toEqual({ content: items[2]!.content });
    expect(out[1]!.persistedPath).toBe(join(tmp, 'tool-results', 't90k.txt'));
    expect(out[3]!.persistedPath).toBe(join(tmp, 'tool-results', 't80k.txt'));
    expect(isPersistedPreview(out[1]!.content as string)).toBe(true);
    expect(out[1]!.content as string).toContain('line 0 ');
    expect(await readFile(out[1]!.persistedPath!, 'utf8')).toBe(items[1]!.content);
    expect(await readFile(out[3]!.persistedPath!, 'utf8')).toBe(items[3]!.content);
    const total = out.reduce((n, o) => n + textOf(o.content).length, 0);
    expect(total).toBeLessThanOrEqual(100_000);
  });

  test('applyTurnBudget stops as soon as the turn fits', async () => {
    const items = [
      { content: 'a'.repeat(150_000), toolUseId: 'big', maxChars: 200_000 },
      { content: 'b'.repeat(100_000), toolUseId: 'mid', maxChars: 200_000 },
    ];
    const out = await applyTurnBudget(items, { stateDir: tmp }); // default budget 200 000
    expect(out[0]!.persistedPath).toBeDefined();
    expect(out[1]!.persistedPath).toBeUndefined();
    expect(out[1]!.content).toBe(items[1]!.content);
  });

  test('applyTurnBudget never persists a result whose tool has maxChars Infinity', async () => {
    const items = [
      { content: 'r'.repeat(300_000), toolUseId: 'read', maxChars: Infinity },
      { content: 'g'.repeat(50_000), toolUseId: 'grep', maxChars: 50_000 },
    ];
    const out = await applyTurnBudget(items, { stateDir: tmp, budgetChars: 200_000 });
    expect(out[0]).toEqual({ content: items[0]!.content });
    expect(out[1]!.persistedPath).toBe(join(tmp, 'tool-results', 'grep.txt'));
    // Nothing else is left to persist, so the turn stays over budget rather than losing Read's output.
    expect(await readdir(join(tmp, 'tool-results'))).toEqual(['grep.txt']);
  });

  test('applyTurnBudget does not persist a result that is already a preview', async () => {
    const earlier = await persistLargeResult('e'.repeat(60_000), {
      toolUseId: 'early',
      stateDir: tmp,
      maxChars: 50_000,
    });
    const items = [
      { content: earlier.content, toolUseId: 'early', maxChars: 50_000 },
      { content: 'n'.repeat(40_000), toolUseId: 'next', maxChars: 50_000 },
    ];
    const out = await applyTurnBudget(items, { stateDir: tmp, budgetChars: 1_000 });
    expect(out[0]).toEqual({ content: earlier.content });
    expect(out[1]!.persistedPath).toBe(join(tmp, 'tool-results', 'next.txt'));
    expect((await readdir(join(tmp, 'tool-results'))).sort()).toEqual(['early.txt', 'next.txt']);
  });

  test('applyTurnBudget does not swap a result for a preview that would be longer', async () => {
    const items = Array.from({ length: 10 }, (_, i) => ({
      content: 's'.repeat(500),
      toolUseId: `t${i}`,
      maxChars: 50_000,
    }));
    const out = await applyTurnBudget(items, { stateDir: tmp, budgetChars: 1_000 });
    expect(out.every((o, i) => o.content === items[i]!.content && o.persistedPath === undefined)).toBe(true);
    expect(await readdir(tmp)).toEqual([]);
  });

  test('applyTurnBudget gives results with the same id in one turn separate files', async () => {
    const items = [
      { content: 'A'.repeat(10_000), toolUseId: 'same', maxChars: 50_000 },
      { content: 'B'.repeat(10_000), toolUseId: 'same', maxChars: 50_000 },
    ];
    const out = await applyTurnBudget(items, { stateDir: tmp, budgetChars: 1_000 });
    expect(out[0]!.persistedPath).not.toBe(out[1]!.persistedPath);
    expect(unfold(await readFile(out[0]!.persistedPath!, 'utf8'))).toBe('A'.repeat(10_000));
    expect(unfold(await readFile(out[1]!.persistedPath!, 'utf8'))).toBe('B'.repeat(10_000));
  });

  test('applyTurnBudget keeps every output when the state dir is unusable and says why', async () => {
    const afile = join(tmp, 'afile');
    await writeFile(afile, '');
    const items = [
      { content: 'a'.repeat(150_000), toolUseId: 'a', maxChars: 200_000 },
      { content: 'b'.repeat(120_000), toolUseId: 'b', maxChars: 200_000 },
    ];
    const out = await applyTurnBudget(items, { stateDir: join(afile, 'state') });
    expect(out[0]!.content).toBe(items[0]!.content);
    expect(out[1]!.content).toBe(items[1]!.content);
    expect(out[0]!.persistError).toContain('afile');
    expect(out[1]!.persistError).toBeDefined();
    expect(out[0]!.persistedPath).toBeUndefined();
  });

  test('applyTurnBudget counts only text and leaves image blocks alone', async () => {
    const image: ContentBlock = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'I'.repeat(900_000) },
    };
    const items = [
      { content: [image] as ToolResultContent, toolUseId: 'img', maxChars: 50_000 },
      { content: 't'.repeat(1_000), toolUseId: 'txt', maxChars: 50_000 },
    ];
    const out = await applyTurnBudget(items, { stateDir: tmp, budgetChars: 2_000 });
    expect(out[0]!.content).toBe(items[0]!.content);
    expect(out[1]!.content).toBe(items[1]!.content);
    expect(await readdir(tmp)).toEqual([]);
  });

  test('applyTurnBudget rejects a budget that is not a non-negative number', async () => {
    await expect(applyTurnBudget([], { stateDir: tmp, budgetChars: Number.NaN })).rejects.toThrow(/budgetChars/);
  });
});
