// A language server that misbehaves on purpose, for the LSP tool's fault tests.
//   node fake_server.mjs hang            never answers anything, not even initialize
//   node fake_server.mjs hang-requests   answers initialize, then never answers a request (not even shutdown)
//   node fake_server.mjs hang-with-child DIR
//                                        starts a child process (its pid in DIR/child.pid), answers initialize,
//                                        then never answers a request
//   node fake_server.mjs crash-once DIR  answers initialize; the first definition request in DIR exits with code 3,
//                                         later ones (a restarted server) answer with no definition
//   node fake_server.mjs far-definition FILE
//                                        answers every definition request with line 3 of FILE
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

const [mode, dir] = process.argv.slice(2);
if (mode === 'hang-with-child') {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  writeFileSync(path.join(dir, 'child.pid'), String(child.pid));
}
const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
const never = () => new Promise(() => {});
connection.onRequest((method) => {
  if (mode === 'hang') return never();
  if (method === 'initialize')
    return { capabilities: { definitionProvider: true, documentSymbolProvider: true, textDocumentSync: 1 } };
  if (mode === 'hang-requests' || mode === 'hang-with-child') return never(); // shutdown included: close() must kill it
  if (method === 'shutdown') return null;
  if (mode === 'far-definition' && method === 'textDocument/definition')
    return [
      {
        uri: `file://${dir}`,
        range: { start: { line: 2, character: 0 }, end: { line: 2, character: 6 } },
      },
    ];
  if (mode === 'crash-once' && method === 'textDocument/definition') {
    const marker = path.join(dir, 'crashed-once');
    if (!existsSync(marker)) {
      writeFileSync(marker, String(process.pid));
      process.stderr.write('fake server: crashing on purpose\n');
      process.exit(3);
    }
    return null;
  }
  return null;
});
connection.onNotification('exit', () => process.exit(0));
connection.listen();
