import { describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitRequestSchema, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { servedClientChannels } from './serve_client_channels.ts';

async function pair(capabilities: ClientCapabilities): Promise<{ server: Server; seen: unknown[] }> {
  const seen: unknown[] = [];
  const server = new Server({ name: 'served', version: '1' }, { capabilities: {} });
  const client = new Client({ name: 'client', version: '1' }, { capabilities });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    seen.push(request.params);
    return { action: 'accept' };
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { server, seen };
}

describe("the served client's askUser", () => {
  test('a question with a url is a URL-mode elicitation to a client that declares it', async () => {
    const { server, seen } = await pair({ elicitation: { form: {}, url: {} } });
    const answer = await servedClientChannels(() => server).askUser.ask({
      source: 'Deploy',
      message: 'Sign in to the registry, then come back',
      url: 'https://registry.example.com/login',
    });
    expect(answer).toEqual({ action: 'accept' });
    expect(seen[0]).toMatchObject({
      mode: 'url',
      message: 'Sign in to the registry, then come back',
      url: 'https://registry.example.com/login',
      elicitationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    await server.close();
  });

  test('a client with form elicitation only gets the question as a form (its message names the URL)', async () => {
    const { server, seen } = await pair({ elicitation: {} });
    await servedClientChannels(() => server).askUser.ask({
      source: 'Deploy',
      message: 'Open https://registry.example.com/login?',
      url: 'https://registry.example.com/login',
    });
    expect(seen[0]).toMatchObject({
      message: 'Open https://registry.example.com/login?',
      requestedSchema: { type: 'object' },
    });
    expect((seen[0] as { mode?: string }).mode).not.toBe('url');
    await server.close();
  });
});
