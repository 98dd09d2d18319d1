import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from '../_test_session.ts';
import { SEARCH_ENGINES } from '../_test_engines.ts';

describe.each(SEARCH_ENGINES)('Grep of a file replaced by a folder after its check (%s engine)', (engine) => {
  // A person approves "Grep in notes.txt" (one file); while they read the prompt, notes.txt is
  // replaced by a folder of the same name holding other files. The search must not read the folder.
  let bench: TestBench;
  let swap = false;
  beforeEach(async () => {
    bench = await makeBench({
      family: { searchEngine: engine },
      permissions: { ask: ['Grep'] },
      canUseTool: async () => {
        if (swap) {
          const at = path.join(bench.dir, 'notes.txt');
          await rm(at);
          await mkdir(at);
          await writeFile(path.join(at, 'launch-plan.txt'), 'zebra launch-code-7731\n');
        }
        return { behavior: 'allow' };
      },
    });
    await writeFile(path.join(bench.dir, 'notes.txt'), 'zebra notes\n');
    swap = true;
  });
  afterEach(async () => {
    await bench.cleanup();
  });

  test.each(['content', 'files_with_matches', 'count'])(
    'a file approved and then replaced by a folder is not searched as that folder (%s)',
    async (mode) => {
      const { text, isError } = await bench.call('Grep', { pattern: 'zebra', path: 'notes.txt', output_mode: mode });
      expect(text).not.toContain('7731');
      expect(text).not.toContain('launch-plan');
      expect(isError).toBe(true);
    },
  );
});

describe.each(SEARCH_ENGINES)('Grep of a folder holding links (%s engine)', (engine) => {
  // Near-miss kept as a regression test: neither engine follows a link met while walking, even
  // when the glob field names it.
  let bench: TestBench;
  let asked = 0;
  beforeEach(async () => {
    asked = 0;
    bench = await makeBench({
      family: { searchEngine: engine },
      permissions: { mode: 'default' },
      canUseTool: async () => {
        asked++;
        return { behavior: 'deny', message: 'no' };
      },
    });
    await mkdir(path.join(bench.dir, 'elsewhere'));
    await writeFile(path.join(bench.dir, 'elsewhere', 'launch-plan.txt'), 'zebra launch-code-7731\n');
    await symlink('/etc', path.join(bench.dir, 'etc'));
    await symlink('/etc/hostname', path.join(bench.dir, 'host'));
  });
  afterEach(async () => {
    await bench.cleanup();
  });

  test.each([{ glob: 'etc/**' }, { glob: 'etc/*' }, { glob: 'host' }, {}])(
    'links to places outside the working directory are not followed (%o)',
    async (extra) => {
      const { text } = await bench.call('Grep', { pattern: '.', output_mode: 'files_with_matches', ...extra });
      expect(text).not.toContain('etc/');
      expect(text).not.toMatch(/^host$/m);
      expect(asked).toBe(0);
    },
  );
});
