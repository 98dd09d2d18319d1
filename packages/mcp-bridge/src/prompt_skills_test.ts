import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSession, SkillSources, skillSourcesKey, type Session } from '@toolshed/core';
import { mcpServers } from './mod.ts';
import { EVERYTHING } from './testdata/_helpers.ts';

// The prompts of a real server (server-everything) as the session's skills, through core's seam.
let dir: string;
let session: Session;
const skills = new SkillSources();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-prompt-skills-'));
  session = await createSession({
    cwd: dir,
    homeDir: dir,
    families: [mcpServers({ mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } } }, { homeDir: dir })],
    services: [[skillSourcesKey, skills]],
  });
}, 60_000);

afterAll(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

describe("an MCP server's prompts as skills", () => {
  test('are listed as mcp__<server>__<prompt> with their arguments and where they come from', async () => {
    const { skills: listed, problems } = await skills.list();
    expect(problems).toEqual([]);
    const args = listed.find((s) => s.name === 'mcp__everything__args-prompt');
    expect(args).toEqual({
      name: 'mcp__everything__args-prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ],
      origin: 'MCP server "everything"',
      source: 'mcp',
    });
    expect(listed.map((s) => s.name)).toContain('mcp__everything__simple-prompt');
  });

  test('load with prompts/get, the arguments filled in; a missing required one is named with the usage', async () => {
    const text = await skills.load('mcp__everything__args-prompt', { arguments: { city: 'Paris', state: 'Texas' } });
    expect(text).toBe(
      'Prompt "args-prompt" of MCP server "everything" (city="Paris", state="Texas"):\n\n[user] What\'s weather in Paris, Texas?',
    );
    await expect(skills.load('mcp__everything__args-prompt', { arguments: { state: 'Texas' } })).rejects.toThrow(
      'The prompt "args-prompt" of MCP server "everything" needs "city". Its arguments, in order: city (required): Name of the city; state. Give them after the name: mcp__everything__args-prompt <city> [state]',
    );
    expect(await skills.load('mcp__everything__no-such-prompt')).toBeUndefined();
    expect(await skills.load('release')).toBeUndefined();
  });

  test("complete an argument with the server's completion, the other arguments as context", async () => {
    const [source] = skills.sources();
    expect(
      await source!.complete!({ skill: 'mcp__everything__completable-prompt', argument: 'department', value: 'S' }),
    ).toEqual(['Sales', 'Support']);
    expect(
      await source!.complete!({
        skill: 'mcp__everything__completable-prompt',
        argument: 'name',
        value: '',
        context: { department: 'Engineering' },
      }),
    ).toEqual(['Alice', 'Bob', 'Charlie']);
  });
});

test('closing the session removes its source from the registry', async () => {
  const own = new SkillSources();
  const s = await createSession({
    cwd: dir,
    homeDir: dir,
    families: [mcpServers({ mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } } }, { homeDir: dir })],
    services: [[skillSourcesKey, own]],
  });
  expect(own.sources().map((x) => x.name)).toEqual(['mcp']);
  await s.close();
  expect(own.sources()).toEqual([]);
}, 60_000);
