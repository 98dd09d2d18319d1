import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run_cli.ts';
import { cli, fakeIo, tempDir } from './_test_io.ts';
import { testTools } from './_test_tools.ts';

const tools = testTools;

describe('toolshed call', () => {
  test('call prints the result text and exits 0 when the tool succeeds', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Echo', '{"text":"hello"}', '--cwd', cwd, '--only', 'fs'], { tools });
    expect(r).toMatchObject({ code: 0, stdout: 'hello\n' });
    expect(r.stderr).not.toContain('hello');
  });

  test('call --json prints the tool_result block', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Echo', '{"text":"hi"}', '--json', '--cwd', cwd], { tools });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ type: 'tool_result', tool_use_id: 'toolu_cli_call', content: 'hi' });
  });

  test('call exits 1 and prints the error on stderr when the tool throws', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Boom', '{}', '--cwd', cwd], { tools });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the disk is on fire');
  });

  test('call --json of a failing tool prints the block with is_error and exits 1', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Boom', '{}', '--json', '--cwd', cwd], { tools });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'tool_result', is_error: true });
  });

  test('call of an unknown tool is a tool error naming the closest tool', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Ecko', '{"text":"x"}', '--cwd', cwd], { tools });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No such tool available: Ecko');
    expect(r.stderr).toContain('Echo');
  });

  test('call with an input that fails the schema is a tool error naming the field', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Echo', '{"txt":"x"}', '--cwd', cwd], { tools });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/text/);
  });

  test('call reads the input from stdin when it is -', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Echo', '-', '--cwd', cwd], { tools, stdin: '{"text": "from stdin"}\n' });
    expect(r).toMatchObject({ code: 0, stdout: 'from stdin\n' });
  });

  test('call denies a writing tool without a TTY and without --yes, and writes nothing', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--cwd', cwd], { tools });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Permission to use Writer');
    expect(r.stderr).toContain('"Writer"'); // the rule that would allow it
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
  });

  test('call --yes answers the permission prompt with allow', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"data"}', '--yes', '--cwd', cwd], {
      tools,
    });
    expect(r.code).toBe(0);
    expect(await readFile(path.join(cwd, 'out.txt'), 'utf8')).toBe('data');
  });

  test('call --yes does not override a deny rule', async () => {
    const cwd = await tempDir();
    const r = await cli(
      ['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--yes', '--deny', 'Writer(out*)', '--cwd', cwd],
      { tools },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('denied by rule "Writer(out*)"');
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
  });

  test('call in a TTY asks on stderr and runs the tool when the answer is y', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"yes"}', '--cwd', cwd], {
      tools,
      isTTY: true,
      stdin: 'y\n',
    });
    expect(r.stderr).toContain('Writer out.txt needs approval');
    expect(r.stderr).toContain('[y] allow once');
    expect(r.code).toBe(0);
    expect(await readFile(path.join(cwd, 'out.txt'), 'utf8')).toBe('yes');
  });

  test('call in a TTY does not run the tool when the answer is no or stdin ends', async () => {
    const cwd = await tempDir();
    const no = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--cwd', cwd], {
      tools,
      isTTY: true,
      stdin: 'n\n',
    });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('the user declined');
    const eof = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--cwd', cwd], {
      tools,
      isTTY: true,
      stdin: '',
    });
    expect(eof.code).toBe(1);
    expect(eof.stderr).toContain('stdin ended');
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
  });

  test('call closes the session at the end, running the cleanups tools registered', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Closer', '{}', '--cwd', cwd], { tools });
    expect(r.code).toBe(0);
    expect(await readFile(path.join(cwd, 'closed.txt'), 'utf8')).toBe('closed');
  });

  test('call with input that is not JSON is a usage error naming the argument, line and column', async () => {
    const r = await cli(['call', 'Echo', '{"text": }'], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('argument 2 of "toolshed call"');
    expect(r.stderr).toContain('line 1, column 10');
    expect(r.stderr).toContain('Usage: toolshed call <Tool> <json|->');
  });

  test('call with bad JSON on stdin says the input came from stdin', async () => {
    const r = await cli(['call', 'Echo', '-'], { tools, stdin: '{\n"text" "x"}' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('read from stdin');
    expect(r.stderr).toContain('line 2, column 8');
  });

  test('call with a JSON input that is not an object is a usage error', async () => {
    const r = await cli(['call', 'Echo', '["hi"]'], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a list; a tool input is a JSON object');
  });

  test('call with an empty stdin is a usage error', async () => {
    const r = await cli(['call', 'Echo', '-'], { tools, stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is empty');
  });
});

describe('toolshed call, interrupted', () => {
  test('call with an aborted signal does not run the tool and reports it cancelled', async () => {
    const cwd = await tempDir();
    const { io, stderr } = fakeIo({ tools });
    io.signal = AbortSignal.abort();
    const code = await runCli(['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--yes', '--cwd', cwd], io);
    expect(code).toBe(1);
    expect(stderr()).toContain('cancelled');
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
  });
});
