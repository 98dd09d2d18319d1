import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from '../_test_session.ts';

let bench: TestBench;
beforeEach(async () => {
  bench = await makeBench();
});
afterEach(async () => {
  await bench.cleanup();
});

const notebook = {
  cells: [
    { cell_type: 'markdown', id: 'intro', metadata: { tags: ['keep'] }, source: ['# Title\n', 'Text'] },
    {
      cell_type: 'code',
      execution_count: 3,
      id: 'calc',
      metadata: {},
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['2\n'] }],
      source: ['x = 1\n', 'print(x + 1)'],
    },
  ],
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
};
const nbPath = () => path.join(bench.dir, 'a.ipynb');
async function loadRead(): Promise<void> {
  await writeFile(nbPath(), `${JSON.stringify(notebook, null, 1)}\n`);
  expect((await bench.call('Read', { file_path: 'a.ipynb' })).isError).toBe(false);
}
const current = async () => JSON.parse(await readFile(nbPath(), 'utf8')) as typeof notebook;

describe('NotebookEdit', () => {
  test("replace sets a code cell's source as lines and clears its outputs and execution count", async () => {
    await loadRead();
    const { text, isError } = await bench.call('NotebookEdit', {
      notebook_path: 'a.ipynb',
      cell_id: 'calc',
      new_source: 'y = 2\nprint(y)',
    });
    expect(isError).toBe(false);
    expect(text).toContain('Updated cell calc');
    const nb = await current();
    expect(nb.cells[1]).toMatchObject({ source: ['y = 2\n', 'print(y)'], outputs: [], execution_count: null });
  });

  test('the notebook keeps its one-space JSON formatting, final newline and metadata', async () => {
    await loadRead();
    await bench.call('NotebookEdit', { notebook_path: 'a.ipynb', cell_id: 'intro', new_source: '# New title' });
    const text = await readFile(nbPath(), 'utf8');
    expect(text.startsWith('{\n "cells": [\n  {\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    const nb = await current();
    expect(nb.metadata).toEqual(notebook.metadata);
    expect(nb.cells[0]!.metadata).toEqual({ tags: ['keep'] });
  });

  test('insert adds a cell after cell_id, or at the start without one, with a fresh id', async () => {
    await loadRead();
    const after = await bench.call('NotebookEdit', {
      notebook_path: 'a.ipynb',
      cell_id: 'intro',
      new_source: 'z = 3',
      cell_type: 'code',
      edit_mode: 'insert',
    });
    expect(after.text).toContain('at position 1');
    const first = await bench.call('NotebookEdit', {
      notebook_path: 'a.ipynb',
      new_source: 'Top',
      cell_type: 'markdown',
      edit_mode: 'insert',
    });
    expect(first.text).toContain('at position 0');
    const nb = await current();
    expect(nb.cells.map((c) => c.cell_type)).toEqual(['markdown', 'markdown', 'code', 'code']);
    expect(nb.cells[2]).toMatchObject({ source: ['z = 3'], outputs: [], execution_count: null });
    expect(nb.cells[2]!.id).toMatch(/^[0-9a-f]{8}$/);
  });

  test('insert without cell_type is refused', async () => {
    await loadRead();
    const { text, isError } = await bench.call('NotebookEdit', {
      notebook_path: 'a.ipynb',
      new_source: 'x',
      edit_mode: 'insert',
    });
    expect(isError).toBe(true);
    expect(text).toContain('cell_type ("code" or "markdown") is required');
  });

  test('delete removes a cell by id, and a cell can be named by position', async () => {
    await loadRead();
    expect(
      (
        await bench.call('NotebookEdit', {
          notebook_path: 'a.ipynb',
          cell_id: 'cell-0',
          new_source: '',
          edit_mode: 'delete',
        })
      ).isError,
    ).toBe(false);
    const nb = await current();
    expect(nb.cells.map((c) => c.id)).toEqual(['calc']);
  });

  test('an unknown cell id is refused with the ids that exist', async () => {
    await loadRead();
    const { text, isError } = await bench.call('NotebookEdit', {
      notebook_path: 'a.ipynb',
      cell_id: 'nope',
      new_source: 'x',
    });
    expect(isError).toBe(true);
    expect(text).toContain('Cell "nope" is not in');
    expect(text).toContain('intro, calc');
  });

  test('NotebookEdit follows the read-first and staleness rules of Edit', async () => {
    await writeFile(nbPath(), JSON.stringify(notebook));
    const unread = await bench.call('NotebookEdit', { notebook_path: 'a.ipynb', cell_id: 'calc', new_source: 'x' });
    expect(unread.text).toContain('has not been read yet');
    await bench.call('Read', { file_path: 'a.ipynb' });
    await writeFile(nbPath(), JSON.stringify({ ...notebook, metadata: {} }));
    const stale = await bench.call('NotebookEdit', { notebook_path: 'a.ipynb', cell_id: 'calc', new_source: 'x' });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('changed on disk');
  });

  test('NotebookEdit refuses a file that is not a notebook, and invalid notebook JSON', async () => {
    await writeFile(path.join(bench.dir, 'a.py'), 'x');
    expect((await bench.call('NotebookEdit', { notebook_path: 'a.py', cell_id: '0', new_source: 'x' })).text).toContain(
      'not a Jupyter notebook',
    );
    await writeFile(nbPath(), '{not json');
    const read = await bench.call('Read', { file_path: 'a.ipynb' });
    expect(read.text).toContain('is not a valid notebook: its JSON does not parse');
    const broken = await bench.call('NotebookEdit', { notebook_path: 'a.ipynb', cell_id: '0', new_source: 'x' });
    expect(broken.isError).toBe(true);
  });
});

describe('notebooks too large for one Read', () => {
  const big = {
    cells: Array.from({ length: 30 }, (_, i) => ({
      cell_type: 'code',
      execution_count: i,
      id: `c${i + 1}`,
      metadata: {},
      outputs: [{ output_type: 'stream', name: 'stdout', text: [`${'out '.repeat(2000)}\n`] }],
      source: [`print(${i + 1})`],
    })),
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  };

  test("Read caps a notebook's text, pages by cells with offset, and NotebookEdit changes only the cells read", async () => {
    await writeFile(nbPath(), JSON.stringify(big, null, 1));
    const first = await bench.call('Read', { file_path: 'a.ipynb' });
    expect(first.text.length).toBeLessThan(110_000);
    const m =
      /Showing cells 1-(\d+) of 30 \(output capped at about 25000 tokens per Read\)\. Continue with offset=(\d+)/.exec(
        first.text,
      );
    expect(m).not.toBeNull();
    const next = Number(m![2]);
    expect(next).toBe(Number(m![1]) + 1);
    expect(first.text).not.toContain(`<cell id="c${next}"`);

    const unseen = await bench.call('NotebookEdit', {
      notebook_path: 'a.ipynb',
      cell_id: 'c30',
      new_source: 'print(0)',
    });
    expect(unseen.isError).toBe(true);
    expect(unseen.text).toContain(`You have read only cells 1-${next - 1}`);
    expect(unseen.text).toContain('cell "c30" is cell 30. Read it first (Read with offset=30)');
    expect(
      (await bench.call('NotebookEdit', { notebook_path: 'a.ipynb', cell_id: 'c1', new_source: 'print(0)' })).isError,
    ).toBe(false);
    // The edit kept the rest locked.
    expect(
      (await bench.call('NotebookEdit', { notebook_path: 'a.ipynb', cell_id: 'c30', new_source: 'print(0)' })).isError,
    ).toBe(true);

    const last = await bench.call('Read', { file_path: 'a.ipynb', offset: 29, limit: 2 });
    expect(last.text).toContain('<cell id="c29" type="code" index="28">');
    expect(last.text).toContain('<cell id="c30" type="code" index="29">');
    expect(last.text).not.toContain('Showing cells');
    expect(
      (await bench.call('NotebookEdit', { notebook_path: 'a.ipynb', cell_id: 'c30', new_source: 'print(0)' })).isError,
    ).toBe(false);
  });
});
