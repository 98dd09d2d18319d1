import { homedir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { createPermissionContext, mergePermissionContexts } from './permission_context.ts';
import type { PermissionMode, PermissionOptions } from './types.ts';

describe('createPermissionContext', () => {
  test('gives default mode, no rules and the cwd as the only working directory without options', () => {
    expect(createPermissionContext(undefined, '/p')).toEqual({
      context: { mode: 'default', rules: { allow: [], deny: [], ask: [] }, workingDirectories: ['/p'] },
      errors: [],
    });
  });

  test('parses each list with its behaviour and the source', () => {
    const { context, errors } = createPermissionContext(
      { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'], ask: ['Bash(git push:*)'] },
      '/p',
      { source: 'cli' },
    );
    expect(errors).toEqual([]);
    expect(context.rules.allow).toEqual([
      { toolName: 'Bash', ruleContent: 'npm test:*', behavior: 'allow', source: 'cli', raw: 'Bash(npm test:*)' },
    ]);
    expect(context.rules.deny[0]).toMatchObject({ behavior: 'deny', source: 'cli', ruleContent: './.env' });
    expect(context.rules.ask[0]).toMatchObject({ behavior: 'ask', source: 'cli' });
  });

  test('names the source "options" by default', () => {
    expect(createPermissionContext({ allow: ['Read'] }, '/p').context.rules.allow[0]?.source).toBe('options');
  });

  test.each(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const)('accepts mode %s', (mode) => {
    const { context, errors } = createPermissionContext({ mode }, '/p');
    expect(errors).toEqual([]);
    expect(context.mode).toBe(mode);
  });

  test('keeps mode default and lists the valid modes when the mode is unknown', () => {
    const { context, errors } = createPermissionContext({ mode: 'yolo' as PermissionMode }, '/p', {
      source: '/p/.toolshed/settings.json',
    });
    expect(context.mode).toBe('default');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('permission_options_invalid');
    expect(errors[0]!.message).toBe(
      'Permission mode "yolo" (from /p/.toolshed/settings.json) is not a mode: use one of "default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"',
    );
  });

  test('reports every malformed rule and keeps the good ones', () => {
    const { context, errors } = createPermissionContext(
      { allow: ['Read', 'Bash(npm test'], deny: ['Web Fetch', 'WebFetch'] },
      '/p',
    );
    expect(context.rules.allow.map((r) => r.raw)).toEqual(['Read']);
    expect(context.rules.deny.map((r) => r.raw)).toEqual(['WebFetch']);
    expect(errors.map((e) => e.code)).toEqual(['permission_rule_invalid', 'permission_rule_invalid']);
    expect(errors[0]!.message).toContain('is missing its closing ")"');
    expect(errors[1]!.message).toContain('(permissions.deny, from options)');
  });

  test('reports a rule list that is not a list, with an example', () => {
    const { context, errors } = createPermissionContext({ deny: 'Bash' as unknown as string[] }, '/p');
    expect(context.rules.deny).toEqual([]);
    expect(errors[0]!.message).toBe(
      'permissions.deny (from options) must be a list of rule strings, got "Bash": write for example deny: ["Bash(npm test:*)"]',
    );
  });

  test('resolves additional directories against the cwd, cwd first, without duplicates', () => {
    const { context, errors } = createPermissionContext(
      { additionalDirectories: ['../shared', '/srv/data', '.', '/srv/data/', '/home/u/proj/sub/..', '~/notes'] },
      '/home/u/proj/',
    );
    expect(errors).toEqual([]);
    expect(context.workingDirectories).toEqual(['/home/u/proj', '/home/u/shared', '/srv/data', `${homedir()}/notes`]);
  });

  test('resolves a relative cwd', () => {
    const { context } = createPermissionContext({}, 'sub/dir');
    expect(context.workingDirectories[0]).toBe(`${process.cwd()}/sub/dir`);
  });

  test('reports additional directories that are not paths', () => {
    const options = { additionalDirectories: ['', 42, '/ok'] } as unknown as PermissionOptions;
    const { context, errors } = createPermissionContext(options, '/p');
    expect(context.workingDirectories).toEqual(['/p', '/ok']);
    expect(errors.map((e) => e.message)).toEqual([
      'permissions.additionalDirectories (from options) has an entry "" that is not a directory path: use a path such as "../shared" or "/srv/data"',
      'permissions.additionalDirectories (from options) has an entry 42 (a number) that is not a directory path: use a path such as "../shared" or "/srv/data"',
    ]);
  });

  test('reports every problem of one options object at once', () => {
    const options = {
      mode: 'auto',
      allow: ['Bash('],
      ask: {},
      additionalDirectories: 'x',
    } as unknown as PermissionOptions;
    const { errors } = createPermissionContext(options, '/p');
    expect(errors).toHaveLength(4);
  });
});

describe('mergePermissionContexts', () => {
  const user = createPermissionContext(
    { allow: ['Read'], deny: ['WebFetch'], additionalDirectories: ['/shared'] },
    '/p',
    { source: '~/.toolshed/settings.json' },
  ).context;
  const project = createPermissionContext(
    {
      mode: 'acceptEdits',
      allow: ['Bash(npm test:*)'],
      ask: ['Bash(git push:*)'],
      additionalDirectories: ['/shared', '/data'],
    },
    '/p',
    { source: '/p/.toolshed/settings.json' },
  ).context;

  test('concatenates the rules of both layers, base first, keeping their sources', () => {
    const merged = mergePermissionContexts(user, project);
    expect(merged.rules.allow.map((r) => [r.raw, r.source])).toEqual([
      ['Read', '~/.toolshed/settings.json'],
      ['Bash(npm test:*)', '/p/.toolshed/settings.json'],
    ]);
    expect(merged.rules.deny.map((r) => r.raw)).toEqual(['WebFetch']);
    expect(merged.rules.ask.map((r) => r.raw)).toEqual(['Bash(git push:*)']);
  });

  test('joins the working directories without duplicates, the base cwd first', () => {
    expect(mergePermissionContexts(user, project).workingDirectories).toEqual(['/p', '/shared', '/data']);
  });

  test("takes the layer's mode when it has one, else keeps the base's", () => {
    expect(mergePermissionContexts(user, project).mode).toBe('acceptEdits');
    expect(mergePermissionContexts(project, { rules: { deny: user.rules.deny } }).mode).toBe('acceptEdits');
  });

  test('changes neither argument', () => {
    const before = JSON.stringify([user, project]);
    mergePermissionContexts(user, project);
    expect(JSON.stringify([user, project])).toBe(before);
  });
});
