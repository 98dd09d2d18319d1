import { utimesSync, writeFileSync } from 'node:fs';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hardLinkFolderListings } from '@toolshed/core/internal';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from './_test_session.ts';
import { SEARCH_ENGINES } from './_test_engines.ts';

/**
 * A hard link is the denied file under another name: `ln .env docs/notes` makes `docs/notes` the
 * very file `Read(./.env)` denies, not a copy. Path rules are about files, so a rule naming one
 * file (or the files of one folder, `Read(./.env.*)`) covers each of its names.
 */

const SECRET = 'KEY=sk-live-4242';

describe.each(SEARCH_ENGINES)('a hard link to a denied file inside an allowed folder (%s engine)', (engine) => {
  let bench: TestBench;
  let asked: string[];
  beforeEach(async () => {
    asked = [];
    bench = await makeBench({
      family: { searchEngine: engine },
      permissions: {
        mode: 'acceptEdits',
        deny: ['Read(./.env)', 'Read(./.env.*)', 'Edit(./src/**)'],
        ask: ['Read(./config/token.txt)'],
        allow: ['Edit(./docs/**)'],
      },
      canUseTool: async (name, input) => {
        asked.push(`${name} ${JSON.stringify(input)}`);
        return { behavior: 'deny', message: 'no' };
      },
    });
    const d = bench.dir;
    for (const dir of ['docs', 'src', 'config']) await mkdir(path.join(d, dir));
    await writeFile(path.join(d, '.env'), `${SECRET}\n`);
    await writeFile(path.join(d, '.env.production'), `${SECRET}-prod\n`);
    await writeFile(path.join(d, 'config', 'token.txt'), `${SECRET}-token\n`);
    await writeFile(path.join(d, 'docs', 'readme.md'), 'plain\n');
    await link(path.join(d, '.env'), path.join(d, 'docs', 'notes.txt'));
    await link(path.join(d, '.env.production'), path.join(d, 'docs', 'prod.txt'));
    await link(path.join(d, 'config', 'token.txt'), path.join(d, 'docs', 'token-copy.txt'));
  });
  afterEach(async () => {
    await bench.cleanup();
  });

  test.each(['docs/notes.txt', 'docs/prod.txt'])(
    'Read of %s is denied by the rule naming the file it is',
    async (file) => {
      const { text, isError } = await bench.call('Read', { file_path: file });
      expect(isError).toBe(true);
      expect(text).not.toContain('sk-live');
      expect(text).toMatch(/Read\(\.\/\.env(\.\*)?\)/);
    },
  );

  test('Read of a hard link to a file an ask rule names asks, and reads nothing when refused', async () => {
    const { text, isError } = await bench.call('Read', { file_path: 'docs/token-copy.txt' });
    expect(isError).toBe(true);
    expect(text).not.toContain('sk-live');
    expect(asked).toHaveLength(1);
  });

  test('Read of a plain file beside the links is still allowed (the control)', async () => {
    const { text, isError } = await bench.call('Read', { file_path: 'docs/readme.md' });
    expect(isError).toBe(false);
    expect(text).toContain('plain');
  });

  test.each([
    { path: '.', output_mode: 'content' },
    { path: 'docs', output_mode: 'content' },
    { path: 'docs', output_mode: 'files_with_matches' },
    { path: 'docs', output_mode: 'count' },
    { path: 'docs/notes.txt', output_mode: 'content' },
  ])('Grep %j shows no line and no name of a hard link to a denied file', async (input) => {
    const { text } = await bench.call('Grep', { pattern: 'KEY', ...input });
    expect(text).not.toContain('sk-live');
    expect(text).not.toContain('notes.txt');
    expect(text).not.toContain('prod.txt');
    expect(text).not.toContain('token-copy.txt');
  });

  test('Edit through a hard link to a file under a denied Edit folder leaves that file as it was', async () => {
    // The control: Edit replaces the name it was given (a new file renamed over it), so the
    // other name keeps the old content; this class was closed before.
    await writeFile(path.join(bench.dir, 'src', 'a.ts'), 'const a = 1;\n');
    await link(path.join(bench.dir, 'src', 'a.ts'), path.join(bench.dir, 'docs', 'a.ts'));
    await bench.call('Read', { file_path: 'docs/a.ts' });
    await bench.call('Edit', { file_path: 'docs/a.ts', old_string: '1', new_string: '2' });
    expect(await readFile(path.join(bench.dir, 'src', 'a.ts'), 'utf8')).toBe('const a = 1;\n');
  });
});

describe('a name replaced by a hard link to a denied file between the check and the open', () => {
  test('Read approved for docs/notes.txt reads nothing once that name is a hard link to .env', async () => {
    let bench: TestBench | undefined;
    bench = await makeBench({
      permissions: { deny: ['Read(./.env)'], ask: ['Read(./docs/**)'] },
      // Approved while docs/notes.txt is a plain file; meanwhile the name becomes a link to .env.
      canUseTool: async () => {
        const notes = path.join(bench!.dir, 'docs', 'notes.txt');
        await rm(notes);
        await link(path.join(bench!.dir, '.env'), notes);
        return { behavior: 'allow' };
      },
    });
    try {
      await mkdir(path.join(bench.dir, 'docs'));
      await writeFile(path.join(bench.dir, '.env'), `${SECRET}\n`);
      await writeFile(path.join(bench.dir, 'docs', 'notes.txt'), 'notes\n');
      const { text, isError } = await bench.call('Read', { file_path: 'docs/notes.txt' });
      expect(text).not.toContain('sk-live');
      expect(isError).toBe(true);
      expect(text).toContain('Read(./.env)');
    } finally {
      await bench.cleanup();
    }
  });
});

/** Sets folders' modification time back, so their listing is trusted (not a change of the last seconds). */
function settle(...dirs: string[]): void {
  const old = new Date(Date.now() - 60_000);
  for (const dir of dirs) utimesSync(dir, old, old);
}

describe('a session lists a rule folder once while it is unchanged (pnpm: every file has several names)', () => {
  let bench: TestBench;
  beforeEach(async () => {
    bench = await makeBench({
      permissions: { deny: ['Read(./.env)', 'Read(./.env.*)', 'Read(./secrets/*)', 'Read(./*.pem)'] },
    });
    const d = bench.dir;
    for (const dir of ['docs', 'secrets', '.state']) await mkdir(path.join(d, dir), { recursive: true });
    await writeFile(path.join(d, '.env'), `${SECRET}\n`);
    await writeFile(path.join(d, 'secrets', 'token'), `${SECRET}-token\n`);
    await writeFile(path.join(d, 'docs', 'lib.js'), 'export const lib = 1;\n');
    await link(path.join(d, 'docs', 'lib.js'), path.join(d, 'docs', 'lib-store.js'));
    settle(d, path.join(d, 'secrets'));
  });
  afterEach(async () => {
    await bench.cleanup();
  });

  test('200 Reads of a file with two names list the project root and secrets/ at most once each', async () => {
    const before = hardLinkFolderListings();
    for (let i = 0; i < 200; i++) {
      const { text, isError } = await bench.call('Read', { file_path: 'docs/lib.js' });
      expect(isError, text).toBe(false);
    }
    expect(hardLinkFolderListings() - before).toBeGreaterThan(0);
    expect(hardLinkFolderListings() - before).toBeLessThanOrEqual(2);
  });

  test('a .env.local made after the first Read is covered: its hard link reads nothing', async () => {
    expect((await bench.call('Read', { file_path: 'docs/lib.js' })).isError).toBe(false);
    await writeFile(path.join(bench.dir, '.env.local'), `${SECRET}-local\n`);
    await link(path.join(bench.dir, '.env.local'), path.join(bench.dir, 'docs', 'local.txt'));
    const { text, isError } = await bench.call('Read', { file_path: 'docs/local.txt' });
    expect(isError).toBe(true);
    expect(text).not.toContain('sk-live');
    expect(text).toContain('Read(./.env.*)');
  });
});

describe('a rule folder too large to list (10 001 entries)', () => {
  test('Read of a file with two names asks, and reads it once approved', async () => {
    const asked: string[] = [];
    const bench = await makeBench({
      permissions: { deny: ['Read(./big/*.key)'] },
      canUseTool: async (name, input) => {
        asked.push(`${name} ${JSON.stringify(input)}`);
        return { behavior: 'allow' };
      },
    });
    try {
      const big = path.join(bench.dir, 'big');
      await mkdir(big);
      for (let i = 0; i <= 10_000; i++) writeFileSync(path.join(big, `e${i}`), '');
      await writeFile(path.join(bench.dir, 'lib.js'), 'export const lib = 1;\n');
      await link(path.join(bench.dir, 'lib.js'), path.join(bench.dir, 'lib-store.js'));
      const { text, isError } = await bench.call('Read', { file_path: 'lib.js' });
      expect(asked).toHaveLength(1);
      expect(isError, text).toBe(false);
      expect(text).toContain('export const lib');
    } finally {
      await bench.cleanup();
    }
  }, 60_000);
});
