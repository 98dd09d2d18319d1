import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { contentToText, type SessionEvent } from '@toolshed/core';
import { fileTools } from './mod.ts';
import { makeBench } from './_test_session.ts';

describe('the fs family', () => {
  test('passes the conformance check, with sample inputs for every tool', async () => {
    const family = fileTools();
    expect(family.name).toBe('fs');
    expect(
      await checkFamily(family, {
        sampleInputs: {
          NotebookEdit: [{ notebook_path: 'a.ipynb', cell_id: 'x', new_source: '', edit_mode: 'delete' }],
          Grep: [{ pattern: 'x', output_mode: 'content', '-C': 2, '-i': true, multiline: true, head_limit: 0 }],
        },
      }),
    ).toEqual([]);
    expect(await checkFamily(fileTools({ searchEngine: 'js' }))).toEqual([]);
  });

  test('has the six tools of Claude Code with its flags: reads are read-only and concurrency-safe, writes are neither', async () => {
    const tools = await fileTools().loadTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['Edit', 'Glob', 'Grep', 'NotebookEdit', 'Read', 'Write']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const inputs: Record<string, unknown> = {
      Read: { file_path: 'a' },
      Glob: { pattern: '*' },
      Grep: { pattern: 'x' },
      Edit: { file_path: 'a', old_string: 'x', new_string: 'y' },
      Write: { file_path: 'a', content: '' },
      NotebookEdit: { notebook_path: 'a.ipynb', new_source: '' },
    };
    for (const [name, input] of Object.entries(inputs)) {
      const tool = byName[name]!;
      const parsed = tool.inputSchema.parse(input);
      const reads = ['Read', 'Glob', 'Grep'].includes(name);
      expect([name, tool.isReadOnly(parsed), tool.isConcurrencySafe(parsed)]).toEqual([name, reads, reads]);
      expect(tool.searchHint).toBeTruthy();
      // Path rules (Read(...), Edit(...)) are decided by core's path guard from the paths a tool declares.
      expect((await tool.resources(parsed, { cwd: '/repo' } as never)).length).toBe(1);
    }
    expect(byName.Read!.maxResultSizeChars).toBe(Infinity);
    expect(
      byName.NotebookEdit!.isDestructive(
        byName.NotebookEdit!.inputSchema.parse({ notebook_path: 'a.ipynb', new_source: '', edit_mode: 'delete' }),
      ),
    ).toBe(true);
  });

  test("the request payload keeps Claude Code's field names", async () => {
    const bench = await makeBench();
    try {
      const defs = bench.session.toolsFor('anthropic');
      const grep = defs.find((d) => d.name === 'Grep')!;
      expect(Object.keys((grep.input_schema as { properties: object }).properties)).toEqual([
        'pattern',
        'path',
        'glob',
        'type',
        'output_mode',
        '-A',
        '-B',
        '-C',
        '-n',
        '-i',
        'multiline',
        'head_limit',
        'offset',
      ]);
      const edit = defs.find((d) => d.name === 'Edit')!;
      expect((edit.input_schema as { required: string[] }).required).toEqual(['file_path', 'old_string', 'new_string']);
    } finally {
      await bench.cleanup();
    }
  });

  test('write tools declare the path they write, reads the path they read, resolved against the cwd', async () => {
    const tools = await fileTools().loadTools();
    const ctx = { cwd: '/repo' } as Parameters<(typeof tools)[number]['resources']>[1];
    const edit = tools.find((t) => t.name === 'Edit')!;
    expect(
      await edit.resources(edit.inputSchema.parse({ file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }), ctx),
    ).toEqual([{ path: '/repo/src/a.ts', access: 'write' }]);
    const grep = tools.find((t) => t.name === 'Grep')!;
    expect(await grep.resources(grep.inputSchema.parse({ pattern: 'x' }), ctx)).toEqual([
      { path: '/repo', access: 'read' },
    ]);
  });
});

describe('the fs family in a session', () => {
  test('a two-turn transcript, Read then Edit, runs through one session', async () => {
    const bench = await makeBench();
    try {
      await writeFile(path.join(bench.dir, 'greet.ts'), 'export const greeting = "hello";\n');
      const turn1 = await bench.session.run([
        { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'greet.ts' } },
      ]);
      expect(contentToText(turn1[0]!.content)).toBe('     1\texport const greeting = "hello";');
      const turn2 = await bench.session.run([
        {
          type: 'tool_use',
          id: 'e1',
          name: 'Edit',
          input: { file_path: 'greet.ts', old_string: '"hello"', new_string: '"hi"' },
        },
      ]);
      expect(turn2[0]!.is_error).toBeUndefined();
      expect(await readFile(path.join(bench.dir, 'greet.ts'), 'utf8')).toBe('export const greeting = "hi";\n');
    } finally {
      await bench.cleanup();
    }
  });

  test('Reads, Globs and Greps of one turn form one parallel batch; an Edit runs alone after them', async () => {
    const bench = await makeBench();
    try {
      await writeFile(path.join(bench.dir, 'a.txt'), 'alpha\n');
      await writeFile(path.join(bench.dir, 'b.txt'), 'beta\n');
      const events: SessionEvent[] = [];
      for await (const e of bench.session.stream([
        { type: 'tool_use', id: '1', name: 'Read', input: { file_path: 'a.txt' } },
        { type: 'tool_use', id: '2', name: 'Read', input: { file_path: 'b.txt' } },
        { type: 'tool_use', id: '3', name: 'Grep', input: { pattern: 'alpha' } },
        {
          type: 'tool_use',
          id: '4',
          name: 'Edit',
          input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' },
        },
      ]))
        events.push(e);
      const order = events
        .filter((e) => e.type === 'tool_start' || e.type === 'result')
        .map((e) => `${e.type}:${(e as { toolUseId: string }).toolUseId}`);
      // The three safe calls all start before any of them finishes; the Edit starts only after all three results.
      expect(order.slice(0, 3).sort()).toEqual(['tool_start:1', 'tool_start:2', 'tool_start:3']);
      expect(order.indexOf('tool_start:4')).toBeGreaterThan(
        Math.max(order.indexOf('result:1'), order.indexOf('result:2'), order.indexOf('result:3')),
      );
      expect(await readFile(path.join(bench.dir, 'a.txt'), 'utf8')).toBe('ALPHA\n');
    } finally {
      await bench.cleanup();
    }
  });
});

describe('permission rules on paths', () => {
  test('a deny rule Edit(./secret/**) blocks edits below that folder, also through a symlink, and nothing else', async () => {
    const bench = await makeBench({
      permissions: { mode: 'acceptEdits', deny: ['Edit(./secret/**)', 'Write(./secret/**)'] },
    });
    try {
      await mkdir(path.join(bench.dir, 'secret'));
      await writeFile(path.join(bench.dir, 'secret', 'key.txt'), 'k1\n');
      await writeFile(path.join(bench.dir, 'open.txt'), 'o1\n');
      await symlink(path.join(bench.dir, 'secret', 'key.txt'), path.join(bench.dir, 'innocent.txt'));
      await bench.call('Read', { file_path: 'secret/key.txt' });
      await bench.call('Read', { file_path: 'open.txt' });
      const denied = await bench.call('Edit', { file_path: 'secret/key.txt', old_string: 'k1', new_string: 'k2' });
      expect(denied.isError).toBe(true);
      expect(denied.text).toContain('Edit(./secret/**)');
      const viaLink = await bench.call('Edit', { file_path: 'innocent.txt', old_string: 'k1', new_string: 'k2' });
      expect(viaLink.isError).toBe(true);
      expect(await readFile(path.join(bench.dir, 'secret', 'key.txt'), 'utf8')).toBe('k1\n');
      expect((await bench.call('Write', { file_path: 'secret/new.txt', content: 'x' })).isError).toBe(true);
      expect((await bench.call('Edit', { file_path: 'open.txt', old_string: 'o1', new_string: 'o2' })).isError).toBe(
        false,
      );
    } finally {
      await bench.cleanup();
    }
  });

  test('a specifier without a slash matches at any depth, gitignore-style, and // is absolute', async () => {
    const bench = await makeBench({ permissions: { deny: ['Read(.env)', 'Read(//etc/**)'] } });
    try {
      await mkdir(path.join(bench.dir, 'app'));
      await writeFile(path.join(bench.dir, 'app', '.env'), 'SECRET=1\n');
      await writeFile(path.join(bench.dir, 'app', 'env.ts'), 'x\n');
      expect((await bench.call('Read', { file_path: 'app/.env' })).text).toContain('Read(.env)');
      expect((await bench.call('Read', { file_path: 'app/env.ts' })).isError).toBe(false);
      expect((await bench.call('Read', { file_path: '/etc/hostname' })).text).toContain('Read(//etc/**)');
    } finally {
      await bench.cleanup();
    }
  });

  test('an allow rule Edit(./src/**) lets edits there run in default mode, while others still need approval', async () => {
    const bench = await makeBench({ permissions: { mode: 'default', allow: ['Edit(./src/**)'] } });
    try {
      await mkdir(path.join(bench.dir, 'src'));
      await writeFile(path.join(bench.dir, 'src', 'a.ts'), 'a\n');
      await writeFile(path.join(bench.dir, 'b.ts'), 'b\n');
      await bench.call('Read', { file_path: 'src/a.ts' });
      await bench.call('Read', { file_path: 'b.ts' });
      expect((await bench.call('Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'A' })).isError).toBe(
        false,
      );
      const asked = await bench.call('Edit', { file_path: 'b.ts', old_string: 'b', new_string: 'B' });
      expect(asked.isError).toBe(true);
      expect(asked.text).toMatch(/approval|denied|not granted/i);
    } finally {
      await bench.cleanup();
    }
  });

  test('the rule a denial suggests for an absolute path is one that allows that edit when added', async () => {
    const asking = await makeBench({ permissions: { mode: 'default' } });
    try {
      const target = path.join(asking.dir, 'a.txt');
      await writeFile(target, 'a\n');
      await asking.call('Read', { file_path: target });
      const denied = await asking.call('Edit', { file_path: target, old_string: 'a', new_string: 'A' });
      expect(denied.isError).toBe(true);
      const rule = /add "(Edit\([^"]+\))" to permissions\.allow/.exec(denied.text)?.[1];
      expect(rule).toBe(`Edit(/${target})`);
      const allowed = await makeBench({
        permissions: { mode: 'default', allow: [rule!], additionalDirectories: [asking.dir] },
      });
      try {
        await allowed.call('Read', { file_path: target });
        expect(await allowed.call('Edit', { file_path: target, old_string: 'a', new_string: 'A' })).toMatchObject({
          isError: false,
        });
        expect(await readFile(target, 'utf8')).toBe('A\n');
      } finally {
        await allowed.cleanup();
      }
    } finally {
      await asking.cleanup();
    }
  });
});
