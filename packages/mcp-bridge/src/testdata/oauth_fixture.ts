// A loopback OAuth 2.1 authorization server and an MCP server that it protects, on one port of
// 127.0.0.1: the SDK's own authorization-server router (metadata, dynamic registration,
// authorize with PKCE, token, refresh) over its in-memory demo provider, which approves every
// sign-in at once; the MCP endpoint answers 401 with WWW-Authenticate until given its token.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** The demo provider, with refresh tokens (it issues none of its own). */
class RefreshingProvider extends DemoInMemoryAuthProvider {
  readonly #refresh = new Map<string, { clientId: string; scopes: string[] }>();

  override async exchangeAuthorizationCode(...args: Parameters<DemoInMemoryAuthProvider['exchangeAuthorizationCode']>) {
    const tokens = await super.exchangeAuthorizationCode(...args);
    const refresh = randomUUID();
    this.#refresh.set(refresh, { clientId: args[0].client_id, scopes: tokens.scope ? tokens.scope.split(' ') : [] });
    return { ...tokens, refresh_token: refresh };
  }

  override async verifyAccessToken(token: string) {
    // An unknown or expired token is a 401 invalid_token (the demo's plain error would be a 500).
    try {
      return await super.verifyAccessToken(token);
    } catch (e) {
      throw new InvalidTokenError((e as Error).message);
    }
  }

  override async exchangeRefreshToken(
    client: Parameters<DemoInMemoryAuthProvider['exchangeRefreshToken']>[0],
    refreshToken: string,
  ) {
    const grant = this.#refresh.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    const token = randomUUID();
    (this as unknown as { tokens: Map<string, unknown> }).tokens.set(token, {
      token,
      clientId: grant.clientId,
      scopes: grant.scopes,
      expiresAt: Date.now() + 3_600_000,
      type: 'access',
    });
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: 3600,
      scope: grant.scopes.join(' '),
      refresh_token: refreshToken,
    };
  }
}

export interface OAuthFixture {
  /** The MCP endpoint. */
  url: string;
  /** How many times the authorization endpoint was visited (sign-ins). */
  authorizations: () => number;
  /** How many access tokens were handed out (code exchanges and refreshes). */
  tokenRequests: () => number;
  close: () => Promise<void>;
}

export async function startOAuthFixture(): Promise<OAuthFixture> {
  const app = express();
  let authorizations = 0;
  let tokenRequests = 0;
  app.use((req, _res, next) => {
    if (req.path === '/authorize') authorizations++;
    if (req.path === '/token') tokenRequests++;
    next();
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = new URL('/mcp', base);
  const provider = new RefreshingProvider();
  app.use(
    mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }),
  );
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.post('/mcp', express.json(), bearer, async (req, res) => {
    const mcp = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says which OAuth client called.' }, async (extra) => ({
      content: [
        {
          type: 'text',
          text: `client ${extra.authInfo?.clientId ?? 'nobody'} with scopes ${extra.authInfo?.scopes.join(' ') || '(none)'}`,
        },
      ],
    }));
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return {
    url: mcpUrl.href,
    authorizations: () => authorizations,
    tokenRequests: () => tokenRequests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
