import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createSession } from '@toolshed/core';
import { defaultTokenFile, mcpServers } from './family.ts';
import { loginMcpServer } from './mcp_login.ts';
import { startOAuthFixture, type OAuthFixture } from './testdata/oauth_fixture.ts';

let home: string;
let fixture: OAuthFixture;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'mcp-login-home-'));
  fixture = await startOAuthFixture();
});
afterEach(async () => {
  await fixture.close();
  await rm(home, { recursive: true, force: true });
});

describe('loginMcpServer', () => {
  test('the browser signs in and comes back to the loopback redirect; the tokens are stored and the next session uses them', async () => {
    const config = { mcpServers: { remote: { type: 'http' as const, url: fixture.url } } };
    const pages: string[] = [];
    const result = await loginMcpServer('remote', config, {
      homeDir: home,
      // The "browser": follows the sign-in page's redirect to the loopback callback, as a real one does.
      onAuthorizationUrl: (url) => void fetch(url).then(async (r) => pages.push(await r.text())),
    });
    expect(result).toEqual({ server: 'remote', tools: 1, signedIn: true });
    expect(pages).toEqual(['Signed in to remote. You can close this tab and go back to the terminal.\n']);
    expect((await stat(defaultTokenFile(home))).mode & 0o777).toBe(0o600);
    const session = await createSession({
      cwd: home,
      permissions: { allow: ['mcp__remote'] },
      families: [mcpServers(config, { homeDir: home })],
    });
    try {
      const [r] = await session.run([{ type: 'tool_use', id: 't', name: 'mcp__remote__whoami', input: {} }]);
      expect(r!.content).toMatch(/^client \S+ with scopes mcp:tools$/);
    } finally {
      await session.close();
    }
    // Logging in again forgets the old tokens and signs in anew.
    await loginMcpServer('remote', config, { homeDir: home, onAuthorizationUrl: (url) => void fetch(url) });
    expect(fixture.authorizations()).toBe(2);
    const stored = JSON.parse(await readFile(defaultTokenFile(home), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(stored)).toEqual([`remote ${fixture.url}`]);
  });

  test('a server not in the configuration, a stdio server, and a sign-in nobody finishes are errors that say so', async () => {
    const config = { mcpServers: { remote: { type: 'http' as const, url: fixture.url }, local: { command: 'x' } } };
    await expect(loginMcpServer('nope', config, { homeDir: home, onAuthorizationUrl: () => {} })).rejects.toThrow(
      'There is no MCP server "nope" in the configuration; its servers are "remote", "local".',
    );
    await expect(loginMcpServer('local', config, { homeDir: home, onAuthorizationUrl: () => {} })).rejects.toThrow(
      'MCP server "local" is a stdio server (a local process): sign-in is for remote servers',
    );
    await expect(
      loginMcpServer('remote', config, { homeDir: home, timeoutMs: 300, onAuthorizationUrl: () => {} }),
    ).rejects.toThrow(/^Signing in to MCP server "remote" failed: .*nobody came back from the sign-in page within 0 s/);
  });
});
