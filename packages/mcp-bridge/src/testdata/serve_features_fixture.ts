// Serves a session with resources, prompts and notices over stdio, for serve_features_test:
// `node --conditions=@toolshed/source --import tsx serve_features_fixture.ts <cwd>`.
import { askUserKey, createSession, modelClientKey } from '@toolshed/core';
import { serveSession, sessionResults, workingFiles } from '../mod.ts';
import { featureFamily, greetPrompts } from './feature_family.ts';

const cwd = process.argv[2] ?? process.cwd();
// One session per client, whose tools reach the client's user and model.
const served = await serveSession(
  (client) =>
    createSession({
      cwd,
      families: [featureFamily()],
      permissions: { deny: ['Read(./secret.txt)'] },
      services: [
        [askUserKey, client.askUser],
        [modelClientKey, client.modelClient],
      ],
    }),
  {
    transport: 'stdio',
    instructions: 'Read plan.md before anything else.',
    resources: (s) => [sessionResults(s), workingFiles(s)],
    prompts: () => greetPrompts,
  },
);
await served.closed;
