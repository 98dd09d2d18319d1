import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseCliArgs } from './args.ts';
import { FAMILY_NAMES } from './families.ts';
import { UsageError } from './usage_error.ts';

function usageError(argv: string[]): UsageError {
  try {
    parseCliArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error(`expected a usage error for ${JSON.stringify(argv)}`);
}

describe('parseCliArgs', () => {
  test('parseCliArgs reads the command, its arguments and every common flag', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-args-'));
    const parsed = parseCliArgs([
      'call',
      'Read',
      '{"a":1}',
      '--cwd',
      dir,
      '--only',
      'fs,shell',
      '--only=web',
      '--mode',
      'plan',
      '--allow',
      'Read',
      '--allow',
      'Bash(ls:*)',
      '--deny',
      'WebFetch',
      '--ask',
      'Edit',
      '--settings',
      's.json',
      '--settings',
      't.json',
      '--setting-sources',
      'project,claude',
      '--mcp-config',
      'm.json',
      '--yes',
      '--json',
    ]);
    expect(parsed).toEqual({
      kind: 'command',
      command: 'call',
      positionals: ['Read', '{"a":1}'],
      args: {
        cwd: dir,
        families: ['fs', 'shell', 'web'],
        mode: 'plan',
        allow: ['Read', 'Bash(ls:*)'],
        deny: ['WebFetch'],
        ask: ['Edit'],
        settingSources: ['project', 'claude'],
        settings: ['s.json', 't.json'],
        mcpConfig: 'm.json',
        yes: true,
        json: true,
      },
    });
  });

  test('parseCliArgs defaults to the current directory, every family and no rules', () => {
    const parsed = parseCliArgs(['tools']);
    expect(parsed).toMatchObject({
      kind: 'command',
      args: { cwd: process.cwd(), families: [...FAMILY_NAMES], mode: undefined, allow: [], yes: false, json: false },
    });
  });

  test("parseCliArgs reads Toolshed's and Claude Code's settings by default, and none for an empty list", () => {
    expect(parseCliArgs(['tools'])).toMatchObject({
      args: { settingSources: ['user', 'project', 'local', 'claude'], settings: [] },
    });
    expect(parseCliArgs(['tools', '--setting-sources', ''])).toMatchObject({ args: { settingSources: [] } });
    expect(parseCliArgs(['tools', '--setting-sources=claude, user'])).toMatchObject({
      args: { settingSources: ['claude', 'user'] },
    });
  });

  test('parseCliArgs rejects an unknown setting source, suggesting the closest and listing the valid ones', () => {
    const e = usageError(['check', 'Read', '{}', '--setting-sources', 'user,projet']);
    expect(e.message).toContain('--setting-sources "user,projet" is not valid');
    expect(e.message).toContain('did you mean "project"?');
    expect(e.message).toContain('user, project, local, claude');
    expect(e.command).toBe('check');
  });

  test('parseCliArgs finds the command after flags and takes - as an argument', () => {
    expect(parseCliArgs(['--json', 'call', 'Echo', '-'])).toMatchObject({
      command: 'call',
      positionals: ['Echo', '-'],
      args: { json: true },
    });
  });

  test('parseCliArgs resolves a relative --cwd against the base directory', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-args-'));
    await mkdtemp(path.join(dir, 'sub-'));
    const parsed = parseCliArgs(['tools', '--cwd', '.'], { baseDir: dir });
    expect(parsed).toMatchObject({ args: { cwd: dir } });
  });

  test('parseCliArgs returns help for --help, -h and help <command>, before checking anything else', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help', command: undefined });
    expect(parseCliArgs(['call', '-h', '--bogus'])).toEqual({ kind: 'help', command: 'call' });
    expect(parseCliArgs(['help', 'run'])).toEqual({ kind: 'help', command: 'run' });
    expect(parseCliArgs(['--version'])).toEqual({ kind: 'version' });
  });

  test('parseCliArgs reads toolshed -p PROMPT as chat -p, every word the prompt', () => {
    expect(parseCliArgs(['-p', 'what', 'is', 'this?']).kind).toBe('command');
    const chat = parseCliArgs(['-p', 'what', 'is', 'this?', '--model', 'm1']) as {
      command: string;
      positionals: string[];
      args: { print?: boolean; model?: string };
    };
    expect([chat.command, chat.positionals, chat.args.print, chat.args.model]).toEqual([
      'chat',
      ['what', 'is', 'this?'],
      true,
      'm1',
    ]);
    expect(() => parseCliArgs(['tools', '--model', 'm1'])).toThrow(/belongs to "toolshed chat"/);
  });

  test('parseCliArgs hands bench the arguments after it, for the bench to parse', () => {
    expect(parseCliArgs(['bench', 'result_persistence', '--quick'])).toEqual({
      kind: 'bench',
      argv: ['result_persistence', '--quick'],
    });
    expect(parseCliArgs(['bench', '--help'])).toEqual({ kind: 'bench', argv: ['--help'] });
    expect(parseCliArgs(['help', 'bench'])).toEqual({ kind: 'help', command: 'bench' });
  });

  test('parseCliArgs reads mcp with its subcommand and --http, leaving the subcommand to mcp to check', () => {
    expect(parseCliArgs(['mcp', 'serve', '--http', '3000', '--only', 'fs'])).toMatchObject({
      kind: 'command',
      command: 'mcp',
      positionals: ['serve'],
      args: { http: '3000', families: ['fs'] },
    });
    expect(parseCliArgs(['mcp'])).toMatchObject({ kind: 'command', command: 'mcp', positionals: [] });
    expect(parseCliArgs(['mcp', 'list'])).not.toHaveProperty('args.http');
  });

  test('parseCliArgs reads search with a query of one or more words and --corpus', () => {
    expect(parseCliArgs(['search', 'send', 'slack', '--corpus', 't.json'])).toMatchObject({
      command: 'search',
      positionals: ['send', 'slack'],
      args: { corpus: 't.json' },
    });
    expect(usageError(['search']).message).toContain('missing <query>');
  });

  test('parseCliArgs hands rules everything after the word rules, its own flags included', () => {
    expect(parseCliArgs(['rules', 'lint', '--settings', 'a.json', '--settings', 'b.json', '--json'])).toEqual({
      kind: 'rules',
      argv: ['lint', '--settings', 'a.json', '--settings', 'b.json', '--json'],
    });
    expect(parseCliArgs(['--json', 'rules', 'lint'])).toEqual({ kind: 'rules', argv: ['--json', 'lint'] });
    expect(parseCliArgs(['rules', '--help'])).toEqual({ kind: 'rules', argv: ['--help'] });
  });

  test('parseCliArgs rejects a flag of another command, naming the command it belongs to', () => {
    const http = usageError(['tools', '--http', '80']);
    expect(http.message).toBe(
      'The flag --http belongs to "toolshed mcp" (toolshed mcp serve --http PORT), not to "toolshed tools".',
    );
    expect(usageError(['call', 'Read', '{}', '--corpus', 't.json']).message).toContain('belongs to "toolshed search"');
  });

  test('parseCliArgs rejects a missing or unknown command with a suggestion', () => {
    expect(usageError([]).message).toBe('No command given.');
    expect(usageError(['cal']).message).toContain('Did you mean "call"?');
    expect(usageError(['serch', 'x']).message).toContain('Did you mean "search"?');
  });

  test('parseCliArgs rejects an unknown flag, naming it and the command', () => {
    const e = usageError(['call', 'Echo', '{}', '--jsn']);
    expect(e.message).toBe('Unknown flag "--jsn" for "toolshed call". Did you mean "--json"?');
    expect(e.command).toBe('call');
    expect(usageError(['tools', '-x']).message).toContain('"-x"');
  });

  test('parseCliArgs rejects a value flag without its value, and a boolean flag with one', () => {
    expect(usageError(['tools', '--cwd']).message).toContain('--cwd needs a value');
    expect(usageError(['tools', '--mode', '--json']).message).toContain('--mode needs a value');
    expect(usageError(['tools', '--json=yes']).message).toContain('takes no value');
  });

  test('parseCliArgs rejects the wrong number of arguments', () => {
    expect(usageError(['call', 'Echo']).message).toContain('missing <json|->');
    expect(usageError(['run']).message).toContain('missing <file|->');
    const extra = usageError(['call', 'Echo', '{"text":', '"hi"}']);
    expect(extra.message).toContain('unexpected ""hi"}"');
    expect(extra.message).toContain('Quote the JSON input');
  });

  test('parseCliArgs rejects an unknown mode, listing the valid ones', () => {
    const e = usageError(['tools', '--mode', 'acceptEdit']);
    expect(e.message).toContain('Did you mean "acceptEdits"?');
    expect(e.message).toContain('bypassPermissions');
  });

  test('parseCliArgs rejects an unknown family in --only, listing the valid ones', () => {
    const e = usageError(['tools', '--only', 'fs,files']);
    expect(e.message).toContain('Unknown family "files"');
    expect(e.message).toContain(FAMILY_NAMES.join(', '));
    expect(e.command).toBe('tools');
  });

  test('parseCliArgs rejects a --cwd that does not exist or is a file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-args-'));
    await writeFile(path.join(dir, 'f'), '');
    expect(usageError(['tools', '--cwd', path.join(dir, 'nope')]).message).toContain('does not exist');
    expect(usageError(['tools', '--cwd', path.join(dir, 'f')]).message).toContain('is not a directory');
  });
});
