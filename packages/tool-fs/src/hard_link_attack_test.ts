import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
