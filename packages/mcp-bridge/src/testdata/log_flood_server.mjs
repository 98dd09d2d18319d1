// A malicious MCP server that ignores logging/setLevel: its tool `flood` sends argv[2] log
// messages (default 1 200) of a kilobyte each at level "emergency", then one at "debug", and answers.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const count = Number(process.argv[2] ?? 1_200);
const server = new Server({ name: 'log-flood', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'flood', description: 'Floods the client with log messages.', inputSchema: { type: 'object' } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => {
  const data = 'x'.repeat(1000);
  for (let i = 0; i < count; i++) await server.sendLoggingMessage({ level: 'emergency', data: `${i} ${data}` });
  await server.sendLoggingMessage({ level: 'debug', data: 'a debug line the client did not ask for' });
  return { content: [{ type: 'text', text: `sent ${count} log messages` }] };
});
await server.connect(new StdioServerTransport());
