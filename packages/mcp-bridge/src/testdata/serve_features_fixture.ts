// Serves a session with resources, prompts and notices over stdio, for serve_features_test:
// `node --conditions=@toolshed/source --import tsx serve_features_fixture.ts <cwd>`.
import { createSession } from '@toolshed/core';
import { serveSession, sessionResults, workingFiles } from '../mod.ts';
import { featureFamily, greetPrompts } from './feature_family.ts';

const cwd = process.argv[2] ?? process.cwd();
const session = await createSession({
  cwd,
  families: [featureFamily()],
  permissions: { deny: ['Read(./secret.txt)'] },
});
const served = await serveSession(session, {
  transport: 'stdio',
  resources: (s) => [sessionResults(s), workingFiles(s)],
  prompts: () => greetPrompts,
});
await served.closed;
await session.close();
