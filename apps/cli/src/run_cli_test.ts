import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run_cli.ts';
import { cli, fakeIo, tempDir } from './_test_io.ts';
import { testTools as tools } from './_test_tools.ts';

describe('runCli', () => {
  test('runCli prints the overall help on stdout for --help and help', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const r = await cli(argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Usage: toolshed <command>');
      expect(r.stderr).toBe('');
    }
  });

  test('runCli prints the help of a command for <command> --help', async () => {
    const r = await cli(['run', '--help']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^Usage: toolshed run <file\|->/);
  });

  test("a cloned project's settings keys with escape codes are printed escaped, not sent to the terminal", async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, '.claude'));
    // ESC[1A ESC[2K: up one line and clear it, to hide the line before; OSC 52 would set the clipboard.
    await writeFile(
      path.join(cwd, '.claude', 'settings.json'),
      '{"model\\u001b[1A\\u001b[2K": "x", "hooks": {"Stop\\u001b]52;c;ZWNobyBoaQ==\\u0007": []}}',
    );
    const r = await cli(['tools', '--cwd', cwd], { tools, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/[\u001b\u0007]/);
    expect(r.stderr).toContain('hooks.Stop\\u001b]52;c;ZWNobyBoaQ==\\u0007 is not a hook event');
    // Claude Code ignores a key it does not know, so in a .claude file it is a warning: escaped too.
    await writeFile(path.join(cwd, '.claude', 'settings.json'), '{"model\\u001b[1A\\u001b[2K": "x"}');
    const warned = await cli(['tools', '--cwd', cwd], { tools, env: { NO_COLOR: '1' } });
    expect(warned.code).toBe(0);
    expect(warned.stderr).not.toMatch(/[\u001b\u0007]/);
    expect(warned.stderr).toContain('"model\\u001b[1A\\u001b[2K" is not a setting Toolshed knows');
  });

  test('runCli prints the version', async () => {
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^toolshed \d+\.\d+\.\d+/);
  });

  test('--version prints the real version of the CLI and of each family package', async () => {
    const r = await cli(['--version']);
    const { readFileSync } = await import('node:fs');
    const versionOf = (dir: string) =>
      (
        JSON.parse(readFileSync(new URL(`../../../${dir}/package.json`, import.meta.url), 'utf8')) as {
          version: string;
        }
      ).version;
    expect(r.stdout.split('\n')[0]).toBe(`toolshed ${versionOf('apps/cli')} (@toolshed/cli)`);
    for (const [name, dir] of [
      ['@toolshed/core', 'packages/core'],
      ['@toolshed/tool-fs', 'packages/tool-fs'],
      ['@toolshed/tool-shell', 'packages/tool-shell'],
      ['@toolshed/mcp-bridge', 'packages/mcp-bridge'],
    ] as const) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name} +${versionOf(dir).replace(/\./g, '\\.')}$`, 'm'));
    }
    expect(r.stdout).not.toContain('not installed');
  });

  test('every usage error exits 2 with the message and the right usage on stderr', async () => {
    const cases: [string[], string, string][] = [
      [[], 'No command given.', 'Usage:\n  toolshed demo'],
      [['lint'], 'Unknown command "lint"', 'Usage:\n  toolshed demo'],
      [['call', 'Echo', '{}', '--frobnicate'], 'Unknown flag "--frobnicate"', 'Usage: toolshed call'],
      [['call', 'Echo'], 'missing <json|->', 'Usage: toolshed call'],
      [['check'], 'missing <Tool> <json|->', 'Usage: toolshed check'],
      [['run', 'a.json', 'b.json'], 'unexpected "b.json"', 'Usage: toolshed run'],
      [['tools', '--mode', 'yolo'], 'Unknown permission mode "yolo"', 'Usage: toolshed tools'],
      [['tools', '--only', 'fs,lps'], 'Unknown family "lps"', 'Usage: toolshed tools'],
      [['tools', '--cwd', '/no/such/dir'], '--cwd "/no/such/dir" does not exist', 'Usage: toolshed tools'],
      [['tools', '--settings'], '--settings needs a value', 'Usage: toolshed tools'],
      [['call', 'Echo', '{"text": "a",}'], 'is not valid JSON', 'Usage: toolshed call'],
      [['run', '-'], 'is not valid JSON', 'Usage: toolshed run'],
    ];
    for (const [argv, message, usage] of cases) {
      const r = await cli(argv, { tools, stdin: 'not json' });
      expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain(usage);
      expect(r.stdout).toBe('');
    }
  });

  test('demo replays the bundled session and reports it as JSON with no problems', async () => {
    const r = await cli(['demo', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { problems: string[]; greetingAfter: string; turns: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.greetingAfter).toContain('Hello,');
    expect(report.turns.length).toBeGreaterThan(5);
  });

  test('help <command> and <command> --help print the help of search, mcp and rules', async () => {
    for (const [argv, start] of [
      [['help', 'search'], 'Usage: toolshed search <query>'],
      [['mcp', '--help'], 'Usage: toolshed mcp <serve|list>'],
      [['help', 'rules'], 'Usage: toolshed rules lint'],
      [['rules', '--help'], 'Usage: toolshed rules lint'],
    ] as const) {
      const r = await cli(argv);
      expect({ argv, code: r.code, stderr: r.stderr }).toEqual({ argv, code: 0, stderr: '' });
      expect(r.stdout.startsWith(start)).toBe(true);
    }
  });

  test("an invalid permission rule from the flags exits 2 with core's message", async () => {
    const cwd = await tempDir();
    const r = await cli(['check', 'Echo', '{"text":"x"}', '--deny', 'Echo(unclosed', '--cwd', cwd], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Echo(unclosed');
  });

  test('an unexpected error prints one line and exits 1, without a stack', async () => {
    const { io, stderr } = fakeIo();
    io.stdout = {
      write: () => {
        throw new Error('EIO: the terminal went away');
      },
    };
    const code = await runCli(['--version'], io);
    expect(code).toBe(1);
    expect(stderr()).toBe('toolshed: EIO: the terminal went away\n');
  });

  test('TOOLSHED_DEBUG=1 adds the stack to an unexpected error', async () => {
    const { io, stderr } = fakeIo({ env: { TOOLSHED_DEBUG: '1' } });
    io.stdout = {
      write: () => {
        throw new Error('EIO: the terminal went away');
      },
    };
    expect(await runCli(['--version'], io)).toBe(1);
    expect(stderr()).toMatch(/^toolshed: EIO: the terminal went away\nError: EIO: the terminal went away\n\s+at /);
  });

  test('search ranks the tools of a --corpus file through runCli: exit 0 with a match, 1 without, 2 without a query', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'tools.json');
    await writeFile(
      file,
      JSON.stringify([
        {
          name: 'mcp__slack__send_message',
          description: 'Posts a message to a Slack channel.',
          input_schema: { type: 'object' },
        },
        { name: 'get_weather', description: 'Current weather for a city.', input_schema: { type: 'object' } },
      ]),
    );
    const hit = await cli(['search', 'send', 'slack', 'message', '--corpus', file, '--json']);
    expect(hit.code).toBe(0);
    const out = JSON.parse(hit.stdout) as { query: string; corpus: string; results: { name: string }[] };
    expect(out).toMatchObject({ query: 'send slack message', corpus: file });
    expect(out.results[0]!.name).toBe('mcp__slack__send_message');
    const miss = await cli(['search', 'qqqzzx', '--corpus', file]);
    expect(miss.code).toBe(1);
    expect(miss.stdout).toContain('No tool matches "qqqzzx"');
    const empty = await cli(['search', '--corpus', file]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('missing <query>');
    expect(empty.stderr).toContain('Usage: toolshed search <query>');
  });

  test("search without --corpus ranks the session's tools, with the common flags", async () => {
    const cwd = await tempDir();
    const r = await cli(['search', 'count', 'calls', '--only', 'search', '--cwd', cwd, '--json'], { tools });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { corpus: string; results: { name: string }[] };
    expect(out.corpus).toBe('session');
    expect(out.results[0]!.name).toBe('Counter');
  });
});
