import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isNormalAbsolute } from './_is_normal_absolute.ts';

describe('isNormalAbsolute', () => {
  test('is true exactly when resolving the path would not change it', () => {
    const paths = [
      '/',
      '/p',
      '/p/src/a.ts',
      '/p/..odd/.env',
      '/p/.../x',
      '/p/.env',
      '/p/x.',
      '/p//x',
      '/p/./x',
      '/p/../x',
      '/p/x/',
      '/p/x/.',
      '/p/x/..',
      '//p',
      'p/x',
      '',
      '.',
      '/.',
      '/..',
    ];
    for (const p of paths) expect([p, isNormalAbsolute(p)]).toEqual([p, resolve(p) === p]);
  });
});
