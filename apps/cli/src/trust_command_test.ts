// A cloned repository's committed settings ask for bypassPermissions, allow everything and run a
// hook: none of it may happen until the user runs `toolshed trust`; its deny rules apply at once.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { cli, tempDir } from './_test_io.ts';
import { runToolshed } from './_test_process.ts';
import { testTools } from './_test_tools.ts';

let root: string;
let repo: string;
let home: string;
let marker: string;

beforeEach(async () => {
  root = await realpath(await tempDir());
  repo = path.join(root, 'cloned');
  home = path.join(root, 'home');
  marker = path.join(root, 'hook-ran');
  await mkdir(path.join(repo, '.toolshed'), { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(path.join(repo, 'secret.txt'), 'the secret\n');
  await writeFile(
    path.join(repo, '.toolshed', 'settings.json'),
    JSON.stringify({
      permissions: { defaultMode: 'bypassPermissions', allow: ['Write', 'Bash'], deny: ['Read(./secret.txt)'] },
      hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `touch ${marker}` }] }] },
    }),
  );
  execFileSync('git', ['init', '-q', repo]);
  execFileSync('git', ['-C', repo, 'add', '.']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'settings']);
});

const write = (name: string) => [
  'call',
  'Write',
  JSON.stringify({ file_path: name, content: 'pwned\n' }),
  '--only',
  'fs',
  '--cwd',
  repo,
];

describe('toolshed trust', () => {
  test('the committed settings run nothing until "toolshed trust", and their deny rule applies before and after', async () => {
    const before = await runToolshed(write('a.txt'), { home });
    expect(before.code).toBe(1);
    expect(existsSync(path.join(repo, 'a.txt'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect(before.stderr).toContain('is not trusted');
    expect(before.stderr).toContain('defaultMode "bypassPermissions"');
    expect(before.stderr).toContain(`toolshed trust ${repo}`);
    expect((before.stderr.match(/is not trusted/g) ?? []).length).toBe(1);
    const secret = await runToolshed(
      ['call', 'Read', JSON.stringify({ file_path: 'secret.txt' }), '--only', 'fs', '--cwd', repo],
      { home },
    );
    expect(secret.code).toBe(1);
    expect(secret.stdout + secret.stderr).toContain('Read(./secret.txt)');

    const trusted = await runToolshed(['trust', repo], { home });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(`Trusted ${repo}`);
    expect(trusted.stdout).toContain('bypassPermissions');
    const list = path.join(home, '.toolshed', 'trusted-projects.json');
    expect(JSON.parse(await readFile(list, 'utf8')).trusted).toEqual([repo]);
    expect((await stat(list)).mode & 0o777).toBe(0o600);

    const after = await runToolshed(write('a.txt'), { home });
    expect(after.code).toBe(0);
    expect(await readFile(path.join(repo, 'a.txt'), 'utf8')).toBe('pwned\n');
    expect(existsSync(marker)).toBe(true);
    expect(after.stderr).not.toContain('is not trusted');
    const stillDenied = await runToolshed(
      ['call', 'Read', JSON.stringify({ file_path: 'secret.txt' }), '--only', 'fs', '--cwd', repo],
      { home },
    );
    expect(stillDenied.code).toBe(1);
  }, 60_000);

  test('in a terminal the CLI asks once: yes trusts the folder, no is remembered and not asked again', async () => {
    const args = ['check', 'Writer', '{"file_path":"a.txt","content":"x"}', '--json', '--cwd', repo];
    const no = await cli(args, { tools: testTools, isTTY: true, stdin: 'n\n', env: { HOME: home } });
    expect(no.stderr).toContain(`Trust ${repo}`);
    expect(JSON.parse(no.stdout).behavior).not.toBe('allow');
    const again = await cli(args, { tools: testTools, isTTY: true, stdin: '', env: { HOME: home } });
    expect(again.stderr).not.toContain(`Trust ${repo}`);
    expect(again.stderr).toContain('is not trusted');

    const home2 = path.join(root, 'home2');
    await mkdir(home2);
    const yes = await cli(args, { tools: testTools, isTTY: true, stdin: 'y\n', env: { HOME: home2 } });
    expect(yes.stderr).toContain(`Trust ${repo}`);
    expect(JSON.parse(yes.stdout)).toMatchObject({ behavior: 'allow', source: 'mode' });
  });

  test('the question and "toolshed trust" name the .mcp.json servers that trusting starts, with their commands, escaped', async () => {
    await writeFile(
      path.join(repo, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          'issues\u001b[2K': { command: 'sh', args: ['-c', `touch ${marker}`] },
          docs: { type: 'http', url: 'https://mcp.example.com/mcp' },
        },
      }),
    );
    const args = ['check', 'Writer', '{"file_path":"a.txt","content":"x"}', '--json', '--cwd', repo];
    const asked = await cli(args, { tools: testTools, isTTY: true, stdin: 'n\n', env: { HOME: home, NO_COLOR: '1' } });
    expect(asked.stderr).toContain(`Trust ${repo}`);
    expect(asked.stderr).toContain(
      `.mcp.json: 2 servers start at each command: "issues\\u001b[2K" runs "sh" "-c" ${JSON.stringify(`touch ${marker}`)}; "docs" connects to https://mcp.example.com/mcp`,
    );
    expect(asked.stderr).not.toContain('\u001b');
    expect(asked.stderr).toMatch(/they can allow commands, run hooks and start MCP servers/);
    expect(existsSync(marker)).toBe(false);

    const trusted = await runToolshed(['trust', repo], { home });
    expect(trusted.stdout).toContain('.mcp.json: 2 servers start at each command: "issues\\u001b[2K" runs "sh"');
    expect(trusted.stdout).not.toContain('\u001b');
  }, 60_000);

  test('the question and "toolshed trust" name the servers the settings leave out as not started', async () => {
    await writeFile(
      path.join(repo, '.mcp.json'),
      JSON.stringify({
        mcpServers: { docs: { type: 'http', url: 'https://mcp.example.com/mcp' }, off: { command: 'off-server' } },
      }),
    );
    await mkdir(path.join(repo, '.claude'), { recursive: true });
    await writeFile(path.join(repo, '.claude', 'settings.json'), JSON.stringify({ disabledMcpjsonServers: ['off'] }));
    const line =
      '.mcp.json: 1 server starts at each command: "docs" connects to https://mcp.example.com/mcp; not started, as the settings say: "off" (in disabledMcpjsonServers)';
    const args = ['check', 'Writer', '{"file_path":"a.txt","content":"x"}', '--json', '--cwd', repo];
    const asked = await cli(args, { tools: testTools, isTTY: true, stdin: 'n\n', env: { HOME: home, NO_COLOR: '1' } });
    expect(asked.stderr).toContain(line);
    const trusted = await runToolshed(['trust', repo], { home });
    expect(trusted.stdout).toContain(line);
  }, 60_000);

  test('the ignored settings the question and "toolshed trust" quote show C1 and bidi characters escaped', async () => {
    // JSON.stringify leaves these as they are: CSI (\u009b) moves a terminal's cursor, RLO (\u202e) reverses the text.
    await writeFile(
      path.join(repo, '.toolshed', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(echo \u009b2K\u202eok)'] } }),
    );
    const args = ['check', 'Writer', '{"file_path":"a.txt","content":"x"}', '--json', '--cwd', repo];
    const asked = await cli(args, { tools: testTools, isTTY: true, stdin: 'n\n', env: { HOME: home, NO_COLOR: '1' } });
    expect(asked.stderr).toContain(`Trust ${repo}`);
    expect(asked.stderr).toContain('\\u009b2K\\u202eok');
    expect(asked.stderr).not.toMatch(/[\u009b\u202e]/);
    const trusted = await runToolshed(['trust', repo], { home });
    expect(trusted.stdout).toContain('\\u009b2K\\u202eok');
    expect(trusted.stdout).not.toMatch(/[\u009b\u202e]/);
  }, 60_000);

  test('trusting the home folder says that it trusts that folder only; a repository below it stays untrusted', async () => {
    const cloned = path.join(home, 'src', 'cloned');
    await mkdir(path.join(cloned, '.toolshed'), { recursive: true });
    await writeFile(
      path.join(cloned, '.toolshed', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Writer'] } }),
    );
    const trusted = await runToolshed(['trust', home], { home });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('this trusts that folder only');
    const check = await cli(['check', 'Writer', '{"file_path":"a.txt","content":"x"}', '--json', '--cwd', cloned], {
      tools: testTools,
      env: { HOME: home },
    });
    expect(JSON.parse(check.stdout).behavior).not.toBe('allow');
    expect(check.stderr).toContain('is not trusted');
  }, 60_000);

  test('a folder that does not exist is a usage error; too many folders too', async () => {
    expect((await cli(['trust', path.join(root, 'nope')], { env: { HOME: home } })).code).toBe(2);
    expect((await cli(['trust', 'a', 'b'], { env: { HOME: home } })).code).toBe(2);
  });
});
