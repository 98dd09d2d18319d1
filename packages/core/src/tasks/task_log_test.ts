import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openTaskLog, taskLogName } from './task_log.ts';

const temp = () => mkdtempSync(path.join(tmpdir(), 'task-log-'));

test('a task log is 0600 in a 0700 folder', () => {
  const dir = path.join(temp(), 'tasks');
  const log = openTaskLog(dir, 'bash_1');
  log.write('hi\n');
  log.close();
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(log.path).mode & 0o777).toBe(0o600);
  expect(readFileSync(log.path, 'utf8')).toBe('hi\n');
});

test('a task log refuses a file or symlink that exists already', () => {
  const dir = temp();
  const target = path.join(temp(), 'victim');
  writeFileSync(target, 'keep');
  symlinkSync(target, path.join(dir, `${taskLogName('bash_1')}.log`));
  expect(() => openTaskLog(dir, 'bash_1')).toThrow(/EEXIST/);
  expect(readFileSync(target, 'utf8')).toBe('keep');
});

test('a task log folder that is a symlink is refused', () => {
  const root = temp();
  mkdirSync(path.join(root, 'real'));
  symlinkSync(path.join(root, 'real'), path.join(root, 'tasks'));
  expect(() => openTaskLog(path.join(root, 'tasks'), 'bash_1')).toThrow(/not a directory/);
});

test('ids that differ only in . or _ get different files, none outside the folder', () => {
  const names = ['a.b', 'a_b', 'a_2eb', 'a/b', '../x', 'a-b'].map(taskLogName);
  expect(new Set(names).size).toBe(names.length);
  for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
});

test('writes stop at the cap, and write says so', () => {
  const log = openTaskLog(temp(), 't', { maxBytes: 10 });
  expect(log.write('12345')).toBe(true);
  expect(log.write('67890abc')).toBe(false);
  expect(log.full).toBe(true);
  log.close();
  expect(readFileSync(log.path, 'utf8')).toBe('1234567890');
});
