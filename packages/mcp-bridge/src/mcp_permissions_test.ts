// An MCP server's annotations are its own claims: `readOnlyHint` must not let a server's tools
// run without asking, and a Read deny rule must stop a filesystem server reading that path.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contentToText, createSession, type PermissionOptions, type Session, type ToolUseBlock } from '@toolshed/core';
import { mcpServers, type McpServerConfig } from './mod.ts';
import { EVERYTHING, FILESYSTEM } from './testdata/_helpers.ts';

let dir: string;
const sessions: Session[] = [];
const use = (name: string, input: unknown): ToolUseBlock => ({
  type: 'tool_use',
  id: `t_${name}_${Math.random()}`,
  name,
  input,
});

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcp-permissions-')));
  await mkdir(path.join(dir, 'private'));
  await writeFile(path.join(dir, 'private', 'secret.txt'), 'TOP SECRET\n');
  await writeFile(path.join(dir, 'notes.txt'), 'public notes\n');
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function session(
  servers: Record<string, McpServerConfig>,
  permissions: PermissionOptions = {},
): Promise<Session> {
  const s = await createSession({ cwd: dir, permissions, families: [mcpServers({ mcpServers: servers })] });
  sessions.push(s);
  return s;
}

describe('MCP annotations never decide permission by themselves', () => {
  test('a tool the server calls read-only (readOnlyHint) asks by default and is not run without approval', async () => {
    const s = await session({ everything: { command: EVERYTHING, args: ['stdio'] } });
    const tool = s.catalog().find((e) => e.name === 'mcp__everything__echo')!.tool!;
    // The claim still makes it concurrency-safe.
    expect(tool.isConcurrencySafe({})).toBe(true);
    const decision = await s.explain('mcp__everything__echo', { message: 'hi' });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('readOnlyHint');
    expect(decision.suggestions).toContain('mcp__everything__echo');
    const [result] = await s.run([use('mcp__everything__echo', { message: 'ran anyway' })]);
    expect(result!.is_error).toBe(true);
    expect(contentToText(result!.content)).not.toContain('Echo: ran anyway');
  });

  test('a rule naming the tool or the server allows it', async () => {
    const byTool = await session(
      { everything: { command: EVERYTHING, args: ['stdio'] } },
      { allow: ['mcp__everything__echo'] },
    );
    expect(await byTool.explain('mcp__everything__echo', { message: 'hi' })).toMatchObject({
      behavior: 'allow',
      rule: 'mcp__everything__echo',
    });
    const [result] = await byTool.run([use('mcp__everything__echo', { message: 'allowed' })]);
    expect(contentToText(result!.content)).toContain('allowed');
    const byServer = await session(
      { everything: { command: EVERYTHING, args: ['stdio'] } },
      { allow: ['mcp__everything'] },
    );
    expect(await byServer.explain('mcp__everything__echo', { message: 'hi' })).toMatchObject({
      behavior: 'allow',
      rule: 'mcp__everything',
    });
  });

  test('trust: "readOnlyHint" in the config lets the server\'s read-only claims allow its tools; other tools still ask', async () => {
    const s = await session({ everything: { command: EVERYTHING, args: ['stdio'], trust: 'readOnlyHint' } });
    expect((await s.explain('mcp__everything__echo', { message: 'hi' })).behavior).toBe('allow');
    const notReadOnly = s.catalog().find((e) => e.isMcp && e.tool && !e.tool.isConcurrencySafe({}))!;
    expect((await s.explain(notReadOnly.name, {})).behavior).toBe('ask');
  });
});

describe("path rules reach an MCP server's path arguments (pathArguments)", () => {
  const fs = (extra: Partial<McpServerConfig> = {}) => ({
    fs: { command: FILESYSTEM, args: [dir], ...extra } as McpServerConfig,
  });

  test('a Read deny rule stops server-filesystem reading that path, even with the whole server allowed', async () => {
    const s = await session(fs({ pathArguments: ['path', 'paths'] }), {
      allow: ['mcp__fs'],
      deny: ['Read(./private/**)'],
    });
    const secret = path.join(dir, 'private', 'secret.txt');
    const decision = await s.explain('mcp__fs__read_text_file', { path: secret });
    expect(decision).toMatchObject({ behavior: 'deny', rule: 'Read(./private/**)' });
    const [denied] = await s.run([use('mcp__fs__read_text_file', { path: secret })]);
    expect(denied!.is_error).toBe(true);
    expect(contentToText(denied!.content)).not.toContain('TOP SECRET');
    // A list argument is checked entry by entry.
    const [many] = await s.run([use('mcp__fs__read_multiple_files', { paths: [path.join(dir, 'notes.txt'), secret] })]);
    expect(contentToText(many!.content)).not.toContain('TOP SECRET');
    // What the rule does not cover still runs.
    const [allowed] = await s.run([use('mcp__fs__read_text_file', { path: path.join(dir, 'notes.txt') })]);
    expect(contentToText(allowed!.content)).toContain('public notes');
  });

  test("an Edit deny rule covers a writing tool's path argument, and a path outside the working directories asks", async () => {
    const s = await session(fs({ pathArguments: ['path'] }), { allow: ['mcp__fs'], deny: ['Edit(./private/**)'] });
    expect(
      (await s.explain('mcp__fs__write_file', { path: path.join(dir, 'private', 'x.txt'), content: 'x' })).behavior,
    ).toBe('deny');
    expect((await s.explain('mcp__fs__write_file', { path: path.join(dir, 'ok.txt'), content: 'x' })).behavior).toBe(
      'allow',
    );
    expect((await s.explain('mcp__fs__read_text_file', { path: '/etc/hostname' })).behavior).toBe('ask');
  });

  test('a path argument whose value is not a path asks rather than passing unchecked', async () => {
    const s = await session(fs({ pathArguments: ['path'] }), { allow: ['mcp__fs'] });
    const decision = await s.explain('mcp__fs__read_text_file', { path: 42 });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('not a path');
  });

  test('the config checks trust and pathArguments', () => {
    expect(() => mcpServers({ mcpServers: { fs: { command: FILESYSTEM, trust: 'everything' } as never } })).toThrow(
      /"trust" of server "fs".*must be "readOnlyHint"/,
    );
    expect(() => mcpServers({ mcpServers: { fs: { command: FILESYSTEM, pathArguments: 'path' } as never } })).toThrow(
      /"pathArguments" of server "fs".*list of argument names/,
    );
  });
});
