import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, tempDir } from './_test_io.ts';
import { testTools as tools } from './_test_tools.ts';

const use = (id: string, name: string, input: unknown = {}) => ({ type: 'tool_use', id, name, input });

async function transcriptFile(dir: string, turns: unknown): Promise<string> {
  const file = path.join(dir, 'transcript.json');
  await writeFile(file, JSON.stringify(turns));
  return file;
}

describe('toolshed run', () => {
  test('run shares one session across turns: a counter keeps counting', async () => {
    const cwd = await tempDir();
    const file = await transcriptFile(cwd, [[use('a', 'Counter')], [use('b', 'Counter'), use('c', 'Counter')]]);
    const r = await cli(['run', file, '--json', '--cwd', cwd], { tools });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.turns.map((t: { content: string }[]) => t.map((b) => b.content))).toEqual([
      ['count 1'],
      ['count 2', 'count 3'],
    ]);
  });

  test('run carries a context change of turn 1 into turn 2', async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, 'sub'));
    const file = await transcriptFile(cwd, [[use('cd', 'Cd', { path: 'sub' })], [use('pwd', 'Pwd')]]);
    const r = await cli(['run', file, '--json', '--yes', '--cwd', cwd], { tools });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).turns[1][0].content).toBe(path.join(cwd, 'sub'));
  });

  test('run --json prints the turns of tool_result blocks and the metrics', async () => {
    const cwd = await tempDir();
    const file = await transcriptFile(cwd, [
      [use('e1', 'Echo', { text: 'one' }), use('e2', 'Echo', { text: 'two' })],
      [use('b1', 'Boom')],
    ]);
    const r = await cli(['run', file, '--json', '--cwd', cwd], { tools });
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['metrics', 'turns']);
    expect(out.turns).toEqual([
      [
        { type: 'tool_result', tool_use_id: 'e1', content: 'one' },
        { type: 'tool_result', tool_use_id: 'e2', content: 'two' },
      ],
      [expect.objectContaining({ type: 'tool_result', tool_use_id: 'b1', is_error: true })],
    ]);
    expect(out.metrics.total).toMatchObject({ calls: 3, errors: 1 });
    expect(out.metrics.tools.Echo.calls).toBe(2);
  });

  test('run exits 1 when any result is an error, 0 when all are ok', async () => {
    const cwd = await tempDir();
    const bad = await cli(['run', await transcriptFile(cwd, [[use('b', 'Boom')]]), '--cwd', cwd], { tools });
    expect(bad.code).toBe(1);
    const good = await cli(['run', await transcriptFile(cwd, [[use('e', 'Echo', { text: 'x' })]]), '--cwd', cwd], {
      tools,
    });
    expect(good.code).toBe(0);
  });

  test('run shows a multi-line result whole, indented under its call, not just its first line', async () => {
    const cwd = await tempDir();
    const long = 'x'.repeat(150);
    const file = await transcriptFile(cwd, [
      [use('e1', 'Echo', { text: `first\nsecond\n${long}` }), use('e2', 'Echo', { text: 'one line' })],
    ]);
    const r = await cli(['run', file, '--cwd', cwd], { tools });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^ {2}ok {5}Echo {2}e1 +[\d.]+ ms$/);
    expect(lines.slice(2, 5)).toEqual(['      first', '      second', `      ${long}`]);
    expect(lines[5]).toMatch(/^ {2}ok {5}Echo {2}e2 +[\d.]+ ms {2}one line$/);
  });

  test('run prints each turn with its timing and each result with tool name, ok/error and duration', async () => {
    const cwd = await tempDir();
    const file = await transcriptFile(cwd, [[use('e1', 'Echo', { text: 'hello' })], [use('b1', 'Boom')]]);
    const r = await cli(['run', file, '--cwd', cwd], { tools });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Turn 1: 1 call in [\d.]+ ms$/);
    expect(lines[1]).toMatch(/^ {2}ok {5}Echo {2}e1 +[\d.]+ ms {2}hello$/);
    expect(lines[2]).toMatch(/^Turn 2: 1 call in [\d.]+ ms$/);
    expect(lines[3]).toMatch(/^ {2}error {2}Boom {2}b1 +[\d.]+ ms {2}Boom failed: .*the disk is on fire/);
    expect(lines[4]).toMatch(/^2 turns, 2 calls, 1 error, [\d.]+ ms$/);
  });

  test('run reads the transcript from stdin when it is -', async () => {
    const cwd = await tempDir();
    const r = await cli(['run', '-', '--json', '--cwd', cwd], {
      tools,
      stdin: JSON.stringify([[use('e', 'Echo', { text: 'piped' })]]),
    });
    expect(JSON.parse(r.stdout).turns[0][0].content).toBe('piped');
  });

  test('run without --yes and without a TTY denies a writing call', async () => {
    const cwd = await tempDir();
    const file = await transcriptFile(cwd, [[use('w', 'Writer', { file_path: 'out.txt', content: 'x' })]]);
    const r = await cli(['run', file, '--json', '--cwd', cwd], { tools });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).turns[0][0]).toMatchObject({
      is_error: true,
      content: expect.stringContaining('Permission to use Writer'),
    });
  });

  test('run rejects a transcript that is not an array', async () => {
    const cwd = await tempDir();
    const r = await cli(['run', await transcriptFile(cwd, { turns: [] }), '--cwd', cwd], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('must be a JSON array of turns');
    expect(r.stderr).toContain('Usage: toolshed run <file|->');
  });

  test('run rejects a turn that is not an array of tool_use blocks, naming the turn', async () => {
    const cwd = await tempDir();
    const r = await cli(
      ['run', await transcriptFile(cwd, [[use('a', 'Echo', { text: 'x' })], use('b', 'Echo')]), '--cwd', cwd],
      { tools },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('turn 2 (index 1)');
  });

  test('run rejects an id used twice across the transcript, naming both places', async () => {
    const cwd = await tempDir();
    const r = await cli(
      ['run', await transcriptFile(cwd, [[use('t1', 'Counter')], [use('t1', 'Counter')]]), '--cwd', cwd],
      { tools },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"t1"');
    expect(r.stderr).toContain('turn 2 (index 1), block 1 (index 0)');
    expect(r.stderr).toContain('first used at turn 1 (index 0)');
  });

  test('run does not run any turn when a later turn is malformed', async () => {
    const cwd = await tempDir();
    const file = await transcriptFile(cwd, [
      [use('w', 'Writer', { file_path: 'out.txt', content: 'x' })],
      [{ type: 'text', text: 'hi' }],
    ]);
    const r = await cli(['run', file, '--yes', '--cwd', cwd], { tools });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  test('run with a missing file is a usage error naming the file', async () => {
    const cwd = await tempDir();
    const r = await cli(['run', path.join(cwd, 'nope.json'), '--cwd', cwd], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope.json');
    expect(r.stderr).toContain('does not exist');
  });

  test('run with a file that is not JSON names the file, line and column', async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, 't.json');
    await writeFile(file, '[\n  [ {"type": "tool_use",} ]\n]');
    const r = await cli(['run', file, '--cwd', cwd], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('t.json');
    expect(r.stderr).toContain('line 2, column 25');
  });

  test('run of an empty transcript prints nothing to do and exits 0', async () => {
    const cwd = await tempDir();
    const r = await cli(['run', '-', '--json', '--cwd', cwd], { tools, stdin: '[]' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).turns).toEqual([]);
  });
});
