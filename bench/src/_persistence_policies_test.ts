import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { BASELINE_POLICIES } from './_persistence_policies.ts';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-policies-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const policy = (name: string) => BASELINE_POLICIES.find((p) => p.name === name)!;
const lines = (n: number, width = 40) =>
  Array.from({ length: n }, (_, i) => `${String(i).padStart(6, '0')} ${'x'.repeat(width)}`).join('\n');

test('the Gemini CLI policy keeps 20% head and 80% tail of 40 000 chars and saves the whole to the file it names', async () => {
  const text = lines(5_000);
  const { outputs, savedBytes } = await policy('gemini-cli').apply(
    [
      { id: 't1', tool: 'Grep', text },
      { id: 't2', tool: 'Grep', text: 'small' },
    ],
    dir,
  );
  const [big, small] = outputs;
  expect(small).toEqual({ sent: 'small' });
  expect(big!.sent).toContain(text.slice(0, 8_000));
  expect(big!.sent).toContain(text.slice(-32_000));
  expect(big!.sent).not.toContain(text.slice(8_000, 8_100));
  expect(big!.sent).toContain(`saved to: ${big!.savedPath}`);
  expect(await readFile(big!.savedPath!, 'utf8')).toBe(text);
  expect(savedBytes).toBe(Buffer.byteLength(text));
});

test('the opencode policy keeps the first 2 000 lines within 50 KB, and the truncation policy saves nothing', async () => {
  const many = lines(3_000, 5);
  const [cut] = (await policy('opencode').apply([{ id: 'a', tool: 'Bash', text: many }], dir)).outputs;
  expect(cut!.sent.split('\n').slice(0, 2_000).join('\n')).toBe(many.split('\n').slice(0, 2_000).join('\n'));
  expect(cut!.sent).toContain('...1000 lines truncated...');
  expect(await readFile(cut!.savedPath!, 'utf8')).toBe(many);
  const wide = lines(1_500, 60);
  const [bytesCut] = (await policy('opencode').apply([{ id: 'b', tool: 'Bash', text: wide }], dir)).outputs;
  expect(Buffer.byteLength(bytesCut!.sent.split('\n\n...')[0]!)).toBeLessThanOrEqual(50 * 1024);
  const [plain] = (await policy('truncate-30k').apply([{ id: 'c', tool: 'Bash', text: wide }], dir)).outputs;
  expect(plain!.savedPath).toBeUndefined();
  expect(plain!.sent.startsWith(wide.slice(0, 30_000))).toBe(true);
  expect(plain!.sent.length).toBeLessThan(30_100);
});
