// The CLI as a person at a shell meets it: the built binary (`pnpm build` first, as `pnpm test`
// does) in a temporary project with a temporary HOME, stdout and stderr piped. Each test is one
// bullet of "the CLI feels finished": the tools table, the versions, typos, whole results in
// `run`, the suggested rules of `check`, and plain output where there is no terminal.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from './_test_io.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/toolshed.js');
const ESCAPE = '\u001b[';

let cwd: string;
let home: string;

beforeAll(async () => {
  const root = await realpath(await tempDir());
  cwd = path.join(root, 'proj');
  home = path.join(root, 'home');
  await mkdir(path.join(cwd, 'src'), { recursive: true });
  await mkdir(home);
  await writeFile(path.join(cwd, 'src', 'three.txt'), 'one\ntwo\nthree\n');
});

/** Runs the built `toolshed ARGS` in the project with the temporary HOME, to the end. */
function toolshed(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TOOLSHED_DEBUG: '', TERM: 'xterm' };
  delete env['NO_COLOR'];
  delete env['BRAVE_API_KEY'];
  delete env['SEARXNG_URL'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const bash = (command: string) => JSON.stringify({ command });

describe('toolshed, piped, as a user runs it', () => {
  test('tools: aligned columns, yes/no for a plain input, no ToolSearch when nothing is deferred, the WebSearch notice once', async () => {
    const r = await toolshed(['tools', '--only', 'fs,shell,search,web']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const header = lines[0]!;
    expect(header).toMatch(/^NAME +FAMILY +READ-ONLY +CONCURRENCY-SAFE +DEFERRED +DESCRIPTION$/);
    const rows = lines.slice(1, lines.indexOf(''));
    for (const column of ['FAMILY', 'READ-ONLY', 'CONCURRENCY-SAFE', 'DEFERRED', 'DESCRIPTION']) {
      const at = header.indexOf(column);
      // Every row has a value starting right under the column's title, after a blank.
      for (const row of rows) expect(`${row[at - 1]}${row[at]}`, `${column} in "${row}"`).toMatch(/^ \S$/);
    }
    expect(rows.find((l) => l.startsWith('Read '))).toMatch(/^Read +fs +yes +yes +no /);
    expect(rows.find((l) => l.startsWith('Bash '))).toMatch(/^Bash +shell +no +no +no /);
    expect(r.stdout).not.toContain('varies');
    expect(r.stdout).not.toMatch(/^ToolSearch /m);
    expect((r.stdout + r.stderr).split('WebSearch is disabled').length - 1).toBe(1);
    expect(r.stdout + r.stderr).not.toContain(ESCAPE);
    const check = await toolshed(['check', 'Read', '{"file_path":"src/three.txt"}', '--only', 'fs,web']);
    expect(check.stdout + check.stderr).not.toContain('WebSearch is disabled');
  });

  test('--version: the real version of the CLI and of each package', async () => {
    const r = await toolshed(['--version']);
    expect(r.code).toBe(0);
    const version = (dir: string) =>
      (
        JSON.parse(readFileSync(new URL(`../../../${dir}/package.json`, import.meta.url), 'utf8')) as {
          version: string;
        }
      ).version;
    expect(r.stdout.split('\n')[0]).toBe(`toolshed ${version('apps/cli')} (@toolshed/cli)`);
    for (const dir of [
      'core',
      'tool-fs',
      'tool-shell',
      'tool-web',
      'tool-lsp',
      'tool-agent',
      'toolsearch',
      'mcp-bridge',
    ])
      expect(r.stdout).toMatch(
        new RegExp(`^  @toolshed/${dir} +${version(`packages/${dir}`).replace(/\./g, '\\.')}$`, 'm'),
      );
  });

  test('typos get "did you mean": a tool name, a rule in the wrong case, a backslash, an MCP config without servers', async () => {
    const raed = await toolshed(['check', 'Raed', '{"file_path":"src/three.txt"}', '--only', 'fs']);
    expect(raed.stdout).toContain('No such tool available: Raed. Did you mean "Read"?');
    const flags = await toolshed([
      'check',
      'Read',
      '{"file_path":"src/three.txt"}',
      '--only',
      'fs,shell',
      '--allow',
      'bash(ls:*)',
      '--allow',
      'Edit(src\\**)',
    ]);
    expect(flags.code).toBe(0);
    expect(flags.stdout).toMatch(/^allow: /);
    expect(flags.stderr).toContain('toolshed: warn: --allow "bash(ls:*)"');
    expect(flags.stderr).toContain('write "Bash(ls:*)"');
    expect(flags.stderr).toContain('so write "Edit(src/**)"');
    await writeFile(path.join(cwd, 'servers.json'), '{"servers": {}}');
    await writeFile(path.join(cwd, 'broken.json'), '{"mcpServers": {},}');
    for (const command of [['tools'], ['rules', 'lint']]) {
      const none = await toolshed([...command, '--mcp-config', 'servers.json']);
      expect(none.code, command.join(' ')).toBe(2);
      expect(none.stderr).toContain('has no "mcpServers" key');
      const broken = await toolshed([...command, '--mcp-config', 'broken.json']);
      expect(broken.code, command.join(' ')).toBe(2);
      expect(broken.stderr).toMatch(/"[^"]*broken\.json" is not valid JSON: .* line 1, column \d+/);
    }
  }, 60_000);

  test('run shows each result whole, indented under its call', async () => {
    const transcript = path.join(cwd, 'transcript.json');
    await writeFile(
      transcript,
      JSON.stringify([
        [
          { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'src/three.txt' } },
          { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'echo first; echo second' } },
        ],
      ]),
    );
    const r = await toolshed(['run', transcript, '--yes', '--only', 'fs,shell']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}ok +Read +r1 +[\d.]+ ms$/m);
    for (const line of ['one', 'two', 'three']) expect(r.stdout).toMatch(new RegExp(`^ {6,}\\d+\\t${line}$`, 'm'));
    expect(r.stdout).toMatch(/^ {6}first\n {6}second$/m);
    expect(r.stdout).not.toContain(ESCAPE);
  });

  test("check's suggestions allow the call they were made for, and not a sibling with another risky part", async () => {
    const decide = async (command: string, allow: string[] = []) =>
      JSON.parse(
        (
          await toolshed([
            'check',
            'Bash',
            bash(command),
            '--json',
            '--only',
            'shell',
            ...allow.flatMap((a) => ['--allow', a]),
          ])
        ).stdout,
      ) as { behavior: string; suggestions: string[] };
    for (const [command, expected, sibling] of [
      ['npm run build && npm test', ['Bash(npm run build:*)', 'Bash(npm test:*)'], 'npm run build && npm publish'],
      ['cd src && npm test', ['Bash(npm test:*)'], 'cd src && npm publish'],
      ['FOO=1 npm test', ['Bash(FOO=1 npm test:*)'], 'FOO=1 npm publish'],
      ['npm test && rm -rf build', ['Bash(npm test:*)', 'Bash(rm -rf build)'], 'npm test && rm -rf src'],
    ] as const) {
      const before = await decide(command);
      expect(before, command).toMatchObject({ behavior: 'ask', suggestions: expected });
      expect((await decide(command, before.suggestions)).behavior, command).toBe('allow');
      expect((await decide(sibling, before.suggestions)).behavior, sibling).toBe('ask');
    }
    // A destructive command outside the working directories: no rule at all, never Edit(//).
    const outside = await decide('npm test && rm -rf /');
    expect(outside).toMatchObject({ behavior: 'ask', suggestions: [] });
  }, 120_000);
});
