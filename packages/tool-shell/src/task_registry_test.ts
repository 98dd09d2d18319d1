import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { BackgroundTasks } from '@toolshed/core/internal';
import { TaskRegistry } from './task_registry.ts';

test('a background command that prints past the log cap is stopped, and says why', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shell-cap-'));
  const shared = new BackgroundTasks();
  const tasks = new TaskRegistry({ shared, maxLogBytes: 64 * 1024 });
  const task = tasks.start('yes toolshed', { cwd: dir, logDir: path.join(dir, 'logs') });
  expect(await task.wait(20_000)).toBe(true);
  expect(task.status).toBe('killed');
  expect(task.stopReason).toMatch(/log reached the cap of 65536 bytes/);
  expect(statSync(task.logPath).size).toBe(64 * 1024);
  expect(statSync(task.logPath).mode & 0o777).toBe(0o600);
  expect(shared.get(task.id)).toBe(task);
  await tasks.stopAll();
});

test('shell tasks join the shared registry and each gets its own log file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shell-shared-'));
  const shared = new BackgroundTasks();
  const tasks = new TaskRegistry({ shared });
  const a = tasks.start('echo a', { cwd: dir, logDir: path.join(dir, 'logs') });
  const b = tasks.start('echo b', { cwd: dir, logDir: path.join(dir, 'logs') });
  await a.wait(10_000);
  await b.wait(10_000);
  expect(a.logPath).not.toBe(b.logPath);
  expect(readFileSync(a.logPath, 'utf8')).toBe('a\n');
  expect(shared.list().map((t) => t.kind)).toEqual(['shell', 'shell']);
  await shared.stopAll();
  expect(() => tasks.start('echo c', { cwd: dir, logDir: path.join(dir, 'logs') })).toThrow(/closing/);
});
