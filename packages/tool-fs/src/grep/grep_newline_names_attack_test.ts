import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from '../_test_session.ts';
import { SEARCH_ENGINES } from '../_test_engines.ts';

describe.each(SEARCH_ENGINES)('Grep of a denied file whose name holds a line break (%s engine)', (engine) => {
  // `private/**` is denied. A file in it is named `x\nok.txt`: ripgrep prints its path with the
  // line break in it, and a line-by-line reading of that output sees a line `private/x` (no NUL:
  // dropped) and then `ok.txt\0 1:…`, a file `ok.txt` that no rule denies.
  let bench: TestBench;
  beforeEach(async () => {
    bench = await makeBench({
      family: { searchEngine: engine },
      permissions: { mode: 'acceptEdits', deny: ['Read(./private/**)'] },
    });
    await mkdir(path.join(bench.dir, 'private'));
    await writeFile(path.join(bench.dir, 'private', 'x\nok.txt'), 'zebra launch-code-7731\n');
    await writeFile(path.join(bench.dir, 'private', 'plain.txt'), 'zebra launch-code-4242\n');
    await writeFile(path.join(bench.dir, 'public.txt'), 'zebra public\n');
  });
  afterEach(async () => {
    await bench.cleanup();
  });

  test.each(['content', 'count', 'files_with_matches'])(
    'a denied file named with a line break is left out in %s mode',
    async (mode) => {
      for (const extra of [{}, { '-C': 1 }]) {
        const { text } = await bench.call('Grep', { pattern: 'zebra', output_mode: mode, ...extra });
        expect(text).toContain('public.txt');
        expect(text).not.toContain('4242');
        expect(text).not.toContain('7731');
        expect(text).not.toContain('ok.txt');
      }
    },
  );
});
