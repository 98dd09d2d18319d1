import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from '../_test_session.ts';
import { SEARCH_ENGINES } from '../_test_engines.ts';

describe.each(SEARCH_ENGINES)('Glob through a link inside the searched folder (%s engine)', (engine) => {
  // The project holds `out -> <a folder outside every working directory>`. Listing that folder
  // must be asked about (and here refused), as `path: "out"` is; a pattern that starts with the
  // link's name must not walk through it without asking.
  let bench: TestBench;
  let outside: string;
  let asked: string[];
  beforeEach(async () => {
    outside = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-outside-')));
    await mkdir(path.join(outside, 'inner'));
    await writeFile(path.join(outside, 'launch-plan-7731.txt'), 'secret\n');
    await writeFile(path.join(outside, 'inner', 'payroll-2291.txt'), 'secret\n');
    asked = [];
    bench = await makeBench({
      family: { searchEngine: engine },
      permissions: { mode: 'default' },
      canUseTool: async (name, input) => {
        asked.push(`${name} ${JSON.stringify(input)}`);
        return { behavior: 'deny', message: 'no' };
      },
    });
    await mkdir(path.join(bench.dir, 'sub'));
    await writeFile(path.join(bench.dir, 'sub', 'ok.txt'), 'fine\n');
    await symlink(outside, path.join(bench.dir, 'out'));
    await symlink(outside, path.join(bench.dir, 'sub', 'out'));
  });
  afterEach(async () => {
    await bench.cleanup();
    await rm(outside, { recursive: true, force: true });
  });

  test('naming the link as path is asked about and refused (the control)', async () => {
    const { text } = await bench.call('Glob', { pattern: '*.txt', path: 'out' });
    expect(text).not.toContain('launch-plan');
    expect(asked.length).toBe(1);
  });

  test.each(['out/*.txt', 'out/**/*.txt', 'sub/out/*.txt', 'out/inner/*.txt'])(
    'a pattern starting with a link to a folder outside the working directories (%s) does not list that folder',
    async (pattern) => {
      const { text } = await bench.call('Glob', { pattern });
      expect(text).not.toContain('launch-plan');
      expect(text).not.toContain('payroll');
    },
  );
});

describe.each(SEARCH_ENGINES)('Glob through a link to a denied folder inside the project (%s engine)', (engine) => {
  // Near-miss kept as a regression test: the deny filter resolves links, so `alias/*` is judged as `secrets/*`.
  let bench: TestBench;
  beforeEach(async () => {
    bench = await makeBench({
      family: { searchEngine: engine },
      permissions: { mode: 'acceptEdits', deny: ['Read(./secrets/**)'] },
    });
    await mkdir(path.join(bench.dir, 'secrets', 'inner'), { recursive: true });
    await writeFile(path.join(bench.dir, 'secrets', 'launch-plan-7731.txt'), 'secret\n');
    await writeFile(path.join(bench.dir, 'secrets', 'inner', 'payroll-2291.txt'), 'secret\n');
    await symlink('secrets', path.join(bench.dir, 'alias'));
  });
  afterEach(async () => {
    await bench.cleanup();
  });

  test.each(['alias/*.txt', 'alias/**/*.txt', 'alias/inner/*'])(
    'a pattern through a link to a denied folder (%s) lists none of its files',
    async (pattern) => {
      const { text } = await bench.call('Glob', { pattern });
      expect(text).not.toContain('launch-plan');
      expect(text).not.toContain('payroll');
    },
  );
});
