import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ContentBlock } from '@toolshed/core';
import { makeBench, type TestBench } from '../_test_session.ts';
import { makePdf, TINY_PNG } from './testdata/make_pdf.ts';

let bench: TestBench;
beforeEach(async () => {
  bench = await makeBench();
});
afterEach(async () => {
  await bench.cleanup();
});

const lines = (n: number, make: (i: number) => string = (i) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => make(i + 1)).join('\n') + '\n';

describe('Read of text files', () => {
  test('Read numbers lines as cat -n does: right-aligned number, a tab, the line', async () => {
    await writeFile(path.join(bench.dir, 'a.txt'), 'alpha\nbeta\n');
    const { text, isError } = await bench.call('Read', { file_path: path.join(bench.dir, 'a.txt') });
    expect(isError).toBe(false);
    expect(text).toBe('     1\talpha\n     2\tbeta');
  });

  test('Read takes offset 0 as the first line, as models sometimes send it', async () => {
    await writeFile(path.join(bench.dir, 'a.txt'), 'alpha\nbeta\n');
    expect((await bench.call('Read', { file_path: 'a.txt', offset: 0, limit: 1 })).text).toContain('     1\talpha');
  });

  test('Read resolves a relative path against the session cwd', async () => {
    await mkdir(path.join(bench.dir, 'src'));
    await writeFile(path.join(bench.dir, 'src', 'b.ts'), 'export {};\n');
    const { text } = await bench.call('Read', { file_path: 'src/b.ts' });
    expect(text).toBe('     1\texport {};');
  });

  test('Read returns 2000 lines by default and says where to continue', async () => {
    await writeFile(path.join(bench.dir, 'long.txt'), lines(2500));
    const { text } = await bench.call('Read', { file_path: 'long.txt' });
    expect(text).toContain('  2000\tline 2000');
    expect(text).not.toContain('line 2001');
    expect(text).toContain('Showing lines 1-2000 of 2500. Continue with offset=2001');
  });

  test('Read pages with a 1-based offset and a limit', async () => {
    await writeFile(path.join(bench.dir, 'long.txt'), lines(50));
    const { text } = await bench.call('Read', { file_path: 'long.txt', offset: 10, limit: 3 });
    expect(text.split('\n').slice(0, 3)).toEqual(['    10\tline 10', '    11\tline 11', '    12\tline 12']);
    expect(text).toContain('Continue with offset=13');
  });

  test('Read cuts a line longer than 2000 characters with a marker', async () => {
    await writeFile(path.join(bench.dir, 'wide.txt'), `${'x'.repeat(5000)}\nshort\n`);
    const { text } = await bench.call('Read', { file_path: 'wide.txt' });
    expect(text).toContain(`${'x'.repeat(2000)}… [line truncated: 5000 characters]`);
    expect(text).toContain('     2\tshort');
  });

  test('Read stops at its output cap and tells the model to page with offset', async () => {
    await writeFile(
      path.join(bench.dir, 'big.txt'),
      lines(1900, (i) => `${i} ${'y'.repeat(150)}`),
    );
    const { text, isError } = await bench.call('Read', { file_path: 'big.txt' });
    expect(isError).toBe(false);
    expect(text.length).toBeLessThan(110_000);
    const m = /showing lines 1-(\d+) of 1900\. Continue with offset=(\d+)/.exec(text);
    expect(m).not.toBeNull();
    expect(Number(m![2])).toBe(Number(m![1]) + 1);
  });

  test('Read is never persisted by the result budget: a 60 000-character file comes back whole', async () => {
    await writeFile(
      path.join(bench.dir, 'mid.txt'),
      lines(600, (i) => `${i} ${'z'.repeat(90)}`),
    );
    const { text } = await bench.call('Read', { file_path: 'mid.txt' });
    expect(text.length).toBeGreaterThan(50_000);
    expect(text).toContain('   600\t600 ');
  });

  test('Read streams a file over 32 MB and returns the asked range with the true line count', async () => {
    const file = path.join(bench.dir, 'huge.log');
    const handle = await open(file, 'w');
    const chunk = lines(10_000, (i) => `entry ${String(i).padStart(5, '0')} ${'-'.repeat(3400)}`);
    for (let k = 0; k < 1; k++) await handle.write(chunk);
    await handle.write('the last line\n');
    await handle.close();
    const { text, isError } = await bench.call('Read', { file_path: 'huge.log', offset: 10_001, limit: 5 });
    expect(isError).toBe(false);
    expect(text).toBe(' 10001\tthe last line');
    const first = await bench.call('Read', { file_path: 'huge.log', offset: 2, limit: 1 });
    expect(first.text).toContain('     2\tentry 00002');
    expect(first.text).toContain('of 10001');
  });

  test('Read shows CRLF files without the CR and drops a BOM', async () => {
    await writeFile(path.join(bench.dir, 'win.txt'), '\uFEFFone\r\ntwo\r\n');
    const { text } = await bench.call('Read', { file_path: 'win.txt' });
    expect(text).toBe('     1\tone\n     2\ttwo');
  });

  test('Read shows unicode text as it is', async () => {
    await writeFile(path.join(bench.dir, 'u.txt'), 'naïve café ☕ 日本語 🎉\n');
    const { text } = await bench.call('Read', { file_path: 'u.txt' });
    expect(text).toBe('     1\tnaïve café ☕ 日本語 🎉');
  });

  test('Read of an empty file says it is empty, and an offset past the end says how long the file is', async () => {
    await writeFile(path.join(bench.dir, 'empty.txt'), '');
    expect((await bench.call('Read', { file_path: 'empty.txt' })).text).toContain('exists but is empty');
    await writeFile(path.join(bench.dir, 'three.txt'), 'a\nb\nc\n');
    const past = await bench.call('Read', { file_path: 'three.txt', offset: 10 });
    expect(past.isError).toBe(false);
    expect(past.text).toContain('has 3 lines; offset 10 is past its end');
  });
});

describe('Read of an unchanged range', () => {
  test('Read of the same unchanged range returns a short stub instead of the content', async () => {
    await writeFile(path.join(bench.dir, 'a.txt'), 'one\ntwo\n');
    await bench.call('Read', { file_path: 'a.txt' });
    const again = await bench.call('Read', { file_path: 'a.txt' });
    expect(again.text).toMatch(/^File unchanged since your last Read/);
    expect(again.text).not.toContain('\tone');
  });

  test('two identical Reads in one parallel batch both return the content; a later Read gets the stub', async () => {
    await writeFile(path.join(bench.dir, 'a.txt'), 'one\ntwo\n');
    const results = await bench.session.run([
      { type: 'tool_use', id: 'p1', name: 'Read', input: { file_path: 'a.txt' } },
      { type: 'tool_use', id: 'p2', name: 'Read', input: { file_path: 'a.txt' } },
    ]);
    expect(results.map((r) => r.content)).toEqual(['     1\tone\n     2\ttwo', '     1\tone\n     2\ttwo']);
    expect((await bench.call('Read', { file_path: 'a.txt' })).text).toMatch(/^File unchanged since your last Read/);
  });

  test('Read of a range inside a whole file already read returns that range, not the stub', async () => {
    await writeFile(path.join(bench.dir, 'a.txt'), 'one\ntwo\nthree\n');
    await bench.call('Read', { file_path: 'a.txt' });
    expect((await bench.call('Read', { file_path: 'a.txt', offset: 2, limit: 1 })).text).toMatch(/^     2\ttwo\n/);
    expect((await bench.call('Read', { file_path: 'a.txt', offset: 2, limit: 1 })).text).toMatch(/^File unchanged/);
  });

  test('Read returns the content again after the file changed or for another range', async () => {
    await writeFile(path.join(bench.dir, 'a.txt'), 'one\ntwo\n');
    await bench.call('Read', { file_path: 'a.txt' });
    expect((await bench.call('Read', { file_path: 'a.txt', offset: 2 })).text).toBe('     2\ttwo');
    await writeFile(path.join(bench.dir, 'a.txt'), 'one\nTWO\n');
    await bench.call('Read', { file_path: 'a.txt' });
    expect((await bench.call('Read', { file_path: 'a.txt', offset: 2 })).text).toBe('     2\tTWO');
  });
});

describe('Read of images, PDFs and notebooks', () => {
  test('Read returns a PNG as an image content block', async () => {
    await writeFile(path.join(bench.dir, 'dot.png'), TINY_PNG);
    const { block } = await bench.call('Read', { file_path: 'dot.png' });
    expect(block.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: TINY_PNG.toString('base64') } },
    ]);
  });

  test('Read takes the image type from the bytes and refuses a file whose bytes are no image', async () => {
    await writeFile(path.join(bench.dir, 'really_png.jpg'), TINY_PNG);
    const { block } = await bench.call('Read', { file_path: 'really_png.jpg' });
    expect((block.content as ContentBlock[])[0]).toMatchObject({ type: 'image', source: { media_type: 'image/png' } });
    await writeFile(path.join(bench.dir, 'fake.png'), 'not an image');
    const bad = await bench.call('Read', { file_path: 'fake.png' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('not a PNG, JPEG, GIF or WebP image');
  });

  test('Read returns a PDF as text by page, honouring pages', async () => {
    await writeFile(path.join(bench.dir, 'doc.pdf'), makePdf(['Hello first page', 'Second page here', 'Third']));
    const all = await bench.call('Read', { file_path: 'doc.pdf' });
    expect(all.text).toContain('--- Page 1 of 3 ---\nHello first page');
    expect(all.text).toContain('--- Page 3 of 3 ---\nThird');
    const two = await bench.call('Read', { file_path: 'doc.pdf', pages: '2' });
    expect(two.text).toBe('--- Page 2 of 3 ---\nSecond page here');
  });

  test('Read caps pages per call and says how to read the rest of a long PDF', async () => {
    await writeFile(
      path.join(bench.dir, 'long.pdf'),
      makePdf(Array.from({ length: 23 }, (_, i) => `Page number ${i + 1}`)),
    );
    const first = await bench.call('Read', { file_path: 'long.pdf' });
    expect(first.text).toContain('Page number 20');
    expect(first.text).not.toContain('Page number 21');
    expect(first.text).toContain('Read more with pages: "21-23"');
    const tooMany = await bench.call('Read', { file_path: 'long.pdf', pages: '1-23' });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toContain('at most 20');
    const past = await bench.call('Read', { file_path: 'long.pdf', pages: '30' });
    expect(past.text).toContain('the PDF has 23 pages');
  });

  test('Read refuses pages for a file that is not a PDF, and a .pdf that is not one', async () => {
    await writeFile(path.join(bench.dir, 'a.txt'), 'x\n');
    expect((await bench.call('Read', { file_path: 'a.txt', pages: '1' })).text).toContain('pages is only for PDFs');
    await writeFile(path.join(bench.dir, 'fake.pdf'), 'hello');
    expect((await bench.call('Read', { file_path: 'fake.pdf' })).text).toContain('it is not a PDF');
  });

  test('Read returns a notebook as cells with their outputs, images as image blocks', async () => {
    const nb = {
      cells: [
        { cell_type: 'markdown', id: 'm1', metadata: {}, source: ['# Title\n', 'Intro'] },
        {
          cell_type: 'code',
          id: 'c1',
          metadata: {},
          execution_count: 1,
          source: 'print(1)',
          outputs: [
            { output_type: 'stream', name: 'stdout', text: ['1\n'] },
            {
              output_type: 'display_data',
              data: { 'image/png': TINY_PNG.toString('base64'), 'text/plain': '<Figure>' },
              metadata: {},
            },
            { output_type: 'error', ename: 'ValueError', evalue: 'bad', traceback: ['\u001b[31mTraceback\u001b[0m'] },
          ],
        },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    };
    await writeFile(path.join(bench.dir, 'n.ipynb'), JSON.stringify(nb, null, 1));
    const { block } = await bench.call('Read', { file_path: 'n.ipynb' });
    const blocks = block.content as ContentBlock[];
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b) => (b as { text: string }).text)
      .join('');
    expect(text).toContain('<cell id="m1" type="markdown" index="0">\n# Title\nIntro\n</cell>');
    expect(text).toContain('<output of="c1">\n1\n\n</output>');
    expect(text).toContain('ValueError: bad\nTraceback');
    expect(blocks.some((b) => b.type === 'image')).toBe(true);
    const again = await bench.call('Read', { file_path: 'n.ipynb' });
    expect(again.text).toContain('File unchanged since your last Read of it (cells 1-2 of');
  });
});

describe('Read refusals', () => {
  test('Read of a directory says it is one and how to list it', async () => {
    await mkdir(path.join(bench.dir, 'sub'));
    const { text, isError } = await bench.call('Read', { file_path: 'sub' });
    expect(isError).toBe(true);
    expect(text).toContain('is a directory, not a file. Use Glob');
  });

  test('Read refuses a binary file, naming the NUL byte', async () => {
    await writeFile(path.join(bench.dir, 'blob.bin'), Buffer.from([1, 2, 0, 4]));
    const { text, isError } = await bench.call('Read', { file_path: 'blob.bin' });
    expect(isError).toBe(true);
    expect(text).toContain('binary file (a NUL byte at offset 2)');
  });

  test.each(['/dev/zero', '/dev/stdin', '/proc/self/fd/0', '/dev/urandom'])(
    'Read refuses the device %s before opening it',
    async (device) => {
      const { text, isError } = await bench.call('Read', { file_path: device });
      expect(isError).toBe(true);
      expect(text).toMatch(/Cannot read .*: it is (a device file|a file descriptor of a running process)/);
    },
  );

  test('Read refuses a FIFO without blocking on it, even when a rule allows the path', async () => {
    const allowed = await makeBench({ permissions: { allow: ['Read(./pipe)'] } });
    try {
      execFileSync('mkfifo', [path.join(allowed.dir, 'pipe')]);
      const { text, isError } = await allowed.call('Read', { file_path: 'pipe' });
      expect(isError).toBe(true);
      expect(text).toContain('it is a FIFO (named pipe), not a regular file');
    } finally {
      await allowed.cleanup();
    }
  });

  test('without an allow rule the permission layer already asks about a FIFO, and nothing is read', async () => {
    execFileSync('mkfifo', [path.join(bench.dir, 'pipe')]);
    const { text, isError } = await bench.call('Read', { file_path: 'pipe' });
    expect(isError).toBe(true);
    expect(text).toContain('FIFO');
  });

  test('Read refuses a socket, and a symlink to a device is judged by its target', async () => {
    // The link is made after the session began: its rule does not follow it to /dev/null (an
    // allow rule's root keeps the path it had), so the target is allowed by its own rule.
    const allowed = await makeBench({
      permissions: { allow: ['Read(./s.sock)', 'Read(./null_link)', 'Read(//dev/null)'] },
    });
    const server = net.createServer();
    try {
      await new Promise<void>((resolve) => server.listen(path.join(allowed.dir, 's.sock'), resolve));
      expect((await allowed.call('Read', { file_path: 's.sock' })).text).toContain('it is a socket');
      await symlink('/dev/null', path.join(allowed.dir, 'null_link'));
      expect((await allowed.call('Read', { file_path: 'null_link' })).text).toContain('a character device');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await allowed.cleanup();
    }
  });

  test('Read of a missing file suggests near names', async () => {
    await writeFile(path.join(bench.dir, 'config.json'), '{}');
    const { text, isError } = await bench.call('Read', { file_path: 'confg.json' });
    expect(isError).toBe(true);
    expect(text).toContain(
      `File does not exist: ${path.join(bench.dir, 'confg.json')}. Did you mean ${path.join(bench.dir, 'config.json')}?`,
    );
    const other = await bench.call('Read', { file_path: 'config.yaml' });
    expect(other.text).toContain('Did you mean');
    const deep = await bench.call('Read', { file_path: 'no/such/dir/x.ts' });
    expect(deep.text).toContain(`The folder ${path.join(bench.dir, 'no')} does not exist either`);
  });
});

describe('Read and Grep when a linked folder is re-pointed during the session', () => {
  test('a deny rule below a linked additional directory still holds on its first target after the link is re-pointed', async () => {
    const outer = await mkdtemp(path.join(tmpdir(), 'toolshed-libs-'));
    const target = path.join(outer, 'libs-target');
    const libs = path.join(outer, 'libs');
    await mkdir(path.join(target, 'secrets'), { recursive: true });
    await mkdir(path.join(outer, 'empty'));
    await writeFile(path.join(target, 'secrets', 'key'), 'SECRET-KEY\n');
    await symlink(target, libs);
    const linked = await makeBench({
      permissions: { additionalDirectories: [libs], deny: [`Read(/${libs}/secrets/**)`] },
    });
    try {
      const key = path.join(target, 'secrets', 'key');
      expect((await linked.call('Read', { file_path: key })).text).toContain('denied by rule');
      // A call re-points the link (git checkout, a build): the old target stays a working directory.
      await rm(libs);
      await symlink(path.join(outer, 'empty'), libs);
      const read = await linked.call('Read', { file_path: key });
      expect(read.isError).toBe(true);
      expect(read.text).toContain(`denied by rule "Read(/${libs}/secrets/**)"`);
      // A search of the old target leaves the denied files out, as before the link moved.
      for (const folder of [target, path.join(target, 'secrets')]) {
        const grep = await linked.call('Grep', { pattern: 'SECRET', path: folder, output_mode: 'content' });
        expect(grep.text).not.toContain('SECRET-KEY');
      }
    } finally {
      await linked.cleanup();
      await rm(outer, { recursive: true, force: true });
    }
  });
});

describe('Read between its permission check and its open', () => {
  test('a link re-pointed after the check (here while the read waits for approval) is not followed: nothing is read', async () => {
    const { createSession, contentToText } = await import('@toolshed/core');
    const { fileTools } = await import('../family.ts');
    const secrets = await mkdtemp(path.join(tmpdir(), 'toolshed-secrets-'));
    await writeFile(path.join(secrets, 'id_rsa'), 'SECRET-KEY\n');
    await mkdir(path.join(bench.dir, 'notes'));
    await writeFile(path.join(bench.dir, 'notes', 'id_rsa'), 'just notes\n');
    const link = path.join(bench.dir, 'd');
    await symlink('notes', link);
    const reasons: string[] = [];
    const session = await createSession({
      cwd: bench.dir,
      families: [fileTools()],
      stateDir: path.join(bench.dir, '.state2'),
      permissions: { ask: ['Read(./d/**)'] },
      // Approved as d/id_rsa -> notes/id_rsa; meanwhile something re-points d at the secrets.
      canUseTool: async (_name, _input, { reason }) => {
        reasons.push(reason ?? '');
        await rm(link);
        await symlink(secrets, link);
        return { behavior: 'allow' };
      },
    });
    try {
      const [read] = await session.run([
        { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'd/id_rsa' } },
      ]);
      const text = contentToText(read!.content);
      expect(reasons).toHaveLength(1);
      expect(text).not.toContain('SECRET-KEY');
      expect(read!.is_error).toBe(true);
      expect(text).toContain(`now leads to "${path.join(await realpath(secrets), 'id_rsa')}"`);
      expect(text).toContain(`"${path.join(bench.dir, 'notes', 'id_rsa')}"`);
    } finally {
      await session.close();
      await rm(secrets, { recursive: true, force: true });
    }
  });
});
