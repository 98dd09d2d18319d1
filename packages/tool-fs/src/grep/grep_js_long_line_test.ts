import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SessionEvent, ToolUseBlock } from '@toolshed/core';
import { afterEach, describe, expect, test } from 'vitest';
import { fileTools } from '../family.ts';
import { makeBench, type TestBench } from '../_test_session.ts';

// A minified bundle's one line, and a pattern that costs RE2 a minute a megabyte on it.
const BUNDLE = `${'a'.repeat(200_000)}\n`;
const SLOW = '\\w{1,850}\\d';

describe('Grep with the JS engine on a line that takes long to match', () => {
  let bench: TestBench | undefined;
  afterEach(async () => {
    await bench?.cleanup();
    bench = undefined;
  });
  async function put(name: string, content: string): Promise<void> {
    const f = path.join(bench!.dir, name);
    await mkdir(path.dirname(f), { recursive: true });
    await writeFile(f, content);
  }
  const use = (id: string, name: string, input: Record<string, unknown>): ToolUseBlock => ({
    type: 'tool_use',
    id,
    name,
    input,
  });

  test('the user pressing Esc (the run aborted) ends the call at once, as cancelled', async () => {
    bench = await makeBench({ family: { searchEngine: 'js' } });
    await put('dist/bundle.min.js', BUNDLE);
    const controller = new AbortController();
    const abortLater = setTimeout(() => controller.abort(), 500);
    const started = performance.now();
    const [result] = await bench.session.run([use('g1', 'Grep', { pattern: SLOW })], { signal: controller.signal });
    clearTimeout(abortLater);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result!.is_error).toBe(true);
    expect(String(result!.content)).toMatch(/Grep was cancelled while it was running/);
  });

  test('other calls of the turn finish while Grep is matching the line', async () => {
    bench = await makeBench({ family: { searchEngine: 'js', jsMatchBudgetMs: 3000 } });
    await put('dist/bundle.min.js', BUNDLE);
    await put('notes.txt', 'hello\n');
    const took = new Map<string, number>();
    const events: AsyncIterable<SessionEvent> = bench.session.stream([
      use('grep', 'Grep', { pattern: SLOW }),
      use('read', 'Read', { file_path: path.join(bench.dir, 'notes.txt') }),
      use('glob', 'Glob', { pattern: '**/*.txt' }),
    ]);
    for await (const event of events) if (event.type === 'result') took.set(event.toolUseId, event.durationMs);
    // Read and Glob ran beside Grep (one parallel batch) and were done long before it: their
    // file system calls were answered while the line was being matched.
    expect(took.get('grep')).toBeGreaterThanOrEqual(2500);
    expect(took.get('read')).toBeLessThan(1500);
    expect(took.get('glob')).toBeLessThan(1500);
  });

  test('a line still being matched after jsMatchBudgetMs ends the call with the file, the pattern and what to do', async () => {
    bench = await makeBench({ family: { searchEngine: 'js', jsMatchBudgetMs: 400 } });
    await put('dist/bundle.min.js', BUNDLE);
    await put('src/a.ts', 'const x1 = 1;\n');
    const { text, isError } = await bench.call('Grep', { pattern: SLOW, output_mode: 'content' });
    expect(isError).toBe(true);
    expect(text).toContain(
      `matching the regex ${JSON.stringify(SLOW)} against a line of 200000 characters in ${path.join(bench.dir, 'dist/bundle.min.js')}`,
    );
    expect(text).toContain('the glob "!dist/bundle.min.js"');
    expect(text).toMatch(/simplify the pattern/);
    expect(text).toMatch(/install ripgrep/);
    // Told where to go, the model leaves the bundle out and gets its answer.
    const narrowed = await bench.call('Grep', { pattern: SLOW, output_mode: 'content', glob: '!dist/bundle.min.js' });
    expect(narrowed).toMatchObject({ isError: false, text: 'src/a.ts:1:const x1 = 1;' });
  });

  test('a file a deny rule covers is not read: its long line neither stalls the search nor is named in an error', async () => {
    bench = await makeBench({
      family: { searchEngine: 'js', jsMatchBudgetMs: 400 },
      permissions: { mode: 'acceptEdits', deny: ['Read(./secret/**)'] },
    });
    await put('secret/keys-bundle.min.js', BUNDLE);
    await put('src/a.ts', 'const x1 = 1;\n');
    const { text, isError } = await bench.call('Grep', { pattern: SLOW, output_mode: 'content' });
    expect(text).not.toContain('keys-bundle');
    expect({ text, isError }).toEqual({ text: 'src/a.ts:1:const x1 = 1;', isError: false });
  });

  test('a budget that is not a number of milliseconds above 0 is refused when the tools are built', () => {
    expect(() => fileTools({ jsMatchBudgetMs: 0 })).toThrow(RangeError);
    expect(() => fileTools({ jsMatchBudgetMs: Number.NaN })).toThrow(
      /jsMatchBudgetMs must be a number of milliseconds above 0/,
    );
    expect(() => fileTools({ jsMatchBudgetMs: Infinity })).not.toThrow();
  });
});
