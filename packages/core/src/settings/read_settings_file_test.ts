import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readSettingsFile } from './read_settings_file.ts';

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolshed-settings-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function read(content: unknown) {
  const file = join(dir, `settings-${n++}.json`);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return { file, result: await readSettingsFile(file) };
}

describe('readSettingsFile', () => {
  test("reads permissions and hooks in Claude Code's shape", async () => {
    const settings = {
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      permissions: {
        allow: ['Bash(npm test:*)'],
        deny: ['Read(./.env)'],
        ask: ['Bash(git push:*)'],
        defaultMode: 'acceptEdits',
        additionalDirectories: ['../shared'],
      },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh', timeout: 5, failClosed: true }] },
        ],
      },
      env: { FOO: '1' },
      model: 'claude-sonnet-4-5',
    };
    const { result } = await read(settings);
    expect(result.errors).toEqual([]);
    expect(result.exists).toBe(true);
    expect(result.content?.permissions?.deny).toEqual(['Read(./.env)']);
    expect(result.content?.hooks?.['PreToolUse']?.[0]?.hooks[0]).toEqual({
      type: 'command',
      command: './check.sh',
      timeout: 5,
      failClosed: true,
    });
  });

  test('loads a Claude Code file whole: prompt and agent hooks, Claude-only events and keys are one warning each, never an error', async () => {
    const { file, result } = await read({
      model: 'opus',
      statusLine: { type: 'command', command: 'echo hi' },
      outputStyle: 'Explanatory',
      apiKeyHelper: './key.sh',
      env: { NODE_ENV: 'test', RETRIES: 3, VERBOSE: true },
      enableAllProjectMcpServers: true,
      permissions: { deny: ['Read(./.env)'], disableAutoMode: 'disable' },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', prompt: 'Is this safe? $ARGUMENTS', timeout: 30 },
              { type: 'command', command: './no-rm.sh', statusMessage: 'checking', async: false },
              {
                type: 'http',
                url: 'http://127.0.0.1:9/hook',
                headers: { Authorization: 'Bearer $TOKEN' },
                allowedEnvVars: ['TOKEN'],
              },
            ],
          },
        ],
        PostToolUse: [{ hooks: [{ type: 'agent', prompt: 'verify' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
      },
    });
    expect(result.errors).toEqual([]);
    expect(result.content?.env).toEqual({ NODE_ENV: 'test', RETRIES: '3', VERBOSE: 'true' });
    expect(result.content?.enableAllProjectMcpServers).toBe(true);
    expect(result.content?.hooks?.['PreToolUse']?.[0]?.hooks.map((h) => h.type)).toEqual(['command', 'http']);
    expect(result.content?.hooks?.['PostToolUse']).toEqual([]);
    const warnings = result.warnings.join('\n');
    for (const key of ['model', 'statusLine', 'outputStyle', 'apiKeyHelper'])
      expect(warnings).toContain(`"${key}" is a Claude Code setting that Toolshed does not use; ignored.`);
    expect(warnings).toContain('permissions.disableAutoMode is a Claude Code setting');
    expect(warnings).toContain('hooks.PreToolUse[0].hooks[0] is a Claude Code "prompt" hook');
    expect(warnings).toContain('hooks.PostToolUse[0].hooks[0] is a Claude Code "agent" hook');
    expect(warnings).toContain('hooks.UserPromptSubmit is a Claude Code event that Toolshed does not run');
    expect(warnings).toContain('hooks.SessionStart is a Claude Code event');
    expect(result.warnings.every((w) => w.startsWith(`Settings file "${file}": `))).toBe(true);
    expect(result.warnings).toHaveLength(9);
  });

  test('reads Claude Code\'s hook keys "if", "shell" and "async", and rejects values Claude Code would not run', async () => {
    const hook = { type: 'command', command: './check.sh' };
    const { result } = await read({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { ...hook, if: 'Bash(git *)', shell: 'powershell' },
              { ...hook, async: true, asyncRewake: true },
              { type: 'http', url: 'http://127.0.0.1:9/h', if: 'Bash(npm *)' },
            ],
          },
        ],
      },
    });
    expect(result.errors).toEqual([]);
    expect(result.content?.hooks?.['PreToolUse']?.[0]?.hooks).toMatchObject([
      { if: 'Bash(git *)', shell: 'powershell' },
      { async: true },
      { if: 'Bash(npm *)' },
    ]);
    const warnings = result.warnings.join('\n');
    expect(warnings).toContain('hooks.PreToolUse[0].hooks[1] is "async": Toolshed starts it in the background');
    expect(warnings).toContain(
      'hooks.PreToolUse[0].hooks[1].asyncRewake is a Claude Code setting that Toolshed does not use',
    );
    const bad = await read({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { ...hook, if: 'Bash(git' },
              { ...hook, if: 42 },
              { ...hook, shell: 'zsh' },
              { ...hook, async: 'yes' },
            ],
          },
        ],
      },
    });
    expect(bad.result.issues.map((i) => i.key)).toEqual([
      'hooks.PreToolUse[0].hooks[0].if',
      'hooks.PreToolUse[0].hooks[1].if',
      'hooks.PreToolUse[0].hooks[2].shell',
      'hooks.PreToolUse[0].hooks[3].async',
    ]);
    expect(bad.result.errors[2]).toContain('Write "shell": "bash" or "shell": "powershell"');
  });

  test('reads Claude Code\'s defaultMode "auto" as "default" with a warning, and its alias "manual" as "default"', async () => {
    const auto = await read({ permissions: { defaultMode: 'auto' } });
    expect(auto.result.errors).toEqual([]);
    expect(auto.result.content?.permissions?.defaultMode).toBe('default');
    expect(auto.result.warnings.join('\n')).toContain(
      'permissions.defaultMode "auto" is Claude Code\'s classifier mode, which Toolshed does not have; read as "default"',
    );
    const manual = await read({ permissions: { defaultMode: 'manual' } });
    expect(manual.result.errors).toEqual([]);
    expect(manual.result.content?.permissions?.defaultMode).toBe('default');
    const proto = await read({ permissions: { defaultMode: 'toString' } });
    expect(proto.result.issues.map((i) => i.key)).toEqual(['permissions.defaultMode']);
  });

  test("in Claude Code's own file, a key unknown to both is a warning, as Claude Code ignores it; a misspelt key Toolshed reads is still an error", async () => {
    const file = join(dir, `claude-${n++}.json`);
    await writeFile(file, JSON.stringify({ voiceEnabled: true, permissions: { deny: ['Read(./.env)'] } }));
    const claude = await readSettingsFile(file, { claudeFile: true });
    expect(claude.errors).toEqual([]);
    expect(claude.content?.permissions?.deny).toEqual(['Read(./.env)']);
    expect(claude.warnings.join('\n')).toContain('"voiceEnabled" is not a setting Toolshed knows');
    const toolshed = await readSettingsFile(file);
    expect(toolshed.errors.join('\n')).toContain('key "voiceEnabled" is not a settings key');
    await writeFile(file, JSON.stringify({ permisions: { deny: ['Read(./.env)'] } }));
    const typo = await readSettingsFile(file, { claudeFile: true });
    expect(typo.errors.join('\n')).toContain('key "permisions" is not a settings key. Did you mean "permissions"?');
  });

  test('treats a missing file as no settings, not an error', async () => {
    const result = await readSettingsFile(join(dir, 'nope.json'));
    expect(result).toEqual({
      path: join(dir, 'nope.json'),
      exists: false,
      errors: [],
      issues: [],
      warnings: [],
      familySettings: {},
    });
  });

  test('reports a directory where the file should be', async () => {
    await mkdir(join(dir, 'as-dir.json'));
    const result = await readSettingsFile(join(dir, 'as-dir.json'));
    expect(result.errors).toEqual([
      `Settings file "${join(dir, 'as-dir.json')}" is a directory, not a file: make it a readable JSON file or remove it.`,
    ]);
  });

  test('reports a FIFO or device where the file should be instead of hanging on it', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect((await readSettingsFile(fifo)).errors).toEqual([
      `Settings file "${fifo}" is not a regular file (a FIFO, a device or a socket is never read): make it a readable JSON file or remove it.`,
    ]);
    const device = join(dir, 'zero.json');
    await symlink('/dev/zero', device);
    expect((await readSettingsFile(device)).errors[0]).toContain('is not a regular file');
  });

  test('reports a file larger than 1 MB without parsing it', async () => {
    const { file, result } = await read(`{"permissions": {"allow": [${'"Read",'.repeat(200_000)}"Read"]}}`);
    expect(result.errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Settings file "${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" is over 1 MB \\(\\d+ bytes\\): a settings file is short JSON`,
        ),
      ),
    ]);
  });

  test('reads a file that starts with a UTF-8 byte-order mark', async () => {
    const { result } = await read('\uFEFF{"permissions": {"deny": ["Read(./.env)"]}}');
    expect(result.errors).toEqual([]);
    expect(result.content?.permissions?.deny).toEqual(['Read(./.env)']);
  });

  test('rejects a key given twice, which would silently drop the deny rules of the first', async () => {
    const { file, result } = await read(
      '{"permissions": {"deny": ["Read(./.env)"]},\n "permissions": {"allow": ["Bash"]}}',
    );
    expect(result.errors).toEqual([
      `Settings file "${file}": the key permissions appears twice in one object, and only the last would count: merge the two into one.`,
    ]);
    expect(result.content).toBeUndefined();
  });

  test('rejects comments, as Claude Code does, saying settings are plain JSON', async () => {
    const { result } = await read('{\n  // keep secrets out\n  "permissions": {"deny": ["Read(./.env)"]}\n}');
    expect(result.errors[0]).toContain(
      'is not valid JSON (unexpected "/" at line 2, column 3): fix the syntax; settings files are plain JSON, without comments or trailing commas.',
    );
  });

  test('reports JSON that does not parse with its line and column', async () => {
    const { file, result } = await read('{\n  "permissions": {\n    "allow": ["Read",]\n  }\n}');
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(
      new RegExp(
        `^Settings file "${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" is not valid JSON \\(.* at line 3, column \\d+\\): fix the syntax`,
      ),
    );
    expect(result.content).toBeUndefined();
  });

  const typos: [name: string, content: unknown, expected: string][] = [
    [
      'an unknown top-level key suggests the closest known key',
      { permisions: { allow: [] } },
      'key "permisions" is not a settings key. Did you mean "permissions"?',
    ],
    [
      'an unknown permissions key suggests the closest',
      { permissions: { alow: ['Read'] } },
      'permissions.alow is not a permissions key. Did you mean "allow"?',
    ],
    [
      'a misspelt mode suggests the closest and lists the valid ones',
      { permissions: { defaultMode: 'acceptedits' } },
      'permissions.defaultMode is "acceptedits", not a permission mode. Did you mean "acceptEdits"? Use one of "default", "acceptEdits", "plan", "bypassPermissions", "dontAsk".',
    ],
    [
      'a mode that is nothing like one lists the valid ones',
      { permissions: { defaultMode: 'yolo' } },
      'permissions.defaultMode is "yolo", not a permission mode. Use one of',
    ],
    [
      'a rule list that is a string',
      { permissions: { deny: 'Bash' } },
      'permissions.deny is "Bash", not a list. Write a list of rule strings',
    ],
    [
      'a rule that is not a string',
      { permissions: { allow: ['Read', 42] } },
      'permissions.allow[1] is number 42, not a string.',
    ],
    [
      'an unclosed rule names the index and the fix',
      { permissions: { allow: ['Read', 'Bash(npm test'] } },
      'permissions.allow[1] is "Bash(npm test", which is not a valid rule. Permission rule "Bash(npm test" is missing its closing ")": write "Bash(npm test)" or "Bash(npm test:*)".',
    ],
    [
      'a mangled prefix suggests the :* form',
      { permissions: { allow: ['Bash(npm test*:)'] } },
      'permissions.allow[0] is "Bash(npm test*:)", which is not a usable rule. Permission rule "Bash(npm test*:)" has a mangled prefix wildcard: did you mean "Bash(npm test:*)"?',
    ],
    [
      'a :* in the middle suggests the :* form',
      { permissions: { ask: ['Bash(npm test:* --watch)'] } },
      'did you mean "Bash(npm test:*)"?',
    ],
    [
      'a space before the parenthesis',
      { permissions: { deny: ['Bash (rm:*)'] } },
      'has a space between the tool name and "(": write "Bash(rm:*)"',
    ],
    ['a negated path rule', { permissions: { deny: ['Read(!./src/**)'] } }, 'is negated'],
    [
      'a path rule with a trailing space',
      { permissions: { deny: ['Read(./.env )'] } },
      'permissions.deny[0] is "Read(./.env )", which is not a usable rule. Permission rule "Read(./.env )": Path pattern "./.env " starts or ends with white space',
    ],
    [
      'a path rule with Windows separators',
      { permissions: { deny: ['Read(.\\secrets\\**)'] } },
      'did you mean "./secrets/**"?',
    ],
    [
      'additional directories that are not paths',
      { permissions: { additionalDirectories: [''] } },
      'permissions.additionalDirectories[0] is "", not a directory path.',
    ],
    [
      'an unknown hook event suggests the closest',
      { hooks: { PreToolUs: [] } },
      'hooks.PreToolUs is not a hook event. Did you mean "PreToolUse"?',
    ],
    [
      'a hook without a command',
      { hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } },
      'hooks.PreToolUse[0].hooks[0].command is missing, not a command.',
    ],
    [
      'a hook of a type nobody has',
      { hooks: { PreToolUse: [{ hooks: [{ type: 'script', command: 'x' }] }] } },
      'hooks.PreToolUse[0].hooks[0].type is "script". Settings files hold "command" and "http" hooks',
    ],
    [
      'an http hook without a URL',
      { hooks: { PreToolUse: [{ hooks: [{ type: 'http', url: 'file:///etc/passwd' }] }] } },
      'hooks.PreToolUse[0].hooks[0].url is "file:///etc/passwd", not an http: or https: URL.',
    ],
    [
      'a misspelt top-level Toolshed key',
      { permisions: { deny: ['Bash'] } },
      'key "permisions" is not a settings key. Did you mean "permissions"?',
    ],
    ['an env that is a list', { env: ['A=1'] }, 'env is a list, not an object.'],
    ['an env value that is an object', { env: { A: { b: 1 } } }, 'env.A is an object, not a string.'],
    [
      'enabledMcpjsonServers that is a string',
      { enabledMcpjsonServers: 'github' },
      'enabledMcpjsonServers is "github", not a list of server names.',
    ],
    [
      'a misspelt hook key',
      { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timout: 5 }] }] } },
      'hooks.PreToolUse[0].hooks[0].timout is not a key of a command hook. Did you mean "timeout"?',
    ],
    [
      'a bad timeout',
      { hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] } },
      'hooks.PostToolUse[0].hooks[0].timeout is number -1, not a positive number of seconds.',
    ],
    [
      'a timeout of 0',
      { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: 0 }] }] } },
      'hooks.PreToolUse[0].hooks[0].timeout is number 0, not a positive number of seconds.',
    ],
    [
      'a timeout that is a string',
      { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: '30' }] }] } },
      'hooks.PreToolUse[0].hooks[0].timeout is "30", not a positive number of seconds.',
    ],
    [
      'a failClosed that is not a boolean',
      { hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'x', failClosed: 'yes' }] }] } },
      'failClosed is "yes", not true or false.',
    ],
    [
      'a matcher that is not a regular expression',
      { hooks: { PreToolUse: [{ matcher: 'Bash(', hooks: [] }] } },
      'hooks.PreToolUse[0].matcher is "Bash(". Hook matcher "Bash(" is not a valid regular expression',
    ],
    ['a top level that is a list', [], 'the top level is a list, not an object.'],
  ];
  test.each(typos)('rejects %s, naming the file, the key, the value and the fix', async (_name, content, expected) => {
    const { file, result } = await read(content);
    expect(result.content).toBeUndefined();
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors[0]).toContain(`Settings file "${file}": `);
    expect(result.errors.join('\n')).toContain(expected);
  });

  test('reports every problem of a file at once', async () => {
    const { result } = await read({ permisions: {}, permissions: { allow: ['Bash(x'], defaultMode: 'nope' } });
    expect(result.errors).toHaveLength(3);
  });

  test('accepts a Bash prefix without a word boundary, with a warning that suggests the :* form', async () => {
    const { file, result } = await read({ permissions: { allow: ['Bash(npm test*)'] } });
    expect(result.errors).toEqual([]);
    expect(result.content?.permissions?.allow).toEqual(['Bash(npm test*)']);
    expect(result.warnings).toEqual([
      `Settings file "${file}": permissions.allow[0]: Rule "Bash(npm test*)" also matches commands that merely start with the same letters (such as "npm testx"): did you mean "Bash(npm test:*)"?`,
    ]);
  });

  test('accepts and ignores Claude Code hook events it does not run, with a warning', async () => {
    const { file, result } = await read({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x' }] }], PostToolUse: [] },
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      `Settings file "${file}": hooks.Stop is a Claude Code event that Toolshed does not run (it runs PreToolUse, PostToolUse, PostToolUseFailure); ignored.`,
    ]);
    expect(result.content?.hooks).toEqual({ PostToolUse: [] });
  });
});
