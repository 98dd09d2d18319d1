import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createSession } from '@toolshed/core';
import { mcpServers } from './family.ts';
import { defaultTokenFile } from './family.ts';
import type { McpAuthorize } from './oauth_provider.ts';
import { startOAuthFixture, type OAuthFixture } from './testdata/oauth_fixture.ts';

let home: string;
let fixture: OAuthFixture;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'mcp-oauth-home-'));
  fixture = await startOAuthFixture();
});

afterEach(async () => {
  await fixture.close();
  await rm(home, { recursive: true, force: true });
});

/** The user, signing in: follows the sign-in page to the redirect that carries the code. */
const signIn: McpAuthorize = async ({ authorizationUrl }) => {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  return new URL(response.headers.get('location')!, authorizationUrl);
};

const use = (name: string) => ({ type: 'tool_use' as const, id: 't1', name, input: {} });

async function session(options: Parameters<typeof mcpServers>[1]) {
  return await createSession({
    cwd: home,
    homeDir: home,
    permissions: { allow: ['mcp__remote'] },
    families: [
      mcpServers({ mcpServers: { remote: { type: 'http', url: fixture.url } } }, { homeDir: home, ...options }),
    ],
  });
}

describe('OAuth sign-in to a remote server', () => {
  test('signs in through discovery, registration and PKCE, calls with the token, and keeps it in ~/.toolshed (0600) for the next session', async () => {
    let asked = 0;
    const first = await session({ oauth: { authorize: async (request) => (asked++, await signIn(request)) } });
    try {
      expect(first.notices().filter((n) => n.level === 'error')).toEqual([]);
      const [result] = await first.run([use('mcp__remote__whoami')]);
      expect(result!.is_error).toBeFalsy();
      expect(result!.content).toMatch(/^client \S+ with scopes mcp:tools$/);
    } finally {
      await first.close();
    }
    expect(asked).toBe(1);
    const file = defaultTokenFile(home);
    expect(file).toBe(path.join(home, '.toolshed', 'mcp-oauth.json'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(file, 'utf8')) as Record<
      string,
      { tokens?: { access_token?: string }; codeVerifier?: string }
    >;
    expect(stored[`remote ${fixture.url}`]?.tokens?.access_token).toEqual(expect.any(String));
    expect(stored[`remote ${fixture.url}`]?.codeVerifier).toBeUndefined();

    // The next session uses the stored token: nobody is asked to sign in again.
    const second = await session({});
    try {
      const [result] = await second.run([use('mcp__remote__whoami')]);
      expect(result!.content).toMatch(/^client \S+ with scopes mcp:tools$/);
    } finally {
      await second.close();
    }
    expect(fixture.authorizations()).toBe(1);
  });

  test('without a sign-in callback or stored token, the server fails with the command that signs in', async () => {
    const s = await session({});
    try {
      const error = s.notices().find((n) => n.level === 'error')?.message;
      expect(error).toContain(
        'MCP server "remote" failed to start: it needs you to sign in (OAuth): run `toolshed mcp login remote`',
      );
      expect(error).toContain(`Sign-in page: ${new URL(fixture.url).origin}/authorize?`);
    } finally {
      await s.close();
    }
  });

  test('a redirect that comes back with another state (a forged sign-in) is refused, and no token is stored', async () => {
    const forged: McpAuthorize = async (request) => {
      const back = new URL(await signIn(request));
      back.searchParams.set('state', 'attacker-chosen');
      return back;
    };
    const s = await session({ oauth: { authorize: forged } });
    try {
      expect(s.notices().find((n) => n.level === 'error')?.message).toContain(
        'the sign-in came back with state "attacker-chosen", not the one sent',
      );
    } finally {
      await s.close();
    }
    const stored = JSON.parse(await readFile(defaultTokenFile(home), 'utf8').catch(() => '{}')) as Record<
      string,
      { tokens?: unknown }
    >;
    expect(stored[`remote ${fixture.url}`]?.tokens).toBeUndefined();
    expect(fixture.tokenRequests()).toBe(0);
  });

  test('a refused sign-in (error=access_denied) says so', async () => {
    const s = await session({
      oauth: {
        authorize: async ({ redirectUrl }) => `${redirectUrl}?error=access_denied&error_description=user+said+no`,
      },
    });
    try {
      expect(s.notices().find((n) => n.level === 'error')?.message).toContain(
        'the sign-in was refused (access_denied: user said no)',
      );
    } finally {
      await s.close();
    }
  });

  test('an expired token is refreshed with the stored refresh token, without asking the user', async () => {
    const first = await session({ oauth: { authorize: signIn } });
    await first.close();
    const file = defaultTokenFile(home);
    const stored = JSON.parse(await readFile(file, 'utf8')) as Record<
      string,
      { tokens: { access_token: string; refresh_token?: string } }
    >;
    const entry = stored[`remote ${fixture.url}`]!;
    expect(entry.tokens.refresh_token).toEqual(expect.any(String));
    entry.tokens.access_token = 'expired-or-revoked';
    await writeFile(file, JSON.stringify(stored), { mode: 0o600 });
    const before = fixture.tokenRequests();
    const second = await session({
      oauth: {
        authorize: async () => {
          throw new Error('the user was asked to sign in again');
        },
      },
    });
    try {
      expect(second.notices().filter((n) => n.level === 'error')).toEqual([]);
      const [result] = await second.run([use('mcp__remote__whoami')]);
      expect(result!.content).toMatch(/^client \S+ with scopes/);
    } finally {
      await second.close();
    }
    expect(fixture.tokenRequests()).toBe(before + 1);
  });
});
