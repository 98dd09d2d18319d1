import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSession, defineFamily, type Session } from '@toolshed/core';
import { mcpServers } from './mod.ts';
import { PACKAGE_DIR } from './testdata/_helpers.ts';

// The server is a Toolshed session served over stdio (serve_features_fixture.ts), whose file://
// resources support subscriptions: the bridge reads one, and hears when it changes. Its
// instructions reach the deferred notice.
const FIXTURE = path.join(PACKAGE_DIR, 'src', 'testdata', 'serve_features_fixture.ts');
let served: string;
let home: string;
let session: Session;

beforeAll(async () => {
  served = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcp-subscribe-served-')));
  home = await mkdtemp(path.join(os.tmpdir(), 'mcp-subscribe-home-'));
  await writeFile(path.join(served, 'plan.md'), 'step 1');
  session = await createSession({
    cwd: home,
    homeDir: home,
    permissions: { allow: ['ReadMcpResource', 'ListMcpResources'] },
    families: [
      // Defers every MCP tool, as the toolsearch family does when they would crowd the context.
      defineFamily({
        name: 'defer-mcp',
        version: '0.0.0',
        tools: [],
        setup: (api) => api.setDeferralPolicy((entries) => new Set(entries.filter((e) => e.isMcp).map((e) => e.name))),
      }),
      mcpServers(
        {
          mcpServers: {
            shed: {
              command: process.execPath,
              args: ['--conditions=@toolshed/source', '--import', 'tsx', FIXTURE, served],
              cwd: PACKAGE_DIR,
            },
          },
        },
        { homeDir: home },
      ),
    ],
  });
}, 60_000);

afterAll(async () => {
  await session.close();
  await rm(served, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

const changed = (uri: string) => session.notices().filter((n) => n.message.includes(`resource ${uri} changed`));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 30));
}

test('a resource read is subscribed to: a change is one notice naming how to read it again, until it is read again', async () => {
  const uri = pathToFileURL(path.join(served, 'plan.md')).href;
  const read = () =>
    session.run([{ type: 'tool_use', id: `r${Date.now()}`, name: 'ReadMcpResource', input: { server: 'shed', uri } }]);
  const [first] = await read();
  expect(JSON.stringify(first!.content)).toContain('step 1');
  expect(changed(uri)).toHaveLength(0);

  await writeFile(path.join(served, 'plan.md'), 'step 2');
  await until(() => changed(uri).length > 0);
  expect(changed(uri)).toHaveLength(1);
  expect(changed(uri)[0]).toMatchObject({ level: 'info' });
  expect(changed(uri)[0]!.message).toContain(`ReadMcpResource with {"server": "shed", "uri": "${uri}"}`);
  // More changes before it is read again are not reported again.
  await writeFile(path.join(served, 'plan.md'), 'step 3');
  await new Promise((r) => setTimeout(r, 300));
  expect(changed(uri)).toHaveLength(1);

  const [second] = await read();
  expect(JSON.stringify(second!.content)).toContain('step 3');
  await writeFile(path.join(served, 'plan.md'), 'step 4');
  await until(() => changed(uri).length > 1);
  expect(changed(uri)).toHaveLength(2);
});

test("the server's instructions are in the deferred notice, under its deferred tools", () => {
  const notice = session.deferredNotice();
  expect(notice).toMatch(
    /- MCP server shed: mcp__shed__\{[^\n]*\}\n {2}Instructions: Read plan\.md before anything else\./,
  );
});
