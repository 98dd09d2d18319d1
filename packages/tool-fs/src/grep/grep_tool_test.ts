import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from '../_test_session.ts';
import { grepMemoryProbe, splitGlobs } from './grep_tool.ts';
import { SEARCH_ENGINES } from '../_test_engines.ts';

describe.each(SEARCH_ENGINES)('Grep with the %s engine', (engine) => {
  let bench: TestBench;
  beforeEach(async () => {
    bench = await makeBench({ family: { searchEngine: engine } });
  });
  afterEach(async () => {
    await bench.cleanup();
  });
  async function put(name: string, content: string | Buffer, ageSeconds = 0): Promise<void> {
    const f = path.join(bench.dir, name);
    await mkdir(path.dirname(f), { recursive: true });
    await writeFile(f, content);
    const t = new Date(Date.now() - ageSeconds * 1000);
    await utimes(f, t, t);
  }
  const grep = (input: Record<string, unknown>) => bench.call('Grep', input);

  test('files_with_matches is the default and lists files newest first', async () => {
    await put('old.ts', 'const needle = 1;\n', 500);
    await put('new.ts', 'needle again\n', 5);
    await put('none.ts', 'nothing\n');
    const { text } = await grep({ pattern: 'needle' });
    expect(text).toBe('Found 2 files\nnew.ts\nold.ts');
  });

  test('content mode prints path:line:text with line numbers on by default, and -n false drops them', async () => {
    await put('a.txt', 'one\ntwo needle\nthree\n');
    expect((await grep({ pattern: 'needle', output_mode: 'content' })).text).toBe('a.txt:2:two needle');
    expect((await grep({ pattern: 'needle', output_mode: 'content', '-n': false })).text).toBe('a.txt:two needle');
  });

  test('-A, -B and -C add context lines, with -- between separate groups', async () => {
    await put('c.txt', ['l1', 'hit1', 'l3', 'l4', 'l5', 'l6', 'hit7', 'l8'].join('\n') + '\n');
    const after = await grep({ pattern: 'hit', output_mode: 'content', '-A': 1 });
    expect(after.text).toBe('c.txt:2:hit1\nc.txt-3-l3\n--\nc.txt:7:hit7\nc.txt-8-l8');
    const before = await grep({ pattern: 'hit7', output_mode: 'content', '-B': 2 });
    expect(before.text).toBe('c.txt-5-l5\nc.txt-6-l6\nc.txt:7:hit7');
    const around = await grep({ pattern: 'hit1', output_mode: 'content', '-C': 1 });
    expect(around.text).toBe('c.txt-1-l1\nc.txt:2:hit1\nc.txt-3-l3');
  });

  test('count mode gives matching lines per file and the total', async () => {
    await put('a.txt', 'x\nx\ny\n');
    await put('b.txt', 'x\n');
    const { text } = await grep({ pattern: 'x', output_mode: 'count' });
    expect(text).toBe('a.txt:2\nb.txt:1\n\nFound 3 total occurrences across 2 files.');
  });

  test('-i makes the search case-insensitive', async () => {
    await put('a.txt', 'Hello\n');
    expect((await grep({ pattern: 'hello' })).text).toBe('No files found');
    expect((await grep({ pattern: 'hello', '-i': true })).text).toBe('Found 1 file\na.txt');
  });

  test('multiline lets a pattern span lines, with every line of the match printed', async () => {
    await put('m.rs', 'struct A {\n    field: u8,\n}\n');
    expect((await grep({ pattern: 'A \\{.*field', output_mode: 'content' })).text).toBe('No matches found');
    const { text } = await grep({ pattern: 'A \\{.*field', output_mode: 'content', multiline: true });
    expect(text).toBe('m.rs:1:struct A {\nm.rs:2:    field: u8,');
  });

  test('glob filters files, with commas and negations, and type filters by language', async () => {
    await put('a.ts', 'hit\n');
    await put('b.tsx', 'hit\n');
    await put('c.js', 'hit\n');
    await put('d.test.ts', 'hit\n');
    const globbed = await grep({ pattern: 'hit', glob: '*.ts,*.tsx !*.test.ts' });
    expect(globbed.text.split('\n').slice(1).sort()).toEqual(['a.ts', 'b.tsx']);
    const braces = await grep({ pattern: 'hit', glob: '*.{js,tsx}' });
    expect(braces.text.split('\n').slice(1).sort()).toEqual(['b.tsx', 'c.js']);
    const typed = await grep({ pattern: 'hit', type: 'js' });
    expect(typed.text).toBe('Found 1 file\nc.js');
  });

  test('a malformed glob is refused with its position, not searched as matching nothing', async () => {
    await put('a.txt', 'x\n');
    for (const glob of ['[', '*.{ts', '!{a,b']) {
      const { text, isError } = await grep({ pattern: 'x', glob });
      expect(isError).toBe(true);
      expect(text).toMatch(/has an unclosed "[[{]" at position \d+\. Fix the glob field/);
    }
  });

  test('an unknown type is an error that names it', async () => {
    await put('a.ts', 'hit\n');
    const { text, isError } = await grep({ pattern: 'hit', type: 'nosuchlang' });
    expect(isError).toBe(true);
    expect(text).toContain('unrecognized file type: nosuchlang');
    // Either engine says which names it knows.
    expect(text).toMatch(/ts, js, py|known here: .*\bts\b/);
  });

  test('.gitignore is respected and .git is skipped; hidden files are searched', async () => {
    await put('.gitignore', 'build/\n');
    await put('build/out.js', 'hit\n');
    await put('.git/config', 'hit\n');
    await put('.env.example', 'hit\n');
    await put('src/a.js', 'hit\n');
    const { text } = await grep({ pattern: 'hit' });
    expect(text.split('\n').slice(1).sort()).toEqual(['.env.example', 'src/a.js']);
  });

  test.each([['*'], ['**/*'], ['.git/**']])('.git is skipped whatever the glob (%s)', async (glob) => {
    await put('.git/config', 'hit\n');
    await put('src/a.js', 'hit\n');
    expect((await grep({ pattern: 'hit', glob })).text).toBe(
      glob === '.git/**' ? 'No files found' : 'Found 1 file\nsrc/a.js',
    );
    const content = await grep({ pattern: 'hit', glob, output_mode: 'content' });
    expect(content.text).not.toContain('.git/');
  });

  test('a path inside a git-ignored folder is searched, as the model asked for it', async () => {
    await put('.gitignore', 'node_modules/\n');
    await put('node_modules/pkg/index.js', 'export const needle = 1;\n');
    expect((await grep({ pattern: 'needle' })).text).toBe('No files found');
    expect((await grep({ pattern: 'needle', path: 'node_modules/pkg' })).text).toBe(
      'Found 1 file\nnode_modules/pkg/index.js',
    );
  });

  test('Rust regex spellings work: POSIX classes and \\x{…} escapes', async () => {
    await put('a.txt', 'plain needle\n42 needle\ncafé\n');
    const count = (pattern: string) => grep({ pattern, output_mode: 'count' }).then((r) => r.text);
    expect(await count('[[:alpha:]]+ needle')).toBe('a.txt:1\n\nFound 1 total occurrence across 1 file.');
    expect(await count('^[[:digit:]]+ ')).toBe('a.txt:1\n\nFound 1 total occurrence across 1 file.');
    expect(await count('caf\\x{e9}')).toBe('a.txt:1\n\nFound 1 total occurrence across 1 file.');
  });

  test('head_limit (default 250) and offset page through results and say when more exist', async () => {
    await put('many.txt', Array.from({ length: 300 }, (_, i) => `hit ${i + 1}`).join('\n') + '\n');
    const first = await grep({ pattern: 'hit', output_mode: 'content' });
    const lines = first.text.split('\n');
    expect(lines[249]).toBe('many.txt:250:hit 250');
    expect(first.text).toContain(
      '[Showing results with pagination = limit: 250, offset: 0. More results exist: continue with offset=250.]',
    );
    const page = await grep({ pattern: 'hit', output_mode: 'content', head_limit: 2, offset: 298 });
    expect(page.text).toBe('many.txt:299:hit 299\nmany.txt:300:hit 300');
    const all = await grep({ pattern: 'hit', output_mode: 'content', head_limit: 0 });
    expect(all.text.split('\n').length).toBe(300);
  });

  test('content and count list files in path order, folder by folder, as rg --sort path does', async () => {
    await put('a-c.txt', 'hit\n');
    await put('a/b.txt', 'hit\n');
    await put('B.txt', 'hit\n');
    expect((await grep({ pattern: 'hit', output_mode: 'content' })).text).toBe(
      'B.txt:1:hit\na/b.txt:1:hit\na-c.txt:1:hit',
    );
    expect((await grep({ pattern: 'hit', output_mode: 'count', head_limit: 2 })).text).toContain(
      'B.txt:1\na/b.txt:1\n\nFound 3 total occurrences across 3 files.',
    );
  });

  test('very long lines are clipped at 500 columns', async () => {
    await put('wide.txt', `needle ${'w'.repeat(2000)}\n`);
    const { text } = await grep({ pattern: 'needle', output_mode: 'content' });
    expect(text).toBe(`wide.txt:1:needle ${'w'.repeat(493)} [... omitted end of long line]`);
  });

  test('binary files are skipped', async () => {
    await put('bin.dat', Buffer.concat([Buffer.from('hit\n'), Buffer.from([0, 1, 2]), Buffer.from('hit\n')]));
    await put('text.txt', 'hit\n');
    expect((await grep({ pattern: 'hit' })).text).toBe('Found 1 file\ntext.txt');
  });

  test('path may be a file or a folder; missing paths get a clear error', async () => {
    await put('dir/a.txt', 'hit\n');
    await put('dir/b.txt', 'hit\n');
    expect((await grep({ pattern: 'hit', path: 'dir/a.txt', output_mode: 'content' })).text).toBe('dir/a.txt:1:hit');
    expect((await grep({ pattern: 'hit', path: 'dir', output_mode: 'count' })).text).toContain(
      'dir/a.txt:1\ndir/b.txt:1',
    );
    const missing = await grep({ pattern: 'hit', path: 'nowhere' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Path does not exist');
  });

  test('a FIFO given as path is refused without blocking, even when a rule allows reading it', async () => {
    const allowed = await makeBench({
      family: { searchEngine: engine },
      permissions: { mode: 'acceptEdits', allow: ['Read(./pipe)'] },
    });
    try {
      execFileSync('mkfifo', [path.join(allowed.dir, 'pipe')]);
      const { text, isError } = await allowed.call('Grep', { pattern: 'x', path: 'pipe' });
      expect(isError).toBe(true);
      expect(text).toContain('it is a FIFO (named pipe), not a file or a folder');
    } finally {
      await allowed.cleanup();
    }
  });

  test("an invalid regex is an error quoting the regex engine's complaint", async () => {
    await put('a.txt', 'x\n');
    const { text, isError } = await grep({ pattern: 'foo(bar' });
    expect(isError).toBe(true);
    expect(text).toMatch(
      engine === 'ripgrep'
        ? /regex parse error:\n +foo\(bar\n +\^\n(.|\n)*unclosed group/
        : /The regex "foo\(bar" is invalid: missing closing \): `foo\(bar`\./,
    );
  });

  test("ripgrep's refusal of look-around keeps its caret and does not offer a --pcre2 flag Grep lacks", async () => {
    await put('a.txt', 'x\n');
    const { text, isError } = await grep({ pattern: 'foo(?=bar)' });
    if (engine === 'js') {
      // Refused too (RE2 has no look-around), saying what to do instead.
      expect(isError).toBe(true);
      expect(text).toContain('Lookaround and backreferences are not supported');
      return;
    }
    expect(isError).toBe(true);
    expect(text).toContain('foo(?=bar)\n       ^^^\nerror: look-around');
    expect(text).not.toContain('--pcre2');
    expect(text).toContain('Grep has no PCRE2 mode');
  });

  test('a pattern that makes a backtracking engine run for ever is answered (linear time, as ripgrep)', async () => {
    // RegExp needs about 26 s for 28 letters here, twice that for each one more.
    await put('a.txt', `${'a'.repeat(200_000)}!\nab\n`);
    const { text, isError } = await grep({ pattern: '(a+)+$', output_mode: 'content' });
    expect(isError).toBe(false);
    expect(text).toBe('No matches found');
    expect((await grep({ pattern: '(a|aa)*b', output_mode: 'content' })).text).toBe('a.txt:2:ab');
  });

  test('a pattern with \\n is refused without multiline, as ripgrep refuses it', async () => {
    await put('a.txt', 'a\nb\n');
    const { text, isError } = await grep({ pattern: 'a\\nb' });
    expect(isError).toBe(true);
    expect(text).toMatch(/\\n|multiline/);
  });

  test('unicode and CRLF files are searched; the CR is not printed', async () => {
    await put('u.txt', 'café ☕\r\nplain\r\n');
    expect((await grep({ pattern: 'caf. ☕', output_mode: 'content' })).text).toBe('u.txt:1:café ☕');
  });
});

describe.each(SEARCH_ENGINES)('Grep between its permission check and its search (%s engine)', (engine) => {
  // Approved as d -> notes (inside the project); meanwhile (here while a person reads the prompt)
  // something re-points d at a folder outside it, holding a secret.
  let bench: TestBench;
  let secrets: string;
  let notes: string;
  let repoint = false;
  beforeEach(async () => {
    secrets = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-secrets-')));
    await writeFile(path.join(secrets, 'launch-plan.txt'), 'zebra launch-code-7731\n');
    await writeFile(path.join(secrets, 'a.txt'), 'zebra launch-code-7731\n');
    bench = await makeBench({
      family: { searchEngine: engine },
      permissions: { ask: ['Grep'] },
      canUseTool: async () => {
        if (repoint) {
          await rm(path.join(bench.dir, 'd'));
          await symlink(secrets, path.join(bench.dir, 'd'));
        }
        return { behavior: 'allow' };
      },
    });
    notes = path.join(bench.dir, 'notes');
    await mkdir(notes);
    await writeFile(path.join(notes, 'a.txt'), 'zebra notes\n');
    await symlink('notes', path.join(bench.dir, 'd'));
    repoint = true;
  });
  afterEach(async () => {
    await bench.cleanup();
    await rm(secrets, { recursive: true, force: true });
  });

  test.each(['content', 'files_with_matches', 'count'])(
    'a folder whose link is re-pointed after the check is not searched in %s mode, and the error names both places',
    async (mode) => {
      const { text, isError } = await bench.call('Grep', { pattern: 'zebra', path: 'd', output_mode: mode });
      expect(text).not.toContain('7731');
      expect(text).not.toContain('launch-plan');
      expect(isError).toBe(true);
      expect(text).toContain(
        `${path.join(bench.dir, 'd')} changed between its permission check and the search: it now leads to "${secrets}", not to "${notes}", which was checked; nothing was searched.`,
      );
      expect(text).toContain('if that was meant, run the call again');
    },
  );

  test('a single file whose link is re-pointed after the check is not searched', async () => {
    for (const mode of ['content', 'files_with_matches', 'count']) {
      const { text, isError } = await bench.call('Grep', { pattern: 'zebra', path: 'd/a.txt', output_mode: mode });
      expect(text).not.toContain('7731');
      expect(isError).toBe(true);
      expect(text).toContain(`now leads to "${path.join(secrets, 'a.txt')}", not to "${path.join(notes, 'a.txt')}"`);
      // Put back for the next mode.
      await rm(path.join(bench.dir, 'd'));
      await symlink('notes', path.join(bench.dir, 'd'));
    }
  });

  test('with the link left alone, a search through it shows the same paths as a search by name always did', async () => {
    repoint = false;
    await writeFile(path.join(notes, 'b.txt'), 'no match\nzebra two\n');
    const grep = async (input: Record<string, unknown>) => {
      const { text, isError } = await bench.call('Grep', input);
      expect(isError).toBe(false);
      return text;
    };
    expect(await grep({ pattern: 'zebra', path: 'd', output_mode: 'content' })).toBe(
      'd/a.txt:1:zebra notes\nd/b.txt:2:zebra two',
    );
    expect(await grep({ pattern: 'zebra', path: 'd', output_mode: 'count' })).toBe(
      'd/a.txt:1\nd/b.txt:1\n\nFound 2 total occurrences across 2 files.',
    );
    expect((await grep({ pattern: 'zebra', path: 'd' })).split('\n').slice(1).sort()).toEqual(['d/a.txt', 'd/b.txt']);
    expect(await grep({ pattern: 'zebra', path: 'd/b.txt', output_mode: 'content', '-B': 1 })).toBe(
      'd/b.txt-1-no match\nd/b.txt:2:zebra two',
    );
    expect(await grep({ pattern: 'zebra', path: 'd/b.txt', output_mode: 'count' })).toBe(
      'd/b.txt:1\n\nFound 1 total occurrence across 1 file.',
    );
    expect(await grep({ pattern: 'zebra', path: 'd/b.txt' })).toBe('Found 1 file\nd/b.txt');
    expect(await grep({ pattern: 'zebra', path: path.join(notes, 'a.txt'), output_mode: 'content' })).toBe(
      'notes/a.txt:1:zebra notes',
    );
  });
});

describe('splitGlobs', () => {
  test('splits on whitespace and commas outside braces', () => {
    expect(splitGlobs('*.ts,*.tsx !*.d.ts')).toEqual(['*.ts', '*.tsx', '!*.d.ts']);
    expect(splitGlobs('*.{ts,tsx}')).toEqual(['*.{ts,tsx}']);
    expect(splitGlobs(undefined)).toEqual([]);
  });
});

describe('Grep stops the search once the page is full', () => {
  test('content mode signals ripgrep to stop after offset + head_limit lines, even when it would print forever', async () => {
    const bench = await makeBench();
    try {
      const mark = path.join(bench.dir, 'stopped-by');
      const fake = path.join(bench.dir, 'endless-rg');
      // A stand-in for ripgrep that never stops printing matches and says which signal ended it.
      await writeFile(
        fake,
        [
          '#!/bin/bash',
          `echo $$ > '${mark}.pid'`,
          `trap 'echo TERM > "${mark}"; exit 143' TERM`,
          "i=0; while true; do i=$((i+1)); printf 'a.txt\\0%d:hit %d\\n' $i $i; done",
        ].join('\n'),
        { mode: 0o755 },
      );
      const endless = await makeBench({ family: { searchEngine: 'ripgrep', ripgrepPath: fake } });
      try {
        const { text, isError } = await endless.call('Grep', {
          pattern: 'hit',
          output_mode: 'content',
          head_limit: 5,
          offset: 3,
        });
        expect(isError).toBe(false);
        expect(text.split('\n').slice(0, 5)).toEqual([4, 5, 6, 7, 8].map((n) => `a.txt:${n}:hit ${n}`));
        expect(text).toContain('continue with offset=8');
        expect((await readFile(mark, 'utf8')).trim()).toBe('TERM');
        // Grep answered only once the child had exited.
        const pid = Number(await readFile(`${mark}.pid`, 'utf8'));
        expect(() => process.kill(pid, 0)).toThrow();
      } finally {
        await endless.cleanup();
      }
    } finally {
      await bench.cleanup();
    }
  });

  test('the JS engine stops reading files once the page is full, and pages agree with a search of everything', async () => {
    const bench = await makeBench({ family: { searchEngine: 'js' } });
    try {
      for (let i = 0; i < 30; i++)
        await writeFile(path.join(bench.dir, `f${String(i).padStart(2, '0')}.txt`), 'hit a\nmiss\nhit b\n');
      const all = (
        await bench.call('Grep', { pattern: 'hit', output_mode: 'content', head_limit: 0, '-A': 1 })
      ).text.split('\n');
      const page = (
        await bench.call('Grep', { pattern: 'hit', output_mode: 'content', head_limit: 7, offset: 11, '-A': 1 })
      ).text.split('\n');
      expect(page.slice(0, 7)).toEqual(all.slice(11, 18));
    } finally {
      await bench.cleanup();
    }
  });
});

describe.each(SEARCH_ENGINES)('Grep content mode with every line asked for (%s engine)', (engine) => {
  test('a result past the result size is written to the results file as it is found, never held whole', async () => {
    const bench = await makeBench({ family: { searchEngine: engine } });
    try {
      const expected: string[] = [];
      for (let f = 0; f < 120; f++) {
        const name = `src/m${String(f).padStart(3, '0')}.ts`;
        const lines = Array.from(
          { length: 150 },
          (_, l) => `  return compute(${f}, ${l}); // a line of ordinary length`,
        );
        await mkdir(path.join(bench.dir, 'src'), { recursive: true });
        await writeFile(path.join(bench.dir, name), `${lines.join('\n')}\n`);
        for (let l = 0; l < lines.length; l++) expected.push(`${name}:${l + 1}:${lines[l]}`);
      }
      const whole = expected.join('\n');
      expect(whole.length).toBeGreaterThan(1_000_000);
      grepMemoryProbe.peakHeldChars = 0;
      const { text, isError } = await bench.call('Grep', { pattern: 'return', output_mode: 'content', head_limit: 0 });
      expect(isError).toBe(false);
      expect(text.startsWith('<persisted-output>\n')).toBe(true);
      expect(text).toContain(`Output too large: ${whole.length.toLocaleString('en-US')} characters`);
      expect(text).toContain(expected[0]);
      const saved = /The full output is saved to (\S+)/.exec(text)?.[1];
      expect(saved?.startsWith(path.join(bench.dir, '.state', 'tool-results'))).toBe(true);
      expect(await readFile(saved!, 'utf8')).toBe(whole);
      // At most the result size (50 000) plus one gathered piece (64 KB) was held, of 1.1 MB.
      expect(grepMemoryProbe.peakHeldChars).toBeGreaterThan(0);
      expect(grepMemoryProbe.peakHeldChars).toBeLessThan(50_000 + 66_000);
    } finally {
      await bench.cleanup();
    }
  });

  test('every line (the lines of ripgrep passed on whole) is what a page as long as all of them shows: CRLF, clipped and denied files, a sub-folder', async () => {
    const bench = await makeBench({
      family: { searchEngine: engine },
      permissions: { mode: 'acceptEdits', deny: ['Read(./src/secret.ts)'] },
    });
    try {
      await mkdir(path.join(bench.dir, 'src', 'deep'), { recursive: true });
      const put = (name: string, text: string) => writeFile(path.join(bench.dir, name), text);
      await put('src/a.ts', 'hit one\nmiss\nhit two\n');
      await put('src/crlf.ts', 'hit dos\r\nhit dos again\r\nmiss\r\n');
      await put('src/mixed.ts', 'hit lf\nhit cr\r\nhit lf again\n');
      await put('src/secret.ts', 'hit secret\n');
      await put('src/deep/wide.ts', `hit ${'w'.repeat(700)}\nhit short\n`);
      await put('src/b:colon.ts', 'hit colon\n');
      await put('top.ts', `${Array.from({ length: 3000 }, (_, i) => `hit ${i} ${'y'.repeat(40)}`).join('\n')}\n`);
      const resultOf = async (input: Record<string, unknown>) => {
        // (The results files of the calls before are in .state, inside the searched folder.)
        const { text, isError } = await bench.call('Grep', { glob: '!.state', ...input });
        expect(isError, text).toBe(false);
        const saved = /The full output is saved to (\S+)/.exec(text)?.[1];
        // A page cut by nothing but its length says nothing about more: the lines are the same.
        return saved === undefined
          ? text
          : (await readFile(saved, 'utf8')).replace(/\n\n\[Showing results[^\]]*\]$/, '');
      };
      for (const where of [{}, { path: 'src' }]) {
        const all = await resultOf({ pattern: 'hit', output_mode: 'content', head_limit: 0, ...where });
        const page = await resultOf({ pattern: 'hit', output_mode: 'content', head_limit: 1_000_000, ...where });
        expect(all).toBe(page);
        expect(all).not.toContain('secret');
        expect(all).not.toContain('\r');
        expect(all).toContain(`${path.join('src', 'crlf.ts')}:2:hit dos again\n`);
        expect(all).toContain(`${path.join('src', 'b:colon.ts')}:1:hit colon`);
        expect(all).toContain(' [... omitted end of long line]');
      }
      const whole = await resultOf({ pattern: 'hit', output_mode: 'content', head_limit: 0 });
      expect(whole.split('\n').length).toBe(2 + 2 + 3 + 2 + 1 + 3000);
    } finally {
      await bench.cleanup();
    }
  });

  test('with no deny rules the saved result is exactly the lines in path order, and an offset page is the same lines of it', async () => {
    const bench = await makeBench({ family: { searchEngine: engine } });
    try {
      const expected: string[] = [];
      // Names whose byte order is not path order (`a-c` after `a/`), non-ASCII text and a CRLF file among many plain ones.
      const files = ['a/b.ts', 'a-c.ts', 'crlf.ts', 'ü/naïve.ts'];
      for (let f = 0; f < 200; f++) files.push(`m/f${String(f).padStart(3, '0')}.ts`);
      for (const name of files) {
        await mkdir(path.join(bench.dir, path.dirname(name)), { recursive: true });
        const lines = Array.from({ length: 60 }, (_, l) =>
          name.startsWith('ü') ? `hit ✓ ${l} café` : `hit ${name} ${l} ${'z'.repeat(l)}`,
        );
        await writeFile(path.join(bench.dir, name), `${lines.join(name === 'crlf.ts' ? '\r\n' : '\n')}\n`);
      }
      const order = [...files].sort((x, y) => (x.replaceAll('/', '\0') < y.replaceAll('/', '\0') ? -1 : 1));
      for (const name of order)
        for (let l = 0; l < 60; l++)
          expected.push(
            `${name}:${l + 1}:${name.startsWith('ü') ? `hit ✓ ${l} café` : `hit ${name} ${l} ${'z'.repeat(l)}`}`,
          );
      const whole = expected.join('\n');
      expect(whole.length).toBeGreaterThan(500_000);
      const saved = async (input: Record<string, unknown>) => {
        const { text, isError } = await bench.call('Grep', {
          glob: '!.state',
          pattern: 'hit',
          output_mode: 'content',
          ...input,
        });
        expect(isError, text).toBe(false);
        const file = /The full output is saved to (\S+)/.exec(text)?.[1];
        return file === undefined ? text : await readFile(file, 'utf8');
      };
      grepMemoryProbe.peakBatchedBytes = 0;
      expect(await saved({ head_limit: 0 })).toBe(whole);
      if (engine === 'ripgrep') {
        expect(grepMemoryProbe.peakBatchedBytes).toBeGreaterThan(0);
        expect(grepMemoryProbe.peakBatchedBytes).toBeLessThanOrEqual(1024 * 1024);
      }
      const page = await saved({ offset: 1_234, head_limit: 9_000 });
      expect(page.replace(/\n\n\[Showing results[^\]]*\]$/, '')).toBe(expected.slice(1_234, 10_234).join('\n'));
      expect(page).toMatch(/continue with offset=10234\.\]$/);
    } finally {
      await bench.cleanup();
    }
  });

  test('a spilled page that head_limit cut ends its file with the note that more exist', async () => {
    const bench = await makeBench({ family: { searchEngine: engine } });
    try {
      const line = `hit ${'x'.repeat(90)}`;
      await writeFile(path.join(bench.dir, 'a.txt'), `${Array.from({ length: 2_000 }, () => line).join('\n')}\n`);
      const { text } = await bench.call('Grep', { pattern: 'hit', output_mode: 'content', head_limit: 1_000 });
      const saved = /The full output is saved to (\S+)/.exec(text)?.[1];
      const body = (await readFile(saved!, 'utf8')).split('\n');
      expect(body.slice(0, 1_000).every((l) => l.startsWith('a.txt:'))).toBe(true);
      expect(body.at(-1)).toMatch(/continue with offset=1000/);
    } finally {
      await bench.cleanup();
    }
  });
});

describe('Grep engine choice', () => {
  test('with RIPGREP_PATH pointing nowhere and searchEngine "ripgrep", Grep says ripgrep is missing', async () => {
    const bench = await makeBench({ family: { searchEngine: 'ripgrep', ripgrepPath: '/nonexistent/rg' } });
    try {
      await writeFile(path.join(bench.dir, 'a.txt'), 'hit\n');
      const { text, isError } = await bench.call('Grep', { pattern: 'hit' });
      expect(isError).toBe(true);
      expect(text).toContain('Could not run ripgrep (/nonexistent/rg)');
    } finally {
      await bench.cleanup();
    }
  });
});
