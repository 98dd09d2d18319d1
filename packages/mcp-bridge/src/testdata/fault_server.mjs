// A small MCP server for the bridge's fault tests: a tool that crashes the server mid-call,
// one that never answers, one that changes the tool list, one that takes a set time (the bench's
// read-only one-second tool), and results of every content kind. Plain JavaScript so it starts
// fast, with the SDK's low-level Server so schemas are sent exactly as written here.
import { writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const readOnly = { readOnlyHint: true, destructiveHint: false };
const tools = [
  {
    name: 'crash',
    description: 'Exits the server process in the middle of the call.',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'hang',
    description: 'Never answers (until cancelled).',
    inputSchema: { type: 'object', properties: {} },
    annotations: readOnly,
  },
  {
    name: 'pid',
    description: 'Returns the process id of the server.',
    inputSchema: { type: 'object', properties: {} },
    annotations: readOnly,
  },
  {
    name: 'sleep',
    description: 'Waits the given number of milliseconds, reporting progress, then returns.',
    inputSchema: {
      type: 'object',
      properties: { ms: { type: 'integer', minimum: 0 } },
      required: ['ms'],
      additionalProperties: false,
    },
    annotations: readOnly,
  },
  {
    name: 'add_tool',
    description: 'Adds the tool "added" and tells the client the list changed.',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'fail',
    description: 'Answers with isError: a message on two lines and a screenshot (no content with empty: true).',
    inputSchema: { type: 'object', properties: { empty: { type: 'boolean' } } },
    annotations: { destructiveHint: true },
  },
  {
    name: 'kinds',
    description: 'Returns one block of every content kind.',
    inputSchema: { type: 'object', properties: {} },
    annotations: readOnly,
  },
  {
    name: 'big',
    description: 'Returns a long text of the given size.',
    inputSchema: { type: 'object', properties: { chars: { type: 'integer' } }, required: ['chars'] },
    annotations: readOnly,
  },
];
// The call-path tests' tools, listed only when asked for (other tests count the tools above).
const extraTools = [
  {
    name: 'structured',
    description: 'Returns the given value as structuredContent, checked or not against its outputSchema.',
    inputSchema: { type: 'object', properties: { value: {} } },
    outputSchema: {
      type: 'object',
      properties: { count: { type: 'integer' }, name: { type: 'string' } },
      required: ['count'],
    },
    annotations: readOnly,
  },
  {
    name: 'tick',
    description: 'Runs for ms milliseconds, sending a progress notification every "every" ms.',
    inputSchema: {
      type: 'object',
      properties: { ms: { type: 'integer' }, every: { type: 'integer' } },
      required: ['ms', 'every'],
    },
    annotations: readOnly,
  },
  {
    name: 'flood_stderr',
    description: 'Writes mb megabytes to stderr on one line (no newline), then answers.',
    inputSchema: { type: 'object', properties: { mb: { type: 'integer' } }, required: ['mb'] },
    annotations: readOnly,
  },
];
if (process.env.FAULT_EXTRA_TOOLS === '1') tools.push(...extraTools);

const server = new Server(
  { name: 'fault-server', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true } } },
);
// FAULT_ENDLESS_LIST=1: a list whose pages never end (each names a next one), 100 tools a page,
// the first with a description of 5 MB; with FAULT_BIG_SCHEMAS=1, 40 tools a page, each with a
// schema of 200 000 characters (8 MB a page, under the message limit).
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  if (process.env.FAULT_ENDLESS_LIST !== '1') return { tools };
  const page = Number(request.params?.cursor ?? 0);
  const big = process.env.FAULT_BIG_SCHEMAS === '1';
  const more = Array.from({ length: big ? 40 : 100 }, (_, i) => ({
    name: `t_${page}_${i}`,
    description: page === 0 && i === 0 && !big ? 'd'.repeat(5 << 20) : 'A tool of an endless list.',
    inputSchema: big ? { type: 'object', description: 's'.repeat(200_000) } : { type: 'object' },
  }));
  return { tools: page === 0 ? [...tools, ...more] : more, nextCursor: String(page + 1) };
});
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args = {} } = request.params;
  switch (name) {
    case 'crash':
      process.stderr.write('fault-server: crashing on purpose\n');
      setTimeout(() => process.exit(3), 20);
      return await new Promise(() => {});
    case 'hang':
      // On the client's cancellation, note it where the test can see it.
      return await new Promise((resolve) =>
        extra.signal.addEventListener('abort', () => {
          if (process.env.FAULT_MARKER) writeFileSync(process.env.FAULT_MARKER, 'cancelled by the client');
          resolve({ content: [] });
        }),
      );
    case 'pid':
      return { content: [{ type: 'text', text: String(process.pid) }] };
    case 'sleep': {
      const token = request.params._meta?.progressToken;
      if (token !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 0, total: 1, message: 'sleeping' },
        });
      await new Promise((resolve) => setTimeout(resolve, args.ms));
      return { content: [{ type: 'text', text: `slept ${args.ms} ms` }] };
    }
    case 'add_tool':
      if (!tools.some((t) => t.name === 'added'))
        tools.push({
          name: 'added',
          description: 'A tool that was added while the server ran.',
          inputSchema: { type: 'object' },
          annotations: readOnly,
        });
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: 'added' }] };
    case 'added':
      return { content: [{ type: 'text', text: 'the added tool ran' }] };
    case 'fail':
      if (args.empty) return { isError: true, content: [] };
      return {
        isError: true,
        content: [
          { type: 'text', text: 'first line of the failure\nsecond line with the detail' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
        ],
      };
    case 'kinds':
      return {
        content: [
          { type: 'text', text: 'text block' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'embedded notes' } },
          { type: 'resource_link', uri: 'file:///other.txt', name: 'other.txt', mimeType: 'text/plain' },
        ],
        structuredContent: { answer: 42 },
      };
    case 'structured':
      return {
        content: [{ type: 'text', text: String(JSON.stringify(args.value)) }],
        ...(args.value === undefined ? {} : { structuredContent: args.value }),
      };
    case 'tick': {
      const token = request.params._meta?.progressToken;
      const start = Date.now();
      for (let i = 1; Date.now() - start < args.ms; i++) {
        await new Promise((resolve) => setTimeout(resolve, args.every));
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i },
          });
      }
      return { content: [{ type: 'text', text: `ticked for ${args.ms} ms` }] };
    }
    case 'flood_stderr': {
      const chunk = 'e'.repeat(1 << 20);
      for (let i = 0; i < args.mb; i++)
        if (!process.stderr.write(chunk)) await new Promise((resolve) => process.stderr.once('drain', resolve));
      return { content: [{ type: 'text', text: `wrote ${args.mb} MB to stderr` }] };
    }
    case 'big':
      return { content: [{ type: 'text', text: 'x'.repeat(args.chars) }] };
    default:
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
  }
});
await server.connect(new StdioServerTransport());
