// Servers that go wrong before or while starting, for the start tests: `node bad_start_server.mjs <mode> [pid file]`.
//   noisy   — logs a line and a broken JSON fragment to stdout, then serves as the fault server does;
//   garbage — writes only non-MCP lines to stdout, forever;
//   silent  — never writes anything and never exits (it never answers initialize);
//   exit    — says why on stderr and exits at once;
//   odd     — lists tools written a little off (no "type", no name, no inputSchema, a string input);
//   nolist  — answers tools/list with something that is not a tool list.
// Every mode writes its process id to the pid file first, so a test can see whether it was killed.
import { writeFileSync } from 'node:fs';

const [mode, pidFile] = process.argv.slice(2);
if (pidFile) writeFileSync(pidFile, String(process.pid));
switch (mode) {
  case 'noisy':
    console.log('Starting server... (a log line on the wrong stream)');
    process.stdout.write('{"half": \n');
    await import('./fault_server.mjs');
    break;
  case 'garbage':
    setInterval(() => console.log(`garbage ${Date.now()}`), 20);
    break;
  case 'silent':
    setInterval(() => {}, 1000);
    break;
  case 'exit':
    console.error('fatal: MISSING_TOKEN is not set');
    process.exit(1);
    break;
  case 'odd':
  case 'nolist': {
    const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const server = new Server({ name: 'odd', version: '1.0.0' }, { capabilities: { tools: {} } });
    // The low-level handler map, so the answer is sent as written, not checked by the SDK first.
    server._requestHandlers.set('tools/list', async () =>
      mode === 'nolist'
        ? { tools: 'none' }
        : {
            tools: [
              {
                name: 'untyped',
                description: 'An inputSchema without "type".',
                inputSchema: { properties: { text: { type: 'string' } }, required: ['text'] },
              },
              { description: 'No name at all.', inputSchema: { type: 'object' } },
              { name: 'bare', description: 'No inputSchema.' },
              { name: 'stringly', inputSchema: { type: 'string' } },
            ],
          },
    );
    server._requestHandlers.set('tools/call', async (request) => ({
      content: [{ type: 'text', text: `${request.params.name}: ${JSON.stringify(request.params.arguments ?? {})}` }],
    }));
    await server.connect(new StdioServerTransport());
    break;
  }
  default:
    throw new Error(`unknown mode ${mode}`);
}
