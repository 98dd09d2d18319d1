import { describe, expect, test } from 'vitest';
import { isPathInside } from './is_path_inside.ts';

describe('isPathInside', () => {
  const table: [path: string, dir: string, inside: boolean][] = [
    ['/home/u/proj', '/home/u/proj', true],
    ['/home/u/proj/a.ts', '/home/u/proj', true],
    ['/home/u/proj/src/deep/a.ts', '/home/u/proj', true],
    ['/home/u/proj/..foo', '/home/u/proj', true],
    ['/home/u/proj-evil', '/home/u/proj', false],
    ['/home/u/proj-evil/a.ts', '/home/u/proj', false],
    ['/home/u/projx/a.ts', '/home/u/proj', false],
    ['/home/u', '/home/u/proj', false],
    ['/etc/passwd', '/home/u/proj', false],
    ['/anything', '/', true],
  ];
  test.each(table)('%j inside %j is %s', (path, dir, inside) => {
    expect(isPathInside(path, dir)).toBe(inside);
  });
});
