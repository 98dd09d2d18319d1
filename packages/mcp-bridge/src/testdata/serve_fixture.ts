// Serves a session over stdio, for the serve tests and the inspector: `node --conditions=@toolshed/source
// --import tsx serve_fixture.ts <cwd>`.
import { createSession } from '@toolshed/core';
import { createMcpPermissionPrompt, serveSession } from '../mod.ts';
import { sessionTools } from './session_tools.ts';

const cwd = process.argv[2] ?? process.cwd();
const prompt = createMcpPermissionPrompt();
const session = await createSession({ cwd, tools: sessionTools(), canUseTool: prompt.canUseTool });
const served = await serveSession(session, {
  transport: 'stdio',
  permissionPrompt: prompt,
  approve: process.env['SERVE_APPROVE'] === 'deny' ? 'deny' : 'elicit',
  name: 'toolshed-test',
});
await served.closed;
await session.close();
