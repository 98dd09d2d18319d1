import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { hashWorkerStats, OFF_THREAD_MIN_BYTES } from '../_hash_off_thread.ts';
import { dropFreeScratch, scratchStats } from '../_shared_scratch.ts';
import { hashWorkerUp, makeBench, type TestBench } from '../_test_session.ts';

let bench: TestBench;
beforeEach(async () => {
  bench = await makeBench();
});
afterEach(async () => {
  await bench.cleanup();
});
const file = (name: string) => path.join(bench.dir, name);

describe('Write', () => {
  test('Write creates a new file and its parent folders, and says it created it', async () => {
    const { text, isError } = await bench.call('Write', { file_path: 'a/b/c.txt', content: 'one\ntwo\n' });
    expect(isError).toBe(false);
    expect(text).toBe(`Created ${file('a/b/c.txt')} (2 lines).`);
    expect(await readFile(file('a/b/c.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  test('Write refuses to overwrite a file that was not read first', async () => {
    await writeFile(file('x.txt'), 'old\n');
    const { text, isError } = await bench.call('Write', { file_path: 'x.txt', content: 'new\n' });
    expect(isError).toBe(true);
    expect(text).toContain('File has not been read yet');
    expect(await readFile(file('x.txt'), 'utf8')).toBe('old\n');
  });

  test('Write refuses a file that changed since it was read, but not one that was only touched', async () => {
    await writeFile(file('x.txt'), 'old\n');
    await bench.call('Read', { file_path: 'x.txt' });
    const later = new Date(Date.now() + 60_000);
    await utimes(file('x.txt'), later, later);
    expect((await bench.call('Write', { file_path: 'x.txt', content: 'mine\n' })).isError).toBe(false);
    await writeFile(file('x.txt'), 'someone else\n');
    const stale = await bench.call('Write', { file_path: 'x.txt', content: 'mine again\n' });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('changed on disk');
    expect(await readFile(file('x.txt'), 'utf8')).toBe('someone else\n');
  });

  test('Write of an existing file says it updated it, with a short diff summary', async () => {
    await writeFile(file('x.txt'), 'a\nb\nc\n');
    await bench.call('Read', { file_path: 'x.txt' });
    const { text } = await bench.call('Write', { file_path: 'x.txt', content: 'a\nB\nc\nd\n' });
    expect(text).toContain(`Updated ${file('x.txt')}: 2 lines added, 1 removed (4 lines now).`);
    expect(text).toContain('-    2 b');
    expect(text).toContain('+    2 B');
    expect(text).toContain('+    4 d');
  });

  test('Write keeps the mode, a BOM and CRLF endings of the file it replaces', async () => {
    await writeFile(file('w.bat'), '\uFEFF@echo off\r\necho 1\r\n');
    await chmod(file('w.bat'), 0o741);
    await bench.call('Read', { file_path: 'w.bat' });
    await bench.call('Write', { file_path: 'w.bat', content: '@echo off\necho 2\n' });
    expect(await readFile(file('w.bat'), 'utf8')).toBe('\uFEFF@echo off\r\necho 2\r\n');
    expect((await stat(file('w.bat'))).mode & 0o777).toBe(0o741);
  });

  test('Write through a symlink replaces the target and keeps the link', async () => {
    await writeFile(file('t.txt'), 'x\n');
    await symlink('t.txt', file('l.txt'));
    await bench.call('Read', { file_path: 'l.txt' });
    expect((await bench.call('Write', { file_path: 'l.txt', content: 'y\n' })).isError).toBe(false);
    expect((await lstat(file('l.txt'))).isSymbolicLink()).toBe(true);
    expect(await readFile(file('t.txt'), 'utf8')).toBe('y\n');
    expect((await readdir(bench.dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  test('Write refuses a directory and a path under a file', async () => {
    await mkdir(file('d'));
    expect((await bench.call('Write', { file_path: 'd', content: 'x' })).text).toContain('is a directory');
    await writeFile(file('f'), 'x');
    expect((await bench.call('Write', { file_path: 'f/g.txt', content: 'x' })).text).toContain(
      'is a file, not a folder',
    );
  });

  test('an Edit right after a Write needs no Read', async () => {
    await bench.call('Write', { file_path: 'n.txt', content: 'hello\n' });
    expect((await bench.call('Edit', { file_path: 'n.txt', old_string: 'hello', new_string: 'bye' })).isError).toBe(
      false,
    );
    expect(await readFile(file('n.txt'), 'utf8')).toBe('bye\n');
  });
});

describe('Write of a large new file (its hash taken on a worker thread)', () => {
  const content = Array.from({ length: 60_000 }, (_, i) => `export const v${i} = ${i}; // a line of text`).join('\n');

  test('the file-state cache gets the hash of what was written: a partial Read then adds up to all of it', async () => {
    await hashWorkerUp();
    const before = hashWorkerStats().offThread;
    const created = await bench.call('Write', { file_path: 'big.ts', content });
    expect(created.text).toBe(`Created ${file('big.ts')} (60000 lines).`);
    expect(await readFile(file('big.ts'), 'utf8')).toBe(content);
    // Taken after the call, on the worker (on one CPU there is none: on the calling thread).
    if (availableParallelism() > 1) await vi.waitFor(() => expect(hashWorkerStats().offThread).toBeGreaterThan(before));
    // A Read of the same content widens the entry the Write left (equal hashes) to all lines, so
    // Write may replace the file; with a wrong hash it would be a partial read of 5 lines.
    expect((await bench.call('Read', { file_path: 'big.ts', offset: 1, limit: 5 })).isError).toBe(false);
    const again = await bench.call('Write', { file_path: 'big.ts', content: `${content}\n` });
    expect(again.isError, again.text).toBe(false);
  });

  test('used before the worker has answered, the entry hashes on the calling thread: an Edit at once finds the file fresh', async () => {
    await hashWorkerUp();
    const [write, edit] = await bench.session.run([
      { type: 'tool_use', id: 'w1', name: 'Write', input: { file_path: 'now.ts', content } },
      {
        type: 'tool_use',
        id: 'e1',
        name: 'Edit',
        input: { file_path: 'now.ts', old_string: 'v59999 ', new_string: 'last ' },
      },
    ]);
    expect(write!.is_error).not.toBe(true);
    expect(edit!.is_error, JSON.stringify(edit!.content).slice(0, 300)).not.toBe(true);
    expect(await readFile(file('now.ts'), 'utf8')).toBe(content.replace('v59999 ', 'last '));
  });

  test("a Write's memory is given back once hashed and serves a later large Write", async () => {
    await hashWorkerUp();
    dropFreeScratch();
    const before = scratchStats();
    await bench.call('Write', { file_path: 'one.ts', content });
    await vi.waitFor(() => expect(scratchStats().freeBytes).toBeGreaterThanOrEqual(content.length));
    await bench.call('Write', { file_path: 'two.ts', content: content.replaceAll('line', 'LINE') });
    expect(scratchStats()).toMatchObject({ made: before.made + 1, reused: before.reused + 1 });
  });

  test("a Write's memory is not lent again before its hash is taken: the next Write's text does not become the first file's hash", async () => {
    await hashWorkerUp();
    // The worker is kept from reading until both Writes are done: the first file's hash is taken
    // after the second Write has encoded its text, as on a busy worker or under another session.
    const held: [Worker, unknown[]][] = [];
    const post = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, ...args) {
      held.push([this, args]);
    });
    const other = content.replaceAll('line', 'LINE');
    try {
      expect((await bench.call('Write', { file_path: 'first.ts', content })).isError).toBe(false);
      expect((await bench.call('Write', { file_path: 'second.ts', content: other })).isError).toBe(false);
    } finally {
      post.mockRestore();
      for (const [worker, args] of held) worker.postMessage(...(args as [unknown]));
    }
    // Touched, so that the Edit compares contents by hash instead of trusting the unchanged stat.
    const later = new Date(Date.now() + 60_000);
    await utimes(file('first.ts'), later, later);
    const edit = await bench.call('Edit', { file_path: 'first.ts', old_string: 'v59999 ', new_string: 'last ' });
    expect(edit.isError, edit.text).toBe(false);
    expect(await readFile(file('first.ts'), 'utf8')).toBe(content.replace('v59999 ', 'last '));
  });

  test('Writes one after another each record the hash of their own file (memory being hashed is not lent again)', async () => {
    await hashWorkerUp();
    // 10 MB each: hashing one takes longer than starting the next Write.
    const texts = Array.from(
      { length: 3 },
      (_, i) => `${content.replaceAll('line', `line${i}`).repeat(4)}\nthe end ${i}\n`,
    );
    // Each Write starts as soon as the one before has answered, while its hash is still being taken.
    for (const [i, text] of texts.entries())
      expect((await bench.call('Write', { file_path: `f${i}.ts`, content: text })).isError).toBe(false);
    // Touched, so that the Edit compares contents by hash instead of trusting the unchanged stat.
    const later = new Date(Date.now() + 60_000);
    for (const [i, text] of texts.entries()) {
      await utimes(file(`f${i}.ts`), later, later);
      const edit = await bench.call('Edit', { file_path: `f${i}.ts`, old_string: `the end ${i}`, new_string: 'END' });
      expect(edit.isError, edit.text).toBe(false);
      expect(await readFile(file(`f${i}.ts`), 'utf8')).toBe(text.replace(`the end ${i}`, 'END'));
    }
  });

  test('a later outside change of the same size and mtime is still found: Edit and Write refuse it', async () => {
    await hashWorkerUp();
    await bench.call('Write', { file_path: 'big.ts', content });
    const st = await stat(file('big.ts'));
    const bytes = await readFile(file('big.ts'));
    bytes[bytes.length - 3] = 0x5a; // one byte of the last line
    await writeFile(file('big.ts'), bytes);
    // Its mtime put back (to the microsecond utimes can set) and its size the same: only the content tells.
    await utimes(file('big.ts'), st.atime, st.mtime);
    expect(Math.abs((await stat(file('big.ts'))).mtimeMs - st.mtimeMs)).toBeLessThan(1);
    expect((await stat(file('big.ts'))).size).toBe(st.size);
    const edit = await bench.call('Edit', { file_path: 'big.ts', old_string: 'v59999', new_string: 'last' });
    expect(edit.isError).toBe(true);
    expect(edit.text).toContain('changed on disk since it was read');
    const write = await bench.call('Write', { file_path: 'big.ts', content: 'x' });
    expect(write.isError).toBe(true);
    expect(write.text).toContain('changed on disk since it was read');
    expect((await readFile(file('big.ts'))).equals(bytes)).toBe(true);
  });

  test('non-ASCII content is written as UTF-8 and counted in lines', async () => {
    await hashWorkerUp();
    const wide = `${'ä😀 '.repeat(OFF_THREAD_MIN_BYTES / 2)}\nend\n`;
    const created = await bench.call('Write', { file_path: 'wide.txt', content: wide });
    expect(created.text).toBe(`Created ${file('wide.txt')} (2 lines).`);
    expect((await readFile(file('wide.txt'))).equals(Buffer.from(wide, 'utf8'))).toBe(true);
    expect((await bench.call('Edit', { file_path: 'wide.txt', old_string: 'end', new_string: 'END' })).isError).toBe(
      false,
    );
    expect(await readFile(file('wide.txt'), 'utf8')).toBe(wide.replace('end', 'END'));
  });
});

describe('Write after a partial Read', () => {
  test('Write refuses a file read only in part, and writes it once the Reads add up to all of it', async () => {
    await writeFile(
      path.join(bench.dir, 'long.txt'),
      Array.from({ length: 30 }, (_, i) => `row ${i + 1}`).join('\n') + '\n',
    );
    await bench.call('Read', { file_path: 'long.txt', limit: 10 });
    const refused = await bench.call('Write', { file_path: 'long.txt', content: 'short\n' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('You have read only lines 1-10 of the 30 lines');
    expect(refused.text).toContain('Read with offset=11');
    expect(await readFile(path.join(bench.dir, 'long.txt'), 'utf8')).toContain('row 30');
    await bench.call('Read', { file_path: 'long.txt', offset: 11 });
    const written = await bench.call('Write', { file_path: 'long.txt', content: 'short\n' });
    expect(written.isError).toBe(false);
    expect(await readFile(path.join(bench.dir, 'long.txt'), 'utf8')).toBe('short\n');
  });
});

describe('Write of a file larger than one Read shows', () => {
  test('Write refuses it after a first Read and says to use Edit on the lines read', async () => {
    await writeFile(
      path.join(bench.dir, 'huge.txt'),
      Array.from({ length: 3000 }, (_, i) => `row ${i + 1}`).join('\n') + '\n',
    );
    await bench.call('Read', { file_path: 'huge.txt' });
    const refused = await bench.call('Write', { file_path: 'huge.txt', content: 'short\n' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('You have read only lines 1-2000 of the 3000 lines');
    expect(refused.text).toContain('use Edit to change the lines you read');
    expect(refused.text).toContain('Read with offset=2001');
    const edited = await bench.call('Edit', {
      file_path: 'huge.txt',
      old_string: 'row 1500\n',
      new_string: 'row fifteen hundred\n',
    });
    expect(edited.isError).toBe(false);
  });
});

describe('Write over files Read cannot show as text', () => {
  test('a binary file is refused with what to do instead of "read it first", and left as it was', async () => {
    const bytes = Buffer.from([1, 0, 2, 0, 3]);
    await writeFile(path.join(bench.dir, 'blob.bin'), bytes);
    expect((await bench.call('Read', { file_path: 'blob.bin' })).text).toContain('binary file');
    const { text, isError } = await bench.call('Write', { file_path: 'blob.bin', content: 'text\n' });
    expect(isError).toBe(true);
    expect(text).toContain('is a binary file, which Read cannot show');
    expect(text).toContain('remove it first');
    expect(await readFile(path.join(bench.dir, 'blob.bin'))).toEqual(bytes);
  });

  test('an image the model has Read may be replaced by Write', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await writeFile(path.join(bench.dir, 'dot.png'), png);
    await bench.call('Read', { file_path: 'dot.png' });
    const { isError } = await bench.call('Write', { file_path: 'dot.png', content: 'not an image any more\n' });
    expect(isError).toBe(false);
  });
});

describe('Write and Edit between their permission check and their write', () => {
  // Approved as d/… -> notes/…; meanwhile (here while a person reads the prompt) d is re-pointed
  // at a folder outside the project. The write must not land there.
  async function repointedSession() {
    const { createSession, contentToText } = await import('@toolshed/core');
    const { fileTools } = await import('../family.ts');
    const outside = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-outside-')));
    await writeFile(path.join(outside, 'config'), 'original\n');
    await mkdir(path.join(bench.dir, 'notes'));
    await writeFile(path.join(bench.dir, 'notes', 'config'), 'original\n');
    const link = path.join(bench.dir, 'd');
    await symlink('notes', link);
    let swap = false;
    const session = await createSession({
      cwd: bench.dir,
      families: [fileTools()],
      stateDir: path.join(bench.dir, '.state2'),
      permissions: { mode: 'acceptEdits', ask: ['Edit(./d/**)'] },
      canUseTool: async () => {
        if (swap) {
          await rm(link);
          await symlink(outside, link);
        }
        return { behavior: 'allow' };
      },
    });
    const call = async (name: string, input: unknown) => {
      const [block] = await session.run([{ type: 'tool_use', id: `w${Math.random()}`, name, input }]);
      return { text: contentToText(block!.content), isError: block!.is_error === true };
    };
    return { session, call, outside, armSwap: () => (swap = true) };
  }

  test('a Write to a path whose link is re-pointed after the check writes nothing where it now leads', async () => {
    const { session, call, outside, armSwap } = await repointedSession();
    try {
      armSwap();
      const created = await call('Write', { file_path: 'd/new.sh', content: 'evil\n' });
      expect(created.isError).toBe(true);
      expect(created.text).toContain('changed between its permission check and the write');
      expect(await readdir(outside)).toEqual(['config']);
    } finally {
      await session.close();
      await rm(outside, { recursive: true, force: true });
    }
  });

  test('an Edit of a file whose link is re-pointed after the check leaves the file it now leads to as it was', async () => {
    const { session, call, outside, armSwap } = await repointedSession();
    try {
      expect((await call('Read', { file_path: path.join(outside, 'config') })).isError).toBe(false);
      expect((await call('Read', { file_path: 'd/config' })).isError).toBe(false);
      armSwap();
      const edited = await call('Edit', { file_path: 'd/config', old_string: 'original', new_string: 'evil' });
      expect(edited.isError).toBe(true);
      expect(await readFile(path.join(outside, 'config'), 'utf8')).toBe('original\n');
    } finally {
      await session.close();
      await rm(outside, { recursive: true, force: true });
    }
  });
});
