import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { buildTool, type AnyTool } from '@toolshed/core';
import { parseCliArgs } from './args.ts';
import { searchCommand, type SearchArgs } from './search_command.ts';
import { fakeIo, tempDir as makeTempDir } from './_test_io.ts';
import { UsageError } from './usage_error.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await makeTempDir();
  dirs.push(dir);
  return dir;
}

// The common flags as the parser gives them (parsed for `tools`, which takes the same ones).
function argsFor(cwd: string, extra: string[] = []): SearchArgs {
  const parsed = parseCliArgs(['tools', '--cwd', cwd, ...extra]);
  if (parsed.kind !== 'command') throw new Error('expected a command');
  return parsed.args;
}

// Deferred tools without zod (the CLI has no zod): a JSON Schema and an any-object schema.
function deferredTool(name: string, description: string): AnyTool {
  return buildTool({
    name,
    description,
    shouldDefer: true,
    inputSchema: { safeParse: (input: unknown) => ({ success: true, data: input }) } as AnyTool['inputSchema'],
    inputJSONSchema: { type: 'object', properties: {} },
    async call() {
      return { data: name };
    },
  });
}

const corpus = [
  {
    name: 'mcp__slack__send_message',
    description: 'Posts a message to a Slack channel.',
    input_schema: { type: 'object', properties: { channel: { type: 'string' } } },
  },
  {
    name: 'mcp__slack__list_channels',
    description: 'Lists the channels of a workspace.',
    input_schema: { type: 'object' },
  },
  {
    name: 'get_weather',
    description: 'Current weather for a city.',
    input_schema: { type: 'object', properties: { city: { type: 'string' } } },
  },
];

describe('toolshed search', () => {
  test('search --corpus ranks the tools of a JSON file and prints a table, best first', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'tools.json');
    await writeFile(file, JSON.stringify(corpus));
    const { io, stdout } = fakeIo();
    const code = await searchCommand(
      { positionals: ['send a slack message'], args: { ...argsFor(dir), corpus: file } },
      io,
    );
    expect(code).toBe(0);
    const lines = stdout().split('\n');
    expect(lines[0]).toMatch(/^ #\s+SCORE\s+NAME\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(/^ 1\s+\d+\.\d\d\s+mcp__slack__send_message\s+Posts a message to a Slack channel\.$/);
    expect(stdout()).toContain(`Searched 3 tools from ${file}; ToolSearch loads the first 5 by default.`);
  });

  test('search --json accepts OpenAI definitions and saved requests, and reports rank, name, score and description', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'request.json');
    const openai = corpus.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.input_schema },
    }));
    await writeFile(file, JSON.stringify({ tools: openai }));
    const { io, stdout } = fakeIo();
    const code = await searchCommand(
      { positionals: ['weather', 'city'], args: { ...argsFor(dir, ['--json']), corpus: file } },
      io,
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout()) as {
      query: string;
      searched: number;
      results: { rank: number; name: string; score: number; description: string }[];
    };
    expect(out.query).toBe('weather city');
    expect(out.searched).toBe(3);
    expect(out.results[0]).toEqual({
      rank: 1,
      name: 'get_weather',
      score: expect.any(Number),
      description: 'Current weather for a city.',
    });
  });

  test("search without --corpus ranks the session's deferred tools", async () => {
    const dir = await tempDir();
    const tools = [
      deferredTool('CronCreate', 'Schedules a recurring job.'),
      deferredTool('CronDelete', 'Deletes a scheduled job.'),
    ];
    const { io, stdout } = fakeIo({ tools });
    const code = await searchCommand(
      { positionals: ['schedule recurring job'], args: argsFor(dir, ['--only', 'search', '--json']) },
      io,
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout()) as { corpus: string; searched: number; results: { name: string }[] };
    expect(out.corpus).toBe('session');
    expect(out.searched).toBe(2);
    expect(out.results.map((r) => r.name)).toEqual(['CronCreate', 'CronDelete']);
  });

  test('a query that matches nothing exits 1 with a message', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'tools.json');
    await writeFile(file, JSON.stringify(corpus));
    const { io, stdout } = fakeIo();
    expect(await searchCommand({ positionals: ['qqqzzx'], args: { ...argsFor(dir), corpus: file } }, io)).toBe(1);
    expect(stdout()).toBe('No tool matches "qqqzzx" among 3 tools. Try other words, or fewer "+" terms.\n');
  });

  test('an empty query, a missing corpus file and a corpus that is not a list of tools are usage errors', async () => {
    const dir = await tempDir();
    const { io } = fakeIo();
    await expect(searchCommand({ positionals: ['  '], args: argsFor(dir) }, io)).rejects.toThrow(
      /The search query is empty/,
    );
    const missing = searchCommand(
      { positionals: ['x'], args: { ...argsFor(dir), corpus: path.join(dir, 'nope.json') } },
      io,
    );
    await expect(missing).rejects.toBeInstanceOf(UsageError);
    await expect(missing).rejects.toThrow(/The --corpus file ".*nope\.json" does not exist/);
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify([{ description: 'no name' }]));
    await expect(searchCommand({ positionals: ['x'], args: { ...argsFor(dir), corpus: bad } }, io)).rejects.toThrow(
      /Tool 0 of the --corpus file ".*bad\.json" has no "name" string/,
    );
    const notList = path.join(dir, 'object.json');
    await writeFile(notList, JSON.stringify({ name: 'x' }));
    await expect(searchCommand({ positionals: ['x'], args: { ...argsFor(dir), corpus: notList } }, io)).rejects.toThrow(
      /is not a list of tools/,
    );
  });
});
