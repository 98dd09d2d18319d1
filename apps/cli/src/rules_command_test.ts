import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatReport, rulesCommand } from './rules_command.ts';
import { cli, fakeIo, tempDir } from './_test_io.ts';
import { testTools as tools } from './_test_tools.ts';

/** A project and a home directory of its own, so the real ~/.toolshed is never read. */
async function project(settings: Record<string, unknown> = {}): Promise<{ cwd: string; home: string }> {
  const root = await realpath(await tempDir());
  const cwd = path.join(root, 'proj');
  const home = path.join(root, 'home');
  await mkdir(path.join(cwd, '.toolshed'), { recursive: true });
  await mkdir(path.join(cwd, '.claude'), { recursive: true });
  await mkdir(path.join(home, '.toolshed'), { recursive: true });
  for (const [file, content] of Object.entries(settings))
    await writeFile(path.join(cwd, file), JSON.stringify(content));
  return { cwd, home };
}

async function lint(args: string[], home: string) {
  const { io, stdout, stderr } = fakeIo({ tools, env: { HOME: home } });
  const code = await rulesCommand(['lint', '--only', 'search', ...args], io);
  return { code, stdout: stdout(), stderr: stderr() };
}

describe('toolshed rules lint', () => {
  test('exits 0 and says so when the rules are fine', async () => {
    const { cwd, home } = await project({
      '.toolshed/settings.json': { permissions: { allow: ['Echo'], deny: ['Writer(./secret.txt)'] } },
    });
    const r = await lint(['--cwd', cwd], home);
    expect(r.stdout).toBe(`No problems found (settings files: ${path.join(cwd, '.toolshed', 'settings.json')}).\n`);
    expect(r.code).toBe(0);
  });

  test('exits 1 and lists each problem with its file', async () => {
    const file = path.join('.toolshed', 'settings.local.json');
    const { cwd, home } = await project({
      [file]: {
        permissions: { allow: ['Ecoh', 'Bash(npm test && rm:*)', 'Writer(./src/a.ts)'], deny: ['Writer(./src/**)'] },
      },
    });
    const r = await lint(['--cwd', cwd, '--allow', 'Echo(*'], home);
    const full = path.join(cwd, file);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `error [unknown_tool] ${full}: Rule "Ecoh" names the tool "Ecoh", which is not in the pool: did you mean "Echo"?`,
    );
    expect(r.stdout).toContain(
      `error [shell_operator] ${full}: Rule "Bash(npm test && rm:*)" contains the shell operator "&&"`,
    );
    expect(r.stdout).toContain(`error [shadowed] ${full}: Allow rule "Writer(./src/a.ts)" never takes effect`);
    expect(r.stdout).toContain('error [malformed] cli: Permission rule "Echo(*" is missing its closing ")"');
    // Bash is not in this pool, but it is Claude Code's: a warning, not an error.
    expect(r.stdout).toContain(
      `warning [unknown_tool] ${full}: Rule "Bash(npm test && rm:*)" is for Claude Code's tool "Bash"`,
    );
    expect(r.stdout).toMatch(/\n\d+ errors, 1 warning \(settings files: .*settings\.local\.json\)\.\n$/);
  });

  test('reports a settings file with a typo, and reads only the sources asked for', async () => {
    const { cwd, home } = await project({
      '.claude/settings.json': { permissions: { defaultMode: 'acceptedits' } },
      '.toolshed/settings.json': { permissions: { allow: ['Echo'] } },
    });
    const without = await lint(['--cwd', cwd, '--setting-sources', 'user,project,local'], home);
    expect(without.code).toBe(0);
    // By default Claude Code's files are read too.
    expect((await lint(['--cwd', cwd], home)).code).toBe(1);
    const r = await lint(['--cwd', cwd, '--setting-sources', 'claude'], home);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `error [settings] Settings file "${path.join(cwd, '.claude', 'settings.json')}": permissions.defaultMode is "acceptedits", not a permission mode. Did you mean "acceptEdits"?`,
    );
  });

  test('--json prints the report', async () => {
    const { cwd, home } = await project({ '.toolshed/settings.json': { permissions: { allow: ['Bash(npm test*)'] } } });
    const r = await lint(['--cwd', cwd, '--json'], home);
    const report = JSON.parse(r.stdout);
    // No Bash in this pool, but it is Claude Code's tool (a warning), and the prefix is loose (a warning).
    expect(report.findings.map((f: { kind: string; severity: string }) => [f.kind, f.severity])).toEqual([
      ['unknown_tool', 'warning'],
      ['loose_prefix', 'warning'],
    ]);
    expect(r.code).toBe(0);
    expect(report.warnings).toEqual([]);
    expect(report.files.map((f: { source: string }) => f.source)).toEqual([
      'claude',
      'user',
      'claude',
      'claude',
      'project',
      'local',
    ]);
  });

  test('rules for the servers of .mcp.json (or --mcp-config) are fine; a bad --mcp-config is a clear error', async () => {
    const { cwd, home } = await project({
      '.toolshed/settings.json': { permissions: { allow: ['mcp__github__create_issue', 'mcp__github'] } },
    });
    expect((await lint(['--cwd', cwd], home)).code).toBe(1);
    await writeFile(
      path.join(cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { github: { command: 'never-started' } } }),
    );
    const r = await lint(['--cwd', cwd], home);
    expect(r.stdout).toContain('No problems found');
    expect(r.code).toBe(0);
    const other = path.join(cwd, 'other.json');
    await writeFile(other, '{"mcpServers": {,}}');
    await expect(lint(['--cwd', cwd, '--mcp-config', other], home)).rejects.toThrow(
      `The --mcp-config file "${other}" is not valid JSON`,
    );
    await writeFile(other, '{"servers": {}}');
    await expect(lint(['--cwd', cwd, '--mcp-config', other], home)).rejects.toThrow(
      `The --mcp-config file "${other}" has no "mcpServers" key (it has "servers")`,
    );
  });

  test('reads the user settings from the home directory', async () => {
    const { cwd, home } = await project();
    await writeFile(
      path.join(home, '.toolshed', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Read(/src/**)'] } }),
    );
    const r = await lint(['--cwd', cwd], home);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[outside_working_directories]');
    expect(r.stdout).toContain('A leading "/" is relative to the settings file\'s folder');
  });

  test.each([
    [[], '"toolshed rules" needs a subcommand: the one subcommand is "lint".'],
    [['check'], '"toolshed rules" has no subcommand "check"'],
    [
      ['lint', '--setting-sources', 'projet'],
      'Setting source "projet" is not one of user, project, local, claude: did you mean "project"? (in --setting-sources).',
    ],
    [['lint', '--frobnicate'], "Unknown option '--frobnicate'"],
  ])('rejects %j with a usage error', async (args, message) => {
    const { io } = fakeIo({ tools });
    await expect(rulesCommand(args, io)).rejects.toThrow(message);
  });

  test('prints its usage with --help', async () => {
    const { io, stdout } = fakeIo({ tools });
    expect(await rulesCommand(['--help'], io)).toBe(0);
    expect(stdout()).toContain('Usage: toolshed rules lint');
  });

  test('formatReport counts errors and warnings', () => {
    const text = formatReport({
      files: [{ source: 'project', path: '/p/.toolshed/settings.json', exists: true }],
      findings: [
        { kind: 'loose_prefix', severity: 'warning', rule: 'Bash(a*)', behavior: 'allow', source: 'cli', message: 'm' },
      ],
      problems: ['p'],
      warnings: [],
    });
    expect(text).toBe(
      'error [settings] p\nwarning [loose_prefix] cli: m\n1 error, 1 warning (settings files: /p/.toolshed/settings.json).\n',
    );
  });
});

describe('toolshed rules lint through runCli', () => {
  test('exits 0 for good rules and 1 for a rule that names no tool, with flags before and after the command', async () => {
    const { cwd, home } = await project({
      '.toolshed/settings.json': { permissions: { allow: ['Echo'], deny: ['Writer(./secret.txt)'] } },
    });
    const good = await cli(['--cwd', cwd, 'rules', 'lint', '--only', 'search'], { tools, env: { HOME: home } });
    expect(good).toMatchObject({ code: 0, stderr: '' });
    expect(good.stdout).toContain('No problems found');
    const bad = await cli(['rules', 'lint', '--only', 'search', '--cwd', cwd, '--allow', 'Ecko', '--json'], {
      tools,
      env: { HOME: home },
    });
    expect(bad.code).toBe(1);
    const report = JSON.parse(bad.stdout) as { findings: { severity: string; rule: string; source: string }[] };
    expect(report.findings).toContainEqual(expect.objectContaining({ severity: 'error', rule: 'Ecko', source: 'cli' }));
  });

  test('exits 2 for an unknown flag of rules lint, with the rules usage', async () => {
    const r = await cli(['rules', 'lint', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--yes'");
    expect(r.stderr).toContain('Usage: toolshed rules lint');
  });
});
