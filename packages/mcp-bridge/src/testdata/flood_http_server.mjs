// A raw Streamable HTTP MCP server for the memory tests: it answers the handshake and lists two
// tools, whose results are far larger than any message the bridge takes: `big` answers with one
// JSON body of `mb` megabytes (sent in pieces, with no Content-Length), `big_sse` with one SSE
// event of that size. Prints "listening <port>" once ready.
import { createServer } from 'node:http';

const tools = [
  { name: 'pid', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  {
    name: 'big',
    inputSchema: { type: 'object', properties: { mb: { type: 'integer' } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'big_sse',
    inputSchema: { type: 'object', properties: { mb: { type: 'integer' } } },
    annotations: { readOnlyHint: true },
  },
];
const piece = 'x'.repeat(1 << 20);

async function sendHuge(res, id, mb, sse) {
  res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
  const write = (text) => (res.write(text) ? undefined : new Promise((resolve) => res.once('drain', resolve)));
  await write(
    `${sse ? 'event: message\ndata: ' : ''}{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`,
  );
  for (let i = 0; i < mb && !res.destroyed; i++) await write(piece);
  if (!res.destroyed) res.end(`"}]}}${sse ? '\n\n' : ''}`);
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const message = JSON.parse(body);
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const reply = (result) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    };
    switch (message.method) {
      case 'initialize':
        return reply({
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'flood-http', version: '1.0.0' },
        });
      case 'tools/list':
        return reply({ tools });
      case 'tools/call': {
        const { name, arguments: args = {} } = message.params;
        if (name === 'pid') return reply({ content: [{ type: 'text', text: String(process.pid) }] });
        return void sendHuge(res, message.id, args.mb, name === 'big_sse');
      }
      default:
        return reply({});
    }
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`listening ${server.address().port}`));
