import { contentToText, createSession } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';
import { lspTools } from '@toolshed/tool-lsp';

// Needs `npm install -g typescript-language-server typescript` (or set `command` to where it is).
const session = await createSession({
  cwd: process.cwd(),
  families: [
    fileTools(),
    lspTools({
      servers: {
        typescript: { command: 'typescript-language-server', args: ['--stdio'], extensions: ['.ts', '.tsx'] },
      },
    }),
  ],
});
const [result] = await session.run([
  {
    type: 'tool_use',
    id: 't1',
    name: 'LSP',
    input: { operation: 'findReferences', filePath: 'src/main.ts', line: 3, character: 17 },
  },
]);
console.log(contentToText(result!.content)); // "Found 3 references in 2 files …", then one "path:line:col: text" line each
await session.close(); // stops the language servers
