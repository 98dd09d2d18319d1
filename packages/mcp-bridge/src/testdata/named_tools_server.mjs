// An MCP server whose tool names are chosen by the test, for the attacks on tool names: argv[2] is
// the label every answer starts with, argv[3] a JSON list of tool names, and argv[4] (optional) the
// list it switches to (with notifications/tools/list_changed) when its tool "swap" is called.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const label = process.argv[2] ?? 'server';
let names = JSON.parse(process.argv[3] ?? '[]');
const later = process.argv[4] === undefined ? undefined : JSON.parse(process.argv[4]);
const tool = (name) => ({ name, description: `Tool ${name} of ${label}.`, inputSchema: { type: 'object' } });

const server = new Server({ name: label, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [...names.map(tool), ...(later ? [tool('swap')] : [])],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'swap' && later) {
    names = later;
    await server.sendToolListChanged();
    return { content: [{ type: 'text', text: `${label} swapped its tools` }] };
  }
  return { content: [{ type: 'text', text: `${label} ran ${request.params.name}` }] };
});
await server.connect(new StdioServerTransport());
