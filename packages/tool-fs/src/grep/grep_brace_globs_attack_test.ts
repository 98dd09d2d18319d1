import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from '../_test_session.ts';
import { RIPGREP } from '../_test_engines.ts';

// `{a,b}` thirty times: 2^30 alternatives. ripgrep compiles braces into one regex; the JS engine
// tried each alternative as a glob of its own, so this glob made it build a billion strings.
const MANY_GROUPS = `${'{a,b}'.repeat(30)}*.ts`;
const FEW_GROUPS = `${'{a,b}'.repeat(3)}*.ts`;

describe('Grep globs with many {…} groups', () => {
  let js: TestBench;
  let rg: TestBench | undefined;
  beforeAll(async () => {
    js = await makeBench({ family: { searchEngine: 'js' } });
    if (RIPGREP !== undefined) rg = await makeBench({ family: { searchEngine: 'ripgrep' } });
    for (const bench of [js, rg]) {
      if (bench === undefined) continue;
      await mkdir(path.join(bench.dir, 'src'));
      await writeFile(path.join(bench.dir, 'src', `${'ab'.repeat(15)}x.ts`), 'needle\n');
      await writeFile(path.join(bench.dir, 'src', 'abbrev.ts'), 'needle\n');
      await writeFile(path.join(bench.dir, 'src', 'cab.ts'), 'needle\n');
    }
  });
  afterAll(async () => {
    await js.cleanup();
    await rg?.cleanup();
  });

  test('the JS engine refuses a glob of more alternatives than it can try, saying how many and what to write', async () => {
    const { text, isError } = await js.call('Grep', { pattern: 'needle', glob: MANY_GROUPS });
    expect(isError).toBe(true);
    expect(text).toContain(`The glob "${MANY_GROUPS}" stands for 1073741824 globs`);
    expect(text).toMatch(/more than the 4096 the JS engine tries one by one.*fewer \{…\} groups.*install ripgrep/);
  }, 20_000);

  test.skipIf(RIPGREP === undefined)('ripgrep takes it, as it is', async () => {
    const { text, isError } = await rg!.call('Grep', { pattern: 'needle', glob: MANY_GROUPS });
    expect(isError, text).toBe(false);
    expect(text).toContain(`${'ab'.repeat(15)}x.ts`);
    expect(text).not.toContain('cab.ts');
  });

  test('a few groups still match the same files in both engines', async () => {
    const files = async (bench: TestBench) => {
      const { text, isError } = await bench.call('Grep', { pattern: 'needle', glob: FEW_GROUPS });
      expect(isError, text).toBe(false);
      return text
        .split('\n')
        .filter((l) => l.endsWith('.ts'))
        .map((l) => path.basename(l))
        .sort();
    };
    const expected = [`${'ab'.repeat(15)}x.ts`, 'abbrev.ts'];
    expect(await files(js)).toEqual(expected);
    if (rg !== undefined) expect(await files(rg)).toEqual(expected);
  });
});
