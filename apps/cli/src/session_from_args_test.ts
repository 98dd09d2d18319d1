import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildTool, trustProject } from '@toolshed/core';
import type { CommonArgs } from './args.ts';
import { FAMILY_NAMES } from './families.ts';
import { settingsOptions, withSession } from './session_from_args.ts';
import { cli, fakeIo, tempDir } from './_test_io.ts';
import { closerTool, counterTool, testTools as tools, writerTool } from './_test_tools.ts';
import { UsageError } from './usage_error.ts';

function argsFor(cwd: string, extra: Partial<CommonArgs> = {}): CommonArgs {
  return {
    cwd,
    families: [...FAMILY_NAMES],
    mode: undefined,
    allow: [],
    deny: [],
    ask: [],
    settingSources: [],
    settings: [],
    mcpConfig: undefined,
    yes: false,
    json: false,
    ...extra,
  };
}

async function settingsFile(dir: string, content: unknown, name = 'settings.json'): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** A project with `.toolshed/settings.json` and a home of its own with `~/.toolshed/settings.json`. */
async function projectAndHome(
  project: unknown,
  user: unknown,
): Promise<{ cwd: string; home: string; projectFile: string; userFile: string }> {
  const root = await realpath(await tempDir());
  const cwd = path.join(root, 'proj');
  const home = path.join(root, 'home');
  await mkdir(path.join(cwd, '.toolshed'), { recursive: true });
  await mkdir(path.join(home, '.toolshed'), { recursive: true });
  const projectFile = await settingsFile(path.join(cwd, '.toolshed'), project);
  const userFile = await settingsFile(path.join(home, '.toolshed'), user);
  return { cwd, home, projectFile, userFile };
}

const check = (args: string[], home: string) => cli(['check', ...args, '--json'], { tools, env: { HOME: home } });

describe('settingsOptions', () => {
  test('settingsOptions passes the sources, the --settings files as absolute paths, and the flag rules as source cli', () => {
    const options = settingsOptions(
      argsFor('/p', {
        settingSources: ['user', 'project'],
        settings: ['a.json', '/abs/b.json'],
        allow: ['Read'],
        deny: ['Bash'],
        mode: 'plan',
      }),
      { env: { HOME: '/home/u' } },
    );
    expect(options).toEqual({
      settingsSources: ['user', 'project'],
      settingsFiles: [path.resolve('a.json'), '/abs/b.json'],
      homeDir: '/home/u',
      permissions: { allow: ['Read'], deny: ['Bash'], ask: [], mode: 'plan' },
      permissionsSource: 'cli',
    });
  });

  test('settingsOptions leaves the mode to the settings files when --mode is absent, and uses the real home without HOME', () => {
    const options = settingsOptions(argsFor('/p'), {});
    expect(options.permissions).not.toHaveProperty('mode');
    expect(options.homeDir).toBe(homedir());
  });
});

describe('withSession', () => {
  test('withSession closes the session even when the command throws', async () => {
    const cwd = await tempDir();
    const { io } = fakeIo({ tools: [closerTool] });
    const failing = withSession(argsFor(cwd), io, {
      run: async (session) => {
        await session.run([{ type: 'tool_use', id: 'c', name: 'Closer', input: {} }]);
        throw new Error('the command broke');
      },
    });
    await expect(failing).rejects.toThrow('the command broke');
    expect(await readFile(path.join(cwd, 'closed.txt'), 'utf8')).toBe('closed');
  });

  test('withSession turns an invalid --allow rule into a usage error', async () => {
    const cwd = await tempDir();
    const { io } = fakeIo();
    const error = (await withSession(argsFor(cwd, { allow: ['Bash(npm test'] }), io, { run: async () => 0 }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('Bash(npm test');
  });

  test('withSession prints the session notices on stderr', async () => {
    const cwd = await tempDir();
    const breaksContext = buildTool({
      name: 'BreakContext',
      description: 'Returns a context change that fails.',
      inputSchema: counterTool.inputSchema,
      isReadOnly: () => true,
      async call() {
        return {
          data: 'ok',
          contextModifier: () => {
            throw new Error('no such directory');
          },
        };
      },
    });
    const { io, stderr } = fakeIo({ tools: [breaksContext] });
    await withSession(argsFor(cwd), io, {
      run: (session) => session.run([{ type: 'tool_use', id: 'b', name: 'BreakContext', input: {} }]),
    });
    expect(stderr()).toMatch(/^toolshed: warn: .*no such directory/m);
  });

  test('a --settings deny rule applies, and rules from the flags are added to it', async () => {
    const cwd = await tempDir();
    const file = await settingsFile(cwd, { permissions: { deny: ['Writer(secret*)'] } });
    const input = '{"file_path":"secret.txt","content":"x"}';
    const fromFile = await cli(['check', 'Writer', input, '--json', '--settings', file, '--cwd', cwd], { tools });
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ behavior: 'deny', rule: 'Writer(secret*)' });
    const both = await cli(
      [
        'check',
        'Writer',
        '{"file_path":"out.txt","content":"x"}',
        '--json',
        '--settings',
        file,
        '--deny',
        'Writer(out*)',
        '--cwd',
        cwd,
      ],
      { tools },
    );
    expect(JSON.parse(both.stdout)).toMatchObject({ behavior: 'deny', rule: 'Writer(out*)' });
  });

  test('--mode wins over the settings defaultMode', async () => {
    const cwd = await tempDir();
    const file = await settingsFile(cwd, { permissions: { defaultMode: 'bypassPermissions' } });
    const input = '{"file_path":"out.txt","content":"x"}';
    const bypass = await cli(['call', 'Writer', input, '--settings', file, '--cwd', cwd], { tools: [writerTool] });
    expect(bypass.code).toBe(0);
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(true);
    const overridden = await cli(
      ['check', 'Writer', input, '--json', '--settings', file, '--mode', 'plan', '--cwd', cwd],
      { tools: [writerTool] },
    );
    expect(JSON.parse(overridden.stdout).behavior).toBe('deny');
  });

  test('a --settings file with a JSON typo fails with exit 2, naming the file, without running anything', async () => {
    const cwd = await tempDir();
    const file = await settingsFile(cwd, '{"permissions": {"allow": ["Writer"],}}');
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--settings', file, '--cwd', cwd], {
      tools,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"${file}"`);
    expect(r.stderr).toContain('line 1, column 38');
    expect(r.stdout).toBe('');
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
  });

  test('a --settings file with a misspelled key exits 2, naming the file, the key and the fix, and runs nothing', async () => {
    const cwd = await tempDir();
    const file = await settingsFile(cwd, { permissions: { denny: ['Writer'] } });
    const r = await cli(
      ['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--yes', '--settings', file, '--cwd', cwd],
      { tools },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `Settings file "${file}": permissions.denny is not a permissions key. Did you mean "deny"?`,
    );
    expect(r.stderr).not.toContain('Usage:');
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
  });

  test('a --settings file with a bad mode or a bad rule exits 2, naming the key path', async () => {
    const cwd = await tempDir();
    const mode = await settingsFile(cwd, { permissions: { defaultMode: 'acceptedits' } }, 'mode.json');
    const r = await cli(['tools', '--settings', mode, '--cwd', cwd], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'permissions.defaultMode is "acceptedits", not a permission mode. Did you mean "acceptEdits"?',
    );
    const rule = await settingsFile(cwd, { permissions: { allow: ['Read', 3] } }, 'rule.json');
    const r2 = await cli(['tools', '--settings', rule, '--cwd', cwd], { tools });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`Settings file "${rule}": permissions.allow[1] is number 3, not a string`);
  });

  test('a --settings file that does not exist exits 2, naming it and the flag', async () => {
    const cwd = await tempDir();
    const r = await cli(['tools', '--settings', path.join(cwd, 'nope.json'), '--cwd', cwd], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"${path.join(cwd, 'nope.json')}" does not exist`);
    expect(r.stderr).toContain('--settings');
  });

  test('a Claude Code hook event toolshed does not run is a warning on stderr, not an error', async () => {
    const cwd = await tempDir();
    const file = await settingsFile(cwd, { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    const r = await cli(['tools', '--json', '--only', 'search', '--settings', file, '--cwd', cwd], { tools });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^toolshed: warn: .*hooks\.Stop/m);
  });

  test('the hooks of a --settings file run on call', async () => {
    const cwd = await tempDir();
    const file = await settingsFile(cwd, {
      hooks: {
        PreToolUse: [{ matcher: 'Writer', hooks: [{ type: 'command', command: 'echo "no writes here" >&2; exit 2' }] }],
      },
    });
    const r = await cli(
      ['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--yes', '--settings', file, '--cwd', cwd],
      { tools },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no writes here');
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
  });
  test('a --mcp-config file that does not exist fails with exit 2, naming it', async () => {
    const cwd = await tempDir();
    const r = await cli(['tools', '--mcp-config', path.join(cwd, '.mcp.json'), '--cwd', cwd]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--mcp-config file');
    expect(r.stderr).toContain('.mcp.json');
  });
});

describe('--setting-sources', () => {
  test('the project settings file is read by default and named as the source of its rule in check --json', async () => {
    const { cwd, home, projectFile } = await projectAndHome({ permissions: { deny: ['Writer(secret*)'] } }, {});
    const r = await check(['Writer', '{"file_path":"secret.txt","content":"x"}', '--cwd', cwd], home);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      behavior: 'deny',
      reason: expect.any(String),
      rule: 'Writer(secret*)',
      source: projectFile,
      suggestions: [],
    });
  });

  test('the user settings come from HOME, and --setting-sources chooses which files are read', async () => {
    const { cwd, home, projectFile, userFile } = await projectAndHome(
      { permissions: { deny: ['Writer(project*)'] } },
      { permissions: { deny: ['Writer(user*)'] } },
    );
    const input = (name: string) => `{"file_path":"${name}.txt","content":"x"}`;
    expect(JSON.parse((await check(['Writer', input('user'), '--cwd', cwd], home)).stdout)).toMatchObject({
      behavior: 'deny',
      source: userFile,
    });
    const projectOnly = await check(['Writer', input('user'), '--setting-sources', 'project', '--cwd', cwd], home);
    expect(JSON.parse(projectOnly.stdout)).toMatchObject({ behavior: 'ask', rule: null });
    expect(
      JSON.parse(
        (await check(['Writer', input('project'), '--setting-sources', 'project', '--cwd', cwd], home)).stdout,
      ),
    ).toMatchObject({ source: projectFile });
    const none = await check(['Writer', input('project'), '--setting-sources', '', '--cwd', cwd], home);
    expect(JSON.parse(none.stdout)).toMatchObject({ behavior: 'ask', rule: null });
  });

  test('a bad --setting-sources value exits 2, listing the valid sources', async () => {
    const { cwd, home } = await projectAndHome({}, {});
    const r = await check(['Writer', '{}', '--setting-sources', 'user,projet', '--cwd', cwd], home);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--setting-sources "user,projet" is not valid');
    expect(r.stderr).toContain('user, project, local, claude');
    expect(r.stderr).toContain('Usage: toolshed check');
  });

  test('a typo in the project settings file exits 2 naming that file and the key, and --setting-sources can skip it', async () => {
    const { cwd, home, projectFile } = await projectAndHome({ permisions: { allow: ['Writer'] } }, {});
    const r = await check(['Writer', '{"file_path":"a.txt","content":"x"}', '--cwd', cwd], home);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `Settings file "${projectFile}": key "permisions" is not a settings key. Did you mean "permissions"?`,
    );
    const skipped = await check(
      ['Writer', '{"file_path":"a.txt","content":"x"}', '--setting-sources', 'user', '--cwd', cwd],
      home,
    );
    expect(skipped.code).toBe(0);
  });

  test('rules of --settings, of the flags and of the settings sources each name their own source', async () => {
    const { cwd, home, projectFile } = await projectAndHome({ permissions: { allow: ['Writer(project*)'] } }, {});
    await trustProject(cwd, { homeDir: home });
    const extra = await settingsFile(path.dirname(cwd), { permissions: { allow: ['Writer(extra*)'] } }, 'extra.json');
    const input = (name: string) => `{"file_path":"${name}.txt","content":"x"}`;
    const flags = ['--settings', extra, '--allow', 'Writer(flag*)', '--cwd', cwd];
    expect(JSON.parse((await check(['Writer', input('project'), ...flags], home)).stdout)).toMatchObject({
      behavior: 'allow',
      rule: 'Writer(project*)',
      source: projectFile,
    });
    expect(JSON.parse((await check(['Writer', input('extra'), ...flags], home)).stdout)).toMatchObject({
      behavior: 'allow',
      rule: 'Writer(extra*)',
      source: extra,
    });
    expect(JSON.parse((await check(['Writer', input('flag'), ...flags], home)).stdout)).toMatchObject({
      behavior: 'allow',
      rule: 'Writer(flag*)',
      source: 'cli',
    });
  });

  test('a relative --settings path is taken from where the CLI was started, not from --cwd', async () => {
    const { cwd, home } = await projectAndHome({}, {});
    const extra = await settingsFile(path.dirname(cwd), { permissions: { deny: ['Writer'] } }, 'extra.json');
    const relative = path.relative(process.cwd(), extra);
    const r = await check(['Writer', '{}', '--settings', relative, '--cwd', cwd], home);
    expect(JSON.parse(r.stdout)).toMatchObject({ behavior: 'deny', rule: 'Writer', source: extra });
  });
});
