import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { resolveLikeKernel } from './_kernel_path.ts';

const p = realpathSync(mkdtempSync(join(tmpdir(), 'kernel-path-')));
mkdirSync(join(p, '.claude/agents'), { recursive: true });
mkdirSync(join(p, 'src'));
symlinkSync('.claude/agents', join(p, 'l'));
afterAll(() => rmSync(p, { recursive: true, force: true }));

test('.. after a link goes to the parent of where the link leads, as the kernel opens it', () => {
  expect(resolveLikeKernel(p, 'l/../settings.json')).toBe(join(p, '.claude/settings.json'));
  expect(resolveLikeKernel(p, `${p}/l/../../x`)).toBe(join(p, 'x'));
  expect(resolveLikeKernel(join(p, 'l'), '../settings.json')).toBe(join(p, '.claude/settings.json'));
});

test('without links, or past names that do not exist, it is path.resolve', () => {
  expect(resolveLikeKernel(p, 'src/../a.ts')).toBe(join(p, 'a.ts'));
  expect(resolveLikeKernel(p, 'missing/../a.ts')).toBe(join(p, 'a.ts'));
  expect(resolveLikeKernel(p, 'src/a.ts')).toBe(join(p, 'src/a.ts'));
  expect(resolveLikeKernel(p, '/etc/../tmp')).toBe('/tmp');
});
