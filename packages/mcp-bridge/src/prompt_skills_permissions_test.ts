import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSession, SkillSources, skillSourcesKey, type PermissionOptions, type Session } from '@toolshed/core';
import { mcpServers } from './mod.ts';
import { EVERYTHING } from './testdata/_helpers.ts';

// Attack: the Skill tool allows every load, and an MCP prompt skill calls the server's
// prompts/get. The rules that GetMcpPrompt goes through must hold for the skill too.
let dir: string;
const open: Session[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-prompt-skill-rules-'));
});

afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function skillsWith(permissions: PermissionOptions): Promise<SkillSources> {
  const skills = new SkillSources();
  const session = await createSession({
    cwd: dir,
    homeDir: dir,
    permissions,
    families: [mcpServers({ mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } } }, { homeDir: dir })],
    services: [[skillSourcesKey, skills]],
  });
  open.push(session);
  return skills;
}

describe('an MCP prompt loaded as a skill obeys the rules of GetMcpPrompt', () => {
  test('deny GetMcpPrompt: the prompts are not listed as skills and loading one is refused, naming the rule', async () => {
    const skills = await skillsWith({ deny: ['GetMcpPrompt'] });
    expect((await skills.list()).skills.map((s) => s.name)).toEqual([]);
    await expect(skills.load('mcp__everything__simple-prompt')).rejects.toThrow(
      'The prompt "simple-prompt" of MCP server "everything" is not loaded: deny rule "GetMcpPrompt" from options forbids it.',
    );
  }, 60_000);

  test('ask GetMcpPrompt: loading is refused with where to get it so a person can approve', async () => {
    const skills = await skillsWith({ ask: ['GetMcpPrompt'] });
    await expect(skills.load('mcp__everything__simple-prompt')).rejects.toThrow(
      /ask rule "GetMcpPrompt".*GetMcpPrompt/,
    );
  }, 60_000);

  test('a deny rule naming the prompt skill denies that one only', async () => {
    const skills = await skillsWith({ deny: ['mcp__everything__simple-prompt'] });
    const names = (await skills.list()).skills.map((s) => s.name);
    expect(names).not.toContain('mcp__everything__simple-prompt');
    expect(names).toContain('mcp__everything__args-prompt');
    await expect(skills.load('mcp__everything__simple-prompt')).rejects.toThrow(
      'deny rule "mcp__everything__simple-prompt"',
    );
  }, 60_000);
});
