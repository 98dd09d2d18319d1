import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { rssGrowth } from '@toolshed/core/testing';
import { makeBench, type TestBench } from '../_test_session.ts';

// PDFs and notebooks are parsed whole, so what a Read of one costs follows the file's size, not the
// page it returns: past a size they are refused before anything is read, with another way in.

let bench: TestBench;
beforeEach(async () => {
  bench = await makeBench();
});
afterEach(async () => {
  await bench.cleanup();
});

/** A sparse file of `bytes` starting with `head`: no disk is used for the hole. */
async function sparse(name: string, head: string, bytes: number): Promise<string> {
  const file = path.join(bench.dir, name);
  const handle = await open(file, 'w');
  await handle.write(head);
  await handle.truncate(bytes);
  await handle.close();
  return file;
}

describe('files Read and NotebookEdit parse whole', () => {
  test('a 600 MB PDF is refused before it is read, saying how to read its pages', async () => {
    const file = await sparse('big.pdf', '%PDF-1.4\n', 600 * 2 ** 20);
    const { value, growthMb } = await rssGrowth(() => bench.call('Read', { file_path: file }));
    expect(value.isError).toBe(true);
    expect(value.text).toContain(`The PDF ${file} is 600.0 MB; Read parses a PDF whole and takes PDFs up to 64 MB.`);
    expect(value.text).toContain('pdftotext -f 1 -l 20');
    expect(growthMb).toBeLessThan(300);
  });

  test('a 600 MB notebook is refused by Read and by NotebookEdit before it is read, saying how to get at its cells', async () => {
    const file = await sparse('big.ipynb', '{"cells": [', 600 * 2 ** 20);
    const read = await rssGrowth(() => bench.call('Read', { file_path: file }));
    expect(read.value.isError).toBe(true);
    expect(read.value.text).toContain(
      `The notebook ${file} is 600.0 MB; Read and NotebookEdit parse a notebook whole and take notebooks up to 64 MB.`,
    );
    expect(read.value.text).toContain('jq -r \'.cells[0].source | join("")\'');
    expect(read.growthMb).toBeLessThan(300);
    const edit = await rssGrowth(() =>
      bench.call('NotebookEdit', { notebook_path: file, cell_id: 'cell-0', new_source: 'x' }),
    );
    expect(edit.value.isError).toBe(true);
    expect(edit.value.text).toContain(`The notebook ${file} is 600.0 MB`);
    expect(edit.growthMb).toBeLessThan(300);
  });
});
