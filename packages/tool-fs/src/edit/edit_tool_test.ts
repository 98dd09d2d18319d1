import { execFileSync } from 'node:child_process';
import { chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { availableParallelism } from 'node:os';
import { hashWorkerStats } from '../_hash_off_thread.ts';
import { hashWorkerUp, makeBench, type TestBench } from '../_test_session.ts';

/**
 * Whether this machine lets a test mount a file system with whole-second times: Linux, root, and
 * mkfs.ext2 (an ext2 image with 128-byte inodes, on a loop device). Elsewhere the coarse-file-system
 * case is covered by trustedHash's own tests.
 */
function canMountCoarse(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    const coarse = mountCoarse();
    coarse.unmount();
    return true;
  } catch {
    return false;
  }
}

/** An ext2 file system with 128-byte inodes (times in whole seconds), mounted on a temp folder. */
function mountCoarse(): { dir: string; unmount: () => void } {
  const base = mkdtempSync(path.join(tmpdir(), 'toolshed-coarse-'));
  const image = path.join(base, 'fs.img');
  const dir = path.join(base, 'mnt');
  const quiet = { stdio: 'ignore' as const };
  try {
    mkdirSync(dir);
    writeFileSync(image, '');
    truncateSync(image, 8 * 1024 * 1024);
    execFileSync('mkfs.ext2', ['-q', '-F', '-I', '128', image], quiet);
    execFileSync('mount', ['-o', 'loop', image, dir], quiet);
  } catch (e) {
    rmSync(base, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir], quiet);
      rmSync(base, { recursive: true, force: true });
    },
  };
}

let bench: TestBench;
beforeEach(async () => {
  bench = await makeBench();
});
afterEach(async () => {
  await bench.cleanup();
});

const file = (name: string) => path.join(bench.dir, name);
async function put(name: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file(name)), { recursive: true });
  await writeFile(file(name), content);
}
async function readThenEdit(name: string, input: Record<string, unknown>) {
  const read = await bench.call('Read', { file_path: name });
  expect(read.isError).toBe(false);
  return bench.call('Edit', { file_path: name, ...input });
}

describe('Edit read-first and staleness rules', () => {
  test('Edit refuses a file that was not read in this session', async () => {
    await put('a.ts', 'const a = 1;\n');
    const { text, isError } = await bench.call('Edit', { file_path: 'a.ts', old_string: '1', new_string: '2' });
    expect(isError).toBe(true);
    expect(text).toContain('File has not been read yet');
    expect(await readFile(file('a.ts'), 'utf8')).toBe('const a = 1;\n');
  });

  test('Edit refuses a file whose content changed on disk since it was read', async () => {
    await put('a.ts', 'const a = 1;\n');
    await bench.call('Read', { file_path: 'a.ts' });
    execFileSync(process.execPath, [
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(file('a.ts'))}, 'const a = 100;\\n')`,
    ]);
    const { text, isError } = await bench.call('Edit', {
      file_path: 'a.ts',
      old_string: 'const a',
      new_string: 'let a',
    });
    expect(isError).toBe(true);
    expect(text).toContain('changed on disk since it was read');
    expect(text).toContain('Read it again');
    expect(await readFile(file('a.ts'), 'utf8')).toBe('const a = 100;\n');
  });

  test('Edit right after an Edit refuses bytes another writer put there, of the same length, in the same tick', async () => {
    await put('quick.ts', 'const a = 1;\n');
    expect((await readThenEdit('quick.ts', { old_string: '1', new_string: '2' })).isError).toBe(false);
    // Same size, same second: only the bytes tell it apart from what the first Edit wrote.
    await writeFile(file('quick.ts'), 'const a = 9;\n');
    const second = await bench.call('Edit', { file_path: 'quick.ts', old_string: '9', new_string: '3' });
    expect(second.isError).toBe(true);
    expect(second.text).toContain('changed on disk since it was read');
    expect(await readFile(file('quick.ts'), 'utf8')).toBe('const a = 9;\n');
    // Back to what the first Edit wrote: the next Edit goes on without a new Read.
    await writeFile(file('quick.ts'), 'const a = 2;\n');
    expect((await bench.call('Edit', { file_path: 'quick.ts', old_string: '2', new_string: '4' })).isError).toBe(false);
    expect(await readFile(file('quick.ts'), 'utf8')).toBe('const a = 4;\n');
  });

  test('Edit refuses a file changed on disk with its size and mtime put back (touch -r), long after it was last written', async () => {
    await put('old.ts', 'const a = 1;\n');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(file('old.ts'), anHourAgo, anHourAgo);
    await bench.call('Read', { file_path: 'old.ts' });
    // Same length, and the old mtime restored: only the change time (which no one can set) moved.
    await writeFile(file('old.ts'), 'const a = 7;\n');
    await utimes(file('old.ts'), anHourAgo, anHourAgo);
    const { text, isError } = await bench.call('Edit', {
      file_path: 'old.ts',
      old_string: 'const a',
      new_string: 'let a',
    });
    expect(isError).toBe(true);
    expect(text).toContain('changed on disk since it was read');
    expect(await readFile(file('old.ts'), 'utf8')).toBe('const a = 7;\n');
  });

  test.skipIf(!canMountCoarse())(
    'Edit refuses a same-size change with the mtime put back in the second of the last change before the Read, on a file system that keeps whole seconds',
    async () => {
      const coarse = mountCoarse();
      const session = await makeBench({ dir: coarse.dir });
      try {
        const target = path.join(session.dir, 'c.ts');
        const anHourAgo = new Date(Date.now() - 3_600_000);
        await session.call('Read', { file_path: path.join(session.dir, 'warm.ts') }); // loads Read's code
        // Within one second: the file changed, read, then changed again with its mtime put back.
        // There, the change time is the same whole second all along.
        for (let tries = 0; ; tries++) {
          while (Date.now() % 1000 < 100 || Date.now() % 1000 > 300) await new Promise((r) => setTimeout(r, 5));
          const second = Math.floor(Date.now() / 1000);
          await writeFile(target, 'const a = 1;\n');
          await utimes(target, anHourAgo, anHourAgo);
          expect((await session.call('Read', { file_path: target })).isError).toBe(false);
          await writeFile(target, 'const a = 7;\n');
          await utimes(target, anHourAgo, anHourAgo);
          if (Math.floor(Date.now() / 1000) === second && (await stat(target)).ctimeMs === second * 1000) break;
          if (tries === 5) throw new Error('could not change, read and change a file within one second');
        }
        const { text, isError } = await session.call('Edit', {
          file_path: target,
          old_string: 'const a',
          new_string: 'let a',
        });
        expect(isError).toBe(true);
        expect(text).toContain('changed on disk since it was read');
        expect(await readFile(target, 'utf8')).toBe('const a = 7;\n');
      } finally {
        await session.cleanup();
        coarse.unmount();
      }
    },
  );

  test('Edit accepts a file whose mtime changed but whose content did not (a touch or a formatter)', async () => {
    await put('a.ts', 'const a = 1;\n');
    await bench.call('Read', { file_path: 'a.ts' });
    const later = new Date(Date.now() + 60_000);
    await utimes(file('a.ts'), later, later);
    const { isError } = await bench.call('Edit', { file_path: 'a.ts', old_string: '1', new_string: '2' });
    expect(isError).toBe(false);
    expect(await readFile(file('a.ts'), 'utf8')).toBe('const a = 2;\n');
  });

  test('a second Edit needs no new Read: the first one updated the file-state cache', async () => {
    await put('a.ts', 'a\nb\n');
    await readThenEdit('a.ts', { old_string: 'a', new_string: 'A' });
    const second = await bench.call('Edit', { file_path: 'a.ts', old_string: 'b', new_string: 'B' });
    expect(second.isError).toBe(false);
    expect(await readFile(file('a.ts'), 'utf8')).toBe('A\nB\n');
  });

  test('after a partial Read, Edit works inside the lines read and refuses outside them', async () => {
    await put('p.txt', Array.from({ length: 100 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
    await bench.call('Read', { file_path: 'p.txt', offset: 1, limit: 10 });
    const inside = await bench.call('Edit', { file_path: 'p.txt', old_string: 'row 5\n', new_string: 'row five\n' });
    expect(inside.isError).toBe(false);
    await bench.call('Read', { file_path: 'p.txt', offset: 1, limit: 10 });
    const outside = await bench.call('Edit', { file_path: 'p.txt', old_string: 'row 50\n', new_string: 'row fifty\n' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('You have read only lines 1-10');
    expect(outside.text).toContain('at line 50, outside them');
    expect(outside.text).toContain('Read with offset=30');
  });

  test('an Edit inside a partial Read does not unlock the lines never read', async () => {
    await put('p.txt', Array.from({ length: 50 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
    await bench.call('Read', { file_path: 'p.txt', offset: 10, limit: 5 });
    const inside = await bench.call('Edit', {
      file_path: 'p.txt',
      old_string: 'row 12\n',
      new_string: 'row 12a\nrow 12b\n',
    });
    expect(inside.isError).toBe(false);
    const before = await readFile(file('p.txt'));
    const unseen = await bench.call('Edit', { file_path: 'p.txt', old_string: 'row 30\n', new_string: 'X\n' });
    expect(unseen.isError).toBe(true);
    // The read lines grew by the one the edit added: 10-15 now.
    expect(unseen.text).toContain('You have read only lines 10-15');
    expect(unseen.text).toContain('at line 31');
    expect(
      await bench.call('Edit', { file_path: 'p.txt', old_string: 'row 14\n', new_string: 'row fourteen\n' }),
    ).toMatchObject({ isError: false });
    expect((await bench.call('Edit', { file_path: 'p.txt', old_string: 'row 15\n', new_string: 'X\n' })).isError).toBe(
      true,
    );
    const all = await bench.call('Edit', {
      file_path: 'p.txt',
      old_string: 'row 4',
      new_string: 'R4',
      replace_all: true,
    });
    expect(all.text).toContain('of the 11 occurrences of old_string are at lines 4, 41, 42');
    expect(await readFile(file('p.txt'), 'utf8')).toBe(before.toString('utf8').replace('row 14\n', 'row fourteen\n'));
  });

  test('Reads of neighbouring ranges add up, so an Edit may span both', async () => {
    await put('p.txt', Array.from({ length: 50 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
    await bench.call('Read', { file_path: 'p.txt', offset: 1, limit: 20 });
    await bench.call('Read', { file_path: 'p.txt', offset: 21, limit: 10 });
    const across = await bench.call('Edit', {
      file_path: 'p.txt',
      old_string: 'row 20\nrow 21\n',
      new_string: 'rows 20-21\n',
    });
    expect(across.isError).toBe(false);
    const beyond = await bench.call('Edit', { file_path: 'p.txt', old_string: 'row 40\n', new_string: 'X\n' });
    expect(beyond.text).toContain('You have read only lines 1-29');
  });

  test('two sessions editing one file: the second is refused as stale, no change is merged or lost', async () => {
    await put('shared.txt', 'value = 1\n');
    const other = await makeBench({ permissions: { mode: 'acceptEdits', additionalDirectories: [bench.dir] } });
    try {
      const shared = file('shared.txt');
      expect((await bench.call('Read', { file_path: shared })).isError).toBe(false);
      expect((await other.call('Read', { file_path: shared })).isError).toBe(false);
      const [a, b] = await Promise.all([
        bench.call('Edit', { file_path: shared, old_string: 'value = 1', new_string: 'value = 2' }),
        other.call('Edit', { file_path: shared, old_string: 'value = 1', new_string: 'value = 3' }),
      ]);
      expect([a.isError, b.isError].sort()).toEqual([false, true]);
      const loser = a.isError ? a : b;
      expect(loser.text).toMatch(/changed on disk|was changed by something else/);
      const final = await readFile(shared, 'utf8');
      expect(final).toBe(a.isError ? 'value = 3\n' : 'value = 2\n');
    } finally {
      await other.cleanup();
    }
  });

  test('Edit racing a real external writer never reports success over content it did not read', async () => {
    await put('race.txt', 'n = 0\n');
    const writer = `const fs=require('fs');for(let i=1;i<=400;i++){fs.writeFileSync(${JSON.stringify(file('race.txt'))}, 'n = '+i+'\\n')}`;
    const child = (await import('node:child_process')).spawn(process.execPath, ['-e', writer]);
    const done = new Promise((resolve) => child.on('exit', resolve));
    const outcomes: string[] = [];
    for (let k = 0; k < 15; k++) {
      const read = await bench.call('Read', { file_path: 'race.txt' });
      const m = /n = (\d+)/.exec(read.text);
      if (!m) continue; // an empty file caught between truncate and write, or the unchanged stub
      const edit = await bench.call('Edit', {
        file_path: 'race.txt',
        old_string: `n = ${m[1]}\n`,
        new_string: `n = ${m[1]} edited\n`,
      });
      outcomes.push(edit.isError ? 'refused' : 'ok');
      if (edit.isError)
        expect(edit.text).toMatch(/changed on disk|changed by something else|not found|not been read|is empty/);
    }
    await done;
    expect(outcomes.length).toBeGreaterThan(0);
    expect((await readdir(bench.dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await readFile(file('race.txt'), 'utf8')).toMatch(/^n = \d+( edited)?\n$/);
  });
});

describe('Edit matching', () => {
  test('Edit replaces an exact string and returns a numbered snippet of the changed region', async () => {
    await put('a.ts', 'line1\nline2\nconst x = 1;\nline4\n');
    const { text, isError } = await readThenEdit('a.ts', { old_string: 'const x = 1;', new_string: 'const x = 2;' });
    expect(isError).toBe(false);
    expect(text).toContain('has been updated');
    expect(text).toContain('     3\tconst x = 2;');
    expect(text).toContain('     1\tline1');
  });

  test('Edit with several matches and no replace_all says how many and on which lines', async () => {
    await put('m.ts', 'foo\nbar\nfoo\nbaz\nfoo\n');
    const { text, isError } = await readThenEdit('m.ts', { old_string: 'foo', new_string: 'qux' });
    expect(isError).toBe(true);
    expect(text).toContain('old_string occurs 3 times');
    expect(text).toContain('(lines 1, 3, 5)');
    expect(await readFile(file('m.ts'), 'utf8')).toBe('foo\nbar\nfoo\nbaz\nfoo\n');
  });

  test('Edit with 100 000 matches and no replace_all answers with the count (line numbers found in one pass)', async () => {
    await put('many.txt', 'x = 1\n'.repeat(100_000));
    await bench.call('Read', { file_path: 'many.txt', limit: 10 });
    const { text, isError } = await bench.call('Edit', { file_path: 'many.txt', old_string: 'x = 1', new_string: 'y' });
    expect(isError).toBe(true);
    expect(text).toContain('old_string occurs 100000 times');
    expect(text).toContain('(lines 1, 2, 3,');
    const all = await bench.call('Edit', {
      file_path: 'many.txt',
      old_string: 'x = 1',
      new_string: 'y',
      replace_all: true,
    });
    expect(all.text).toContain('99990 of the 100000 occurrences of old_string are at lines 11, 12,');
  });

  test('Edit with replace_all replaces every occurrence', async () => {
    await put('m.ts', 'foo\nbar\nfoo\n');
    const { text } = await readThenEdit('m.ts', { old_string: 'foo', new_string: 'qux', replace_all: true });
    expect(text).toContain('2 occurrences replaced');
    expect(await readFile(file('m.ts'), 'utf8')).toBe('qux\nbar\nqux\n');
  });

  test('Edit with no match shows the closest region with line numbers and a diff against old_string', async () => {
    await put('c.ts', 'import x;\n\nfunction add(a, b) {\n  return a + b;\n}\n\nexport { add };\n');
    const { text, isError } = await readThenEdit('c.ts', {
      old_string: 'function add(a, b) {\n  return a - b;\n}',
      new_string: 'nope',
    });
    expect(isError).toBe(true);
    expect(text).toContain('old_string was not found');
    expect(text).toContain('The closest region is lines 3-5');
    expect(text).toContain('-    4   return a + b;');
    expect(text).toContain('+        return a - b;');
  });

  test('a whitespace-only difference is shown with visible whitespace', async () => {
    await put('w.py', 'def f():\n\treturn 1\n');
    const { text } = await readThenEdit('w.py', {
      old_string: 'def f():\n    return 1',
      new_string: 'def f():\n    return 2',
    });
    expect(text).toContain('"\\treturn 1"');
    expect(text).toContain('"    return 1"');
  });

  test('Edit refuses old_string equal to new_string', async () => {
    await put('a.ts', 'x\n');
    const { text, isError } = await bench.call('Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'x' });
    expect(isError).toBe(true);
    expect(text).toContain('old_string and new_string are the same');
  });

  test("Edit matches straight quotes against curly ones and keeps the file's curly style", async () => {
    await put('q.md', 'She said “hello” and it’s fine.\n');
    const { text, isError } = await readThenEdit('q.md', {
      old_string: 'She said "hello" and it\'s fine.',
      new_string: 'She said "goodbye" and it\'s fine.',
    });
    expect(isError).toBe(false);
    expect(text).toContain('curly quotes');
    expect(await readFile(file('q.md'), 'utf8')).toBe('She said “goodbye” and it’s fine.\n');
  });

  test('Edit ignores line-number prefixes copied from Read output', async () => {
    await put('n.ts', 'a\nb\nc\n');
    const { isError } = await readThenEdit('n.ts', {
      old_string: '     2\tb\n     3\tc',
      new_string: '     2\tB\n     3\tC',
    });
    expect(isError).toBe(false);
    expect(await readFile(file('n.ts'), 'utf8')).toBe('a\nB\nC\n');
  });

  test('Edit handles unicode text', async () => {
    await put('u.txt', 'naïve café ☕\n日本語 🎉 end\n');
    await readThenEdit('u.txt', { old_string: '日本語 🎉', new_string: '中文 🚀' });
    expect(await readFile(file('u.txt'), 'utf8')).toBe('naïve café ☕\n中文 🚀 end\n');
  });

  test('Edit on a notebook points to NotebookEdit', async () => {
    await put('n.ipynb', '{"cells":[]}');
    const { text, isError } = await bench.call('Edit', { file_path: 'n.ipynb', old_string: 'a', new_string: 'b' });
    expect(isError).toBe(true);
    expect(text).toContain('Use the NotebookEdit tool');
  });
});

describe('Edit keeps what the user has', () => {
  test('CRLF stays CRLF, also for new lines the model wrote with LF', async () => {
    await put('w.txt', 'one\r\ntwo\r\nthree\r\n');
    await readThenEdit('w.txt', { old_string: 'one\ntwo', new_string: 'one\ninserted\ntwo' });
    expect(await readFile(file('w.txt'), 'utf8')).toBe('one\r\ninserted\r\ntwo\r\nthree\r\n');
  });

  test('a file with mixed line endings keeps the endings of the lines the edit did not touch', async () => {
    await put('mix.txt', 'a\r\nb\nc\r\nd\n');
    await readThenEdit('mix.txt', { old_string: 'c', new_string: 'C' });
    expect(await readFile(file('mix.txt'), 'utf8')).toBe('a\r\nb\nC\r\nd\n');
  });

  test('a BOM is kept', async () => {
    await put('bom.txt', '\uFEFFhello\n');
    await readThenEdit('bom.txt', { old_string: 'hello', new_string: 'bye' });
    const bytes = await readFile(file('bom.txt'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('bye\n');
  });

  test('no final newline stays without one, a final newline stays', async () => {
    await put('nofinal.txt', 'a\nb');
    await readThenEdit('nofinal.txt', { old_string: 'b', new_string: 'c' });
    expect(await readFile(file('nofinal.txt'), 'utf8')).toBe('a\nc');
    await put('final.txt', 'a\nb\n');
    await readThenEdit('final.txt', { old_string: 'b', new_string: 'c' });
    expect(await readFile(file('final.txt'), 'utf8')).toBe('a\nc\n');
  });

  test('the file mode is kept', async () => {
    await put('run.sh', '#!/bin/sh\necho hi\n');
    await chmod(file('run.sh'), 0o750);
    await readThenEdit('run.sh', { old_string: 'hi', new_string: 'bye' });
    expect((await stat(file('run.sh'))).mode & 0o777).toBe(0o750);
  });

  test('through a symlink Edit updates the target and keeps the link', async () => {
    await put('real.txt', 'target text\n');
    await symlink('real.txt', file('link.txt'));
    await readThenEdit('link.txt', { old_string: 'target', new_string: 'edited' });
    expect((await lstat(file('link.txt'))).isSymbolicLink()).toBe(true);
    expect(await readlink(file('link.txt'))).toBe('real.txt');
    expect(await readFile(file('real.txt'), 'utf8')).toBe('edited text\n');
  });

  test('a failed edit leaves the file byte-identical and no temp file behind', async () => {
    const original = Buffer.from('\uFEFFkeep\r\nme\r\nas is', 'utf8');
    await put('keep.txt', original);
    const { isError } = await readThenEdit('keep.txt', { old_string: 'missing text', new_string: 'x' });
    expect(isError).toBe(true);
    expect((await readFile(file('keep.txt'))).equals(original)).toBe(true);
    expect((await readdir(bench.dir)).filter((n) => n.includes('.tmp'))).toEqual([]);
  });
});

describe('Edit on large and UTF-16 files', () => {
  test('Edit changes one line of a 100 000-line file and leaves the rest byte-identical', async () => {
    const body = Array.from({ length: 100_000 }, (_, i) => `row ${i} ${'.'.repeat(20)}`).join('\n') + '\n';
    await put('big.txt', body);
    await bench.call('Read', { file_path: 'big.txt', offset: 70_001, limit: 10 });
    const { text, isError } = await bench.call('Edit', {
      file_path: 'big.txt',
      old_string: 'row 70005 ',
      new_string: 'ROW 70005 ',
    });
    expect(isError).toBe(false);
    expect(text).toContain(' 70006\tROW 70005 ');
    expect(await readFile(file('big.txt'), 'utf8')).toBe(body.replace('row 70005 ', 'ROW 70005 '));
  });

  test('Edits of a 4 MB file (spliced, hashed on a worker) write the right bytes, and an outside change of the same size is refused', async () => {
    await hashWorkerUp();
    const half = 'export const value = compute(argument, another) + 42;\n'.repeat(38_000);
    await put('big.ts', `${half}const marker = 'A';\n${half}`);
    const markerLine = 38_001;
    await bench.call('Read', { file_path: 'big.ts', offset: markerLine - 2, limit: 5 });
    const before = hashWorkerStats().offThread;
    const first = await bench.call('Edit', {
      file_path: 'big.ts',
      old_string: "marker = 'A'",
      new_string: "marker = 'B'",
    });
    expect(first.isError, first.text).toBe(false);
    expect(first.text).toContain(`${String(markerLine).padStart(6)}\tconst marker = 'B';`);
    expect(first.text).toContain(`${String(markerLine - 4).padStart(6)}\texport const value`);
    if (availableParallelism() > 1) expect(hashWorkerStats().offThread).toBeGreaterThan(before);
    expect(await readFile(file('big.ts'), 'utf8')).toBe(`${half}const marker = 'B';\n${half}`);
    // Right after: the bytes are compared with what the last Edit wrote (the hash it recorded).
    const second = await bench.call('Edit', {
      file_path: 'big.ts',
      old_string: "marker = 'B'",
      new_string: "marker = 'C'",
    });
    expect(second.isError, second.text).toBe(false);
    expect(await readFile(file('big.ts'), 'utf8')).toBe(`${half}const marker = 'C';\n${half}`);
    // One byte changed outside, near the marker, size and mtime put back: refused, the file left as it is.
    const st = await stat(file('big.ts'));
    const changed = await readFile(file('big.ts'));
    changed[Buffer.byteLength(half) + 2] = 0x4e;
    await writeFile(file('big.ts'), changed);
    await utimes(file('big.ts'), st.atime, st.mtime);
    const third = await bench.call('Edit', {
      file_path: 'big.ts',
      old_string: "marker = 'C'",
      new_string: "marker = 'D'",
    });
    expect(third.isError).toBe(true);
    expect(third.text).toContain('changed on disk since it was read');
    expect((await readFile(file('big.ts'))).equals(changed)).toBe(true);
  });

  test('a large UTF-8 file with characters of several bytes before the change, and an ASCII one with a BOM, keep every other byte', async () => {
    const wide = `${'größe 😀 ½\n'.repeat(150_000)}target\n${'ünd\n'.repeat(1000)}`;
    await put('wide.txt', wide);
    await put('bom.txt', `\uFEFF${'plain ascii line\n'.repeat(100_000)}target\nend\n`);
    for (const name of ['wide.txt', 'bom.txt']) {
      const before = await readFile(file(name));
      const line = before.subarray(0, before.indexOf('target')).toString('latin1').split('\n').length;
      await bench.call('Read', { file_path: name, offset: line, limit: 1 });
      const { isError, text } = await bench.call('Edit', {
        file_path: name,
        old_string: 'target',
        new_string: 'trägt',
      });
      expect(isError, text).toBe(false);
      const at = before.indexOf('target');
      const expected = Buffer.concat([before.subarray(0, at), Buffer.from('trägt'), before.subarray(at + 6)]);
      expect((await readFile(file(name))).equals(expected)).toBe(true);
    }
  });

  test('replace_all in a large file, with few occurrences (pieces) and with thousands (joined), writes every one', async () => {
    for (const [name, every] of [
      ['few.txt', 100_000],
      ['many.txt', 7],
    ] as const) {
      const lines = Array.from({ length: 20_000 }, (_, i) =>
        i % every === 3 ? `old ${i}` : `line ${i} ${'.'.repeat(50)}`,
      );
      // Written by Write, so all of it counts as seen.
      expect((await bench.call('Write', { file_path: name, content: `${lines.join('\n')}\n` })).isError).toBe(false);
      const { isError, text } = await bench.call('Edit', {
        file_path: name,
        old_string: 'old ',
        new_string: 'new ',
        replace_all: true,
      });
      expect(isError, text).toBe(false);
      expect(await readFile(file(name), 'utf8')).toBe(`${lines.join('\n').replaceAll('old ', 'new ')}\n`);
      // The cache holds the hash of what is on disk: a Read of 5 lines adds up with it to all of
      // them (with another hash it would replace it, and Write would refuse a partial read).
      expect((await bench.call('Read', { file_path: name, offset: 1, limit: 5 })).isError).toBe(false);
      const rewrite = await bench.call('Write', { file_path: name, content: 'short\n' });
      expect(rewrite.isError, rewrite.text).toBe(false);
    }
  });

  test('the snippet after an edit starts up to four lines before it, also at the very start of a file that opens with blank lines', async () => {
    await put('top.txt', '\n\nfirst\nsecond\nthird\n');
    const top = await readThenEdit('top.txt', { old_string: 'first', new_string: 'FIRST' });
    expect(top.text.split('\n').slice(1)).toEqual([
      '     1\t',
      '     2\t',
      '     3\tFIRST',
      '     4\tsecond',
      '     5\tthird',
    ]);
    await put('start.txt', 'alpha\nbeta\n');
    const start = await readThenEdit('start.txt', { old_string: 'alpha', new_string: 'ALPHA' });
    expect(start.text.split('\n').slice(1)).toEqual(['     1\tALPHA', '     2\tbeta']);
    await put('deep.txt', `${Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n')}\n`);
    const deep = await readThenEdit('deep.txt', { old_string: 'l8', new_string: 'L8' });
    expect(deep.text.split('\n')[1]).toBe('     4\tl4');
  });

  test('a UTF-16LE file is read as text and stays UTF-16LE with its BOM after an edit', async () => {
    await put('wide.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\n', 'utf16le')]));
    const read = await bench.call('Read', { file_path: 'wide.txt' });
    expect(read.text).toBe('     1\théllo\n     2\twörld');
    await bench.call('Edit', { file_path: 'wide.txt', old_string: 'wörld', new_string: 'wörld\nagain' });
    expect(
      (await readFile(file('wide.txt'))).equals(
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\nagain\r\n', 'utf16le')]),
      ),
    ).toBe(true);
  });

  test('a Read after an Edit returns the new content, not the "unchanged" stub', async () => {
    await put('r.txt', 'one\ntwo\n');
    await readThenEdit('r.txt', { old_string: 'two', new_string: 'TWO' });
    const again = await bench.call('Read', { file_path: 'r.txt' });
    expect(again.text).toBe('     1\tone\n     2\tTWO');
  });
});

describe('Edit creating files', () => {
  test('an empty old_string on a missing file creates it, parent folders included', async () => {
    const { text, isError } = await bench.call('Edit', {
      file_path: 'new/dir/f.ts',
      old_string: '',
      new_string: 'export const x = 1;\n',
    });
    expect(isError).toBe(false);
    expect(text).toContain('Created');
    expect(await readFile(file('new/dir/f.ts'), 'utf8')).toBe('export const x = 1;\n');
  });

  test('an empty old_string on a file with content is refused', async () => {
    await put('full.txt', 'content\n');
    const { text, isError } = await readThenEdit('full.txt', { old_string: '', new_string: 'x' });
    expect(isError).toBe(true);
    expect(text).toContain('old_string is empty but');
  });

  test('a non-empty old_string on a missing file says it does not exist', async () => {
    const { text, isError } = await bench.call('Edit', { file_path: 'ghost.ts', old_string: 'a', new_string: 'b' });
    expect(isError).toBe(true);
    expect(text).toContain('File does not exist');
    expect(text).toContain('use Write');
  });

  test('a missing file suggests near names inside the working directory, but lists no folder outside it', async () => {
    await put('ghost.ts', 'a\n');
    const inside = await bench.call('Edit', { file_path: 'ghost.tsx', old_string: 'a', new_string: 'b' });
    expect(inside.text).toContain(`Did you mean ${file('ghost.ts')}?`);
    const outside = await makeBench();
    try {
      await writeFile(path.join(outside.dir, 'secret.txt'), 's\n');
      const { text, isError } = await bench.call('Edit', {
        file_path: path.join(outside.dir, 'secret.tx'),
        old_string: 'a',
        new_string: 'b',
      });
      expect(isError).toBe(true);
      expect(text).toContain('File does not exist');
      expect(text).not.toContain('secret.txt');
    } finally {
      await outside.cleanup();
    }
  });
});

describe('Edit between its check and its write', () => {
  test('a change made while the edit waits for approval is not overwritten: the edit is refused and the change kept', async () => {
    const { createSession, contentToText } = await import('@toolshed/core');
    const { fileTools } = await import('../family.ts');
    const target = file('waiting.ts');
    await writeFile(target, 'const a = 1;\n');
    const session = await createSession({
      cwd: bench.dir,
      families: [fileTools()],
      stateDir: path.join(bench.dir, '.state2'),
      // The person approving takes a moment, during which something else writes the file.
      canUseTool: async () => {
        await writeFile(target, 'const a = 1; // edited meanwhile\n');
        return { behavior: 'allow' };
      },
    });
    try {
      await session.run([{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'waiting.ts' } }]);
      const [edit] = await session.run([
        {
          type: 'tool_use',
          id: 'e1',
          name: 'Edit',
          input: { file_path: 'waiting.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' },
        },
      ]);
      expect(edit!.is_error).toBe(true);
      expect(contentToText(edit!.content)).toMatch(/modified|changed/i);
      expect(await readFile(target, 'utf8')).toBe('const a = 1; // edited meanwhile\n');
    } finally {
      await session.close();
    }
  });
});

describe('Edit writes the bytes of the file it read', () => {
  test('Edit splices the replacement into the old bytes: a BOM, CRLF and multibyte text around it stay as they were', async () => {
    const before = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('π = 3.14\r\nconst name = "héllo 👋";\r\nend ✓\r\n', 'utf8'),
    ]);
    await writeFile(file('u.ts'), before);
    await bench.call('Read', { file_path: 'u.ts' });
    const { isError, text } = await bench.call('Edit', {
      file_path: 'u.ts',
      old_string: 'const name = "héllo 👋";\nend',
      new_string: 'const name = "wörld 🌍";\nfinish',
    });
    expect(isError, text).toBe(false);
    expect(text).toContain('const name = "wörld 🌍";');
    const after = await readFile(file('u.ts'));
    expect(
      after.equals(
        Buffer.concat([
          Buffer.from([0xef, 0xbb, 0xbf]),
          Buffer.from('π = 3.14\r\nconst name = "wörld 🌍";\r\nfinish ✓\r\n', 'utf8'),
        ]),
      ),
    ).toBe(true);
  });

  test('Edit of a file with bytes that are not UTF-8 writes what it decoded, as before', async () => {
    await writeFile(file('bad.txt'), Buffer.from([0x61, 0xff, 0x0a, 0x62, 0x0a]));
    await bench.call('Read', { file_path: 'bad.txt' });
    const { isError } = await bench.call('Edit', { file_path: 'bad.txt', old_string: 'b', new_string: 'c' });
    expect(isError).toBe(false);
    expect(await readFile(file('bad.txt'), 'utf8')).toBe('a\ufffd\nc\n');
  });

  test("Edit's snippet shows the lines around a replacement in a long file, numbered as in the new file", async () => {
    const lines = Array.from({ length: 1_500 }, (_, i) => `line ${i + 1}`);
    await writeFile(file('long.txt'), `${lines.join('\n')}\n`);
    await bench.call('Read', { file_path: 'long.txt' });
    const { text, isError } = await bench.call('Edit', {
      file_path: 'long.txt',
      old_string: 'line 1000\n',
      new_string: 'a\nb\nc\n',
    });
    expect(isError, text).toBe(false);
    const shown = text.split('\n').slice(1);
    expect(shown[0]).toMatch(/^\s*996\tline 996$/);
    expect(shown).toContainEqual(expect.stringMatching(/^\s*1000\ta$/));
    expect(shown).toContainEqual(expect.stringMatching(/^\s*1002\tc$/));
    expect(shown).toContainEqual(expect.stringMatching(/^\s*1003\tline 1001$/));
  });
});
