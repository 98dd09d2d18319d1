import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readRegularFileSync } from './read_regular_file.ts';

const dir = mkdtempSync(join(tmpdir(), 'toolshed-regular-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readRegularFileSync', () => {
  test('reads a regular file', () => {
    writeFileSync(join(dir, 'a'), 'gitdir: ../x\n');
    expect(readRegularFileSync(join(dir, 'a'))?.toString('utf8')).toBe('gitdir: ../x\n');
  });

  test('refuses a FIFO at once, without waiting for a writer', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const started = Date.now();
    expect(readRegularFileSync(join(dir, 'fifo'))).toBeUndefined();
    // A blocking open would wait here for ever; the test's own timeout is the bound.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('refuses a device, a folder, a missing file and one over the limit', () => {
    expect(readRegularFileSync('/dev/zero')).toBeUndefined();
    mkdirSync(join(dir, 'folder'));
    expect(readRegularFileSync(join(dir, 'folder'))).toBeUndefined();
    expect(readRegularFileSync(join(dir, 'missing'))).toBeUndefined();
    writeFileSync(join(dir, 'big'), 'x'.repeat(100));
    expect(readRegularFileSync(join(dir, 'big'), { maxBytes: 99 })).toBeUndefined();
    expect(readRegularFileSync(join(dir, 'big'), { maxBytes: 100 })?.length).toBe(100);
  });
});
