// The "done when": a real runAgent, the real Anthropic SDK against a loopback fake
// model, the real fs, shell and agent families. It lives in the CLI's tests because a family's
// tests may not import other families.
import Anthropic from '@anthropic-ai/sdk';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createSession, type Session } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';
import { shellTools } from '@toolshed/tool-shell';
import { agentTools, anthropicModel, runAgent } from '@toolshed/tool-agent';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeReply,
  type FakeRequest,
} from '@toolshed/tool-agent/testing';

let server: FakeModelServer | undefined;
let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
});

const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use' as const, id, name, input });
const say = (text: string): FakeReply => ({ content: [{ type: 'text', text }] });
const turnOf = (r: FakeRequest) => (r.body.messages as { role: string }[]).filter((m) => m.role === 'assistant').length;
const isChild = (r: FakeRequest) => !String(r.body.system ?? '').startsWith('PARENT');
const toolResults = (r: FakeRequest) => JSON.stringify((r.body.messages as unknown[]).at(-1));

function project(): { cwd: string; greeting: string } {
  const cwd = mkdtempSync(path.join(tmpdir(), 'e2e-agent-'));
  mkdirSync(path.join(cwd, 'src'));
  const greeting = path.join(cwd, 'src', 'greeting.ts');
  writeFileSync(greeting, "export const greeting = 'Helo, world';\n");
  writeFileSync(
    path.join(cwd, 'src', 'main.ts'),
    "import { greeting } from './greeting.ts';\nconsole.log(greeting);\n",
  );
  writeFileSync(path.join(cwd, 'secret.txt'), 'TOKEN=abc\n');
  return { cwd, greeting };
}

test('the model reads a file, an Explore sub-agent greps (and cannot edit, nor read what the parent denies), then the model edits', async () => {
  const { cwd, greeting } = project();
  const childRequests: FakeRequest[] = [];
  server = await startFakeModelServer((r) => {
    if (isChild(r)) {
      childRequests.push(r);
      if (turnOf(r) === 0) {
        return {
          content: [
            use('c1', 'Grep', { pattern: 'Helo', output_mode: 'content', '-n': true }),
            use('c2', 'Read', { file_path: path.join(cwd, 'secret.txt') }),
            use('c3', 'Edit', { file_path: greeting, old_string: 'Helo', new_string: 'HACKED' }),
          ],
        };
      }
      return say('The typo "Helo" is in src/greeting.ts line 1; src/main.ts imports it.');
    }
    switch (turnOf(r)) {
      case 0:
        return { content: [use('p1', 'Read', { file_path: greeting })] };
      case 1:
        return {
          content: [
            use('p2', 'Agent', {
              description: 'Find the typo',
              prompt: 'Find where "Helo" appears',
              subagent_type: 'Explore',
            }),
          ],
        };
      case 2:
        return { content: [use('p3', 'Edit', { file_path: greeting, old_string: 'Helo', new_string: 'Hello' })] };
      default:
        return say('Fixed the typo.');
    }
  });
  session = await createSession({
    cwd,
    families: [fileTools(), shellTools(), agentTools({ agentFiles: [] })],
    permissions: { allow: ['Edit(./src/**)'], deny: ['Read(./secret.txt)'] },
  });
  const model = anthropicModel({
    client: new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }),
    model: 'claude-test',
  });
  const result = await runAgent({
    session,
    model,
    system: 'PARENT: fix typos.',
    prompt: 'Fix the typo in src/greeting.ts',
  });

  expect(result.stopReason).toBe('end_turn');
  expect(result.text).toBe('Fixed the typo.');
  expect(result.toolCalls).toEqual({ Read: 1, Agent: 1, Edit: 1 });
  // The edit landed (the parent's), and only it.
  expect(readFileSync(greeting, 'utf8')).toBe("export const greeting = 'Hello, world';\n");
  // The sub-agent had no Edit, Write or Agent to call, and ran in plan mode.
  const childTools = (childRequests[0]!.body.tools as { name: string }[]).map((t) => t.name);
  expect(childTools).toContain('Grep');
  expect(childTools).not.toContain('Edit');
  expect(childTools).not.toContain('Write');
  expect(childTools).not.toContain('Agent');
  const childResults = toolResults(childRequests[1]!);
  expect(childResults).toContain('greeting.ts:1:');
  expect(childResults).toMatch(/Read\(\.\/secret\.txt\)/);
  expect(childResults).not.toContain('TOKEN=abc');
  expect(childResults).toContain('No such tool available: Edit');
  // The Agent result: the sub-agent's final text and a one-line summary.
  const parentAfterAgent = server.requests.filter((r) => !isChild(r))[2]!;
  expect(toolResults(parentAfterAgent)).toMatch(
    /The typo \\"Helo\\" is in src\/greeting.ts line 1.*\[Explore agent: 3 tool calls, \d+ tokens, [\d.]+ s, stopped: end_turn\]/,
  );
});

test('a sub-agent has its own file-state cache: what the parent read, it must read before it edits', async () => {
  const { cwd, greeting } = project();
  const childResults: string[] = [];
  server = await startFakeModelServer((r) => {
    if (isChild(r)) {
      if (turnOf(r) === 0)
        return { content: [use('c1', 'Edit', { file_path: greeting, old_string: 'Helo', new_string: 'Hello' })] };
      childResults.push(toolResults(r));
      return say('Could not edit without reading.');
    }
    switch (turnOf(r)) {
      case 0:
        return { content: [use('p1', 'Read', { file_path: greeting })] };
      case 1:
        return {
          content: [
            use('p2', 'Agent', {
              description: 'Fix it',
              prompt: 'Fix the typo in src/greeting.ts',
              subagent_type: 'general-purpose',
            }),
          ],
        };
      default:
        return say('done');
    }
  });
  session = await createSession({
    cwd,
    families: [fileTools(), agentTools({ agentFiles: [] })],
    permissions: { allow: ['Edit(./src/**)'] },
  });
  const model = anthropicModel({
    client: new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }),
    model: 'claude-test',
  });
  await runAgent({ session, model, system: 'PARENT', prompt: 'go' });
  expect(childResults[0]).toMatch(/has not been read yet|Read it first/i);
  expect(readFileSync(greeting, 'utf8')).toContain('Helo');
});
