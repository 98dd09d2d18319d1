// A small MCP server for URL-mode elicitation (MCP 2025-11-25): `pay` asks the client's user to
// open a page (`elicitation/create` with mode "url") and says what the user answered, then tells
// the client the interaction is complete; `needs_page` refuses with error -32042 (URL elicitation
// required); `bad_url` asks to open a URL that is not http(s). `url_capable` says whether the
// client declared URL elicitation.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';

const tool = (name, description) => ({ name, description, inputSchema: { type: 'object', properties: {} } });
const server = new Server({ name: 'url-elicit', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    tool('pay', 'Asks the user to open the payment page.'),
    tool('needs_page', 'Refuses until the user signed in on a page.'),
    tool('bad_url', 'Asks the user to open a javascript: URL.'),
    tool('url_capable', 'Whether the client declared URL elicitation.'),
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  const text = (t) => ({ content: [{ type: 'text', text: t }] });
  if (name === 'url_capable') return text(String(server.getClientCapabilities()?.elicitation?.url !== undefined));
  if (name === 'pay' || name === 'bad_url') {
    const url = name === 'pay' ? 'https://pay.example.com/checkout/42' : 'javascript:alert(1)';
    const answer = await server.elicitInput({ mode: 'url', message: 'Pay for the order', url, elicitationId: 'el-42' });
    if (answer.action === 'accept') await server.createElicitationCompletionNotifier('el-42')();
    return text(`user: ${answer.action}`);
  }
  if (name === 'needs_page')
    throw new UrlElicitationRequiredError([
      {
        mode: 'url',
        message: 'Sign in to the tracker first',
        url: 'https://tracker.example.com/login',
        elicitationId: 'el-7',
      },
    ]);
  throw new Error(`no tool ${name}`);
});
await server.connect(new StdioServerTransport());
