import { homedir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { resolvePath } from './resolve_path.ts';

describe('resolvePath', () => {
  const table: [path: string, cwd: string, expected: string][] = [
    ['/etc/hosts', '/p', '/etc/hosts'],
    ['src/a.ts', '/p', '/p/src/a.ts'],
    ['./src/../b.ts', '/p', '/p/b.ts'],
    ['../proj-evil/a.ts', '/tmp/proj', '/tmp/proj-evil/a.ts'],
    ['', '/p', '/p'],
    ['/p/sub/', '/x', '/p/sub'],
    ['~', '/p', homedir()],
    ['~/notes.md', '/p', `${homedir()}/notes.md`],
    ['~user/x', '/p', '/p/~user/x'],
  ];
  test.each(table)('%j against %j is %j', (path, cwd, expected) => {
    expect(resolvePath(path, cwd)).toBe(expected);
  });
});
