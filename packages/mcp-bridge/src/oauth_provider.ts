import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpRemoteServerConfig } from './config.ts';
import type { McpStoredCredentials, McpTokenStore } from './oauth_store.ts';

/** What an integrator's {@linkcode McpOAuthOptions.authorize} is given. */
export interface McpAuthorizeRequest {
  /** The server's name in the configuration. */
  server: string;
  /** Where to send the user (their browser) to sign in. */
  authorizationUrl: URL;
  /** Where the authorization server sends the browser back, with `code` and `state`. */
  redirectUrl: string;
}

/**
 * Sends the user to sign in and resolves with the URL the browser came back to (holding `code`
 * and `state`), or with the code alone. A sign-in that fails or is given up rejects.
 */
export type McpAuthorize = (request: McpAuthorizeRequest) => Promise<string | URL>;

/** How the bridge signs in to servers that ask for OAuth. */
export interface McpOAuthOptions {
  /**
   * Runs an interactive sign-in. Without it, a server that needs one fails to connect with a
   * message that says to run `toolshed mcp login <server>` (which stores tokens the session then uses).
   */
  authorize?: McpAuthorize;
  /** Where credentials are kept. @default fileTokenStore(`<home>/.toolshed/mcp-oauth.json`) */
  store?: McpTokenStore;
  /** The redirect URI registered for the client. @default `http://127.0.0.1:<oauth.callbackPort or 33418>/callback` */
  redirectUrl?: string;
  /** The client's name shown on consent screens. @default 'Toolshed' */
  clientName?: string;
}

/** The SDK's provider, plus the code an interactive sign-in brought back. */
export interface BridgeAuthProvider extends OAuthClientProvider {
  /** The authorization code of the sign-in just completed, once. */
  takeAuthorizationCode(): string | undefined;
}

/**
 * The OAuth client of one remote server, for the SDK's auth flow (discovery of the protected
 * resource and authorization server metadata, registration, PKCE, refresh, scope step-up):
 * `client_credentials` servers get the SDK's machine-client providers (secret or private-key
 * JWT); the others the authorization-code flow, with credentials kept in the store and the
 * sign-in itself left to `authorize`.
 *
 * @param server The server's name.
 * @param config Its configuration (`url`, `oauth`).
 * @param options The integrator's sign-in callback and store.
 * @returns A provider for `StreamableHTTPClientTransport`'s `authProvider`.
 *
 * @example
 * ```ts
 * import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
 * import { createAuthProvider, memoryTokenStore, type McpAuthorize, type McpRemoteServerConfig } from '@toolshed/mcp-bridge';
 * declare const config: McpRemoteServerConfig;
 * declare const openBrowser: McpAuthorize; // opens the authorization URL, resolves with the redirect it came back to
 *
 * const provider = createAuthProvider('github', config, { store: memoryTokenStore(), authorize: openBrowser });
 * new StreamableHTTPClientTransport(new URL(config.url), { authProvider: provider });
 * ```
 */
export function createAuthProvider(
  server: string,
  config: McpRemoteServerConfig,
  options: McpOAuthOptions & { store: McpTokenStore },
): BridgeAuthProvider {
  const oauth = config.oauth ?? {};
  const clientName = options.clientName ?? 'Toolshed';
  if (oauth.grantType === 'client_credentials') {
    const provider: OAuthClientProvider = oauth.privateKey
      ? new PrivateKeyJwtProvider({
          clientId: oauth.clientId!,
          privateKey: oauth.privateKey,
          algorithm: oauth.signingAlgorithm ?? 'RS256',
          clientName,
          ...(oauth.scope ? { scope: oauth.scope } : {}),
        })
      : new ClientCredentialsProvider({
          clientId: oauth.clientId!,
          clientSecret: oauth.clientSecret!,
          clientName,
          ...(oauth.scope ? { scope: oauth.scope } : {}),
        });
    return Object.assign(provider, { takeAuthorizationCode: () => undefined });
  }
  return new AuthorizationCodeProvider(server, config, options, clientName);
}

/**
 * The key of a server's credentials in a store: its name and URL (another URL is another sign-in).
 *
 * @param server The server's name.
 * @param url Its URL.
 * @returns The key.
 *
 * @example
 * ```ts
 * import { credentialsKey } from '@toolshed/mcp-bridge';
 *
 * credentialsKey('github', 'https://api.example.com/mcp'); // 'github https://api.example.com/mcp'
 * ```
 */
export function credentialsKey(server: string, url: string): string {
  return `${server} ${url}`;
}

class AuthorizationCodeProvider implements BridgeAuthProvider {
  readonly #server: string;
  readonly #config: McpRemoteServerConfig;
  readonly #options: McpOAuthOptions & { store: McpTokenStore };
  readonly #key: string;
  readonly #redirectUrl: string;
  readonly #clientName: string;
  #state: string | undefined;
  #code: string | undefined;
  readonly clientMetadataUrl?: string;

  constructor(
    server: string,
    config: McpRemoteServerConfig,
    options: McpOAuthOptions & { store: McpTokenStore },
    clientName: string,
  ) {
    this.#server = server;
    this.#config = config;
    this.#options = options;
    this.#key = credentialsKey(server, config.url);
    this.#redirectUrl = options.redirectUrl ?? `http://127.0.0.1:${config.oauth?.callbackPort ?? 33418}/callback`;
    this.#clientName = clientName;
    if (config.oauth?.clientMetadataUrl) this.clientMetadataUrl = config.oauth.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.#redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const oauth = this.#config.oauth ?? {};
    return {
      client_name: this.#clientName,
      redirect_uris: [this.#redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: oauth.clientSecret ? 'client_secret_basic' : 'none',
      ...(oauth.scope ? { scope: oauth.scope } : {}),
    };
  }

  state(): string {
    this.#state = randomBytes(16).toString('base64url');
    return this.#state;
  }

  async #load(): Promise<McpStoredCredentials> {
    return (await this.#options.store.load(this.#key)) ?? {};
  }

  async #update(change: (stored: McpStoredCredentials) => void): Promise<void> {
    const stored = await this.#load();
    change(stored);
    await this.#options.store.save(this.#key, stored);
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const oauth = this.#config.oauth ?? {};
    if (oauth.clientId)
      return { client_id: oauth.clientId, ...(oauth.clientSecret ? { client_secret: oauth.clientSecret } : {}) };
    const stored = await this.#load();
    // A registration made for another redirect URI (another callback port) cannot be used.
    if (stored.client && stored.redirectUrl === this.#redirectUrl)
      return stored.client as unknown as OAuthClientInformationMixed;
    return undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.#config.oauth?.clientId) return;
    await this.#update((s) => {
      s.client = info as unknown as Record<string, unknown>;
      s.redirectUrl = this.#redirectUrl;
    });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.#load()).tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.#update((s) => {
      s.tokens = tokens as unknown as Record<string, unknown>;
      delete s.codeVerifier;
    });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.#update((s) => {
      s.codeVerifier = codeVerifier;
    });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.#load()).codeVerifier;
    if (!verifier)
      throw new Error(
        `MCP server "${this.#server}": no sign-in is under way (the PKCE code verifier is missing); sign in again.`,
      );
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.#update((s) => {
      if (scope === 'all' || scope === 'client') {
        delete s.client;
        delete s.redirectUrl;
      }
      if (scope === 'all' || scope === 'tokens') delete s.tokens;
      if (scope === 'all' || scope === 'verifier') delete s.codeVerifier;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const authorize = this.#options.authorize;
    if (!authorize) {
      throw new Error(
        `MCP server "${this.#server}" needs you to sign in (OAuth): run \`toolshed mcp login ${this.#server}\`, or give mcpServers() an oauth.authorize callback. Sign-in page: ${authorizationUrl.href}`,
      );
    }
    const expected = this.#state;
    const answer = await authorize({ server: this.#server, authorizationUrl, redirectUrl: this.#redirectUrl });
    const text = String(answer);
    if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) {
      this.#code = text;
      return;
    }
    const back = new URL(text);
    const error = back.searchParams.get('error');
    if (error) {
      const description = back.searchParams.get('error_description');
      throw new Error(
        `MCP server "${this.#server}": the sign-in was refused (${error}${description ? `: ${description}` : ''}).`,
      );
    }
    if (expected !== undefined && back.searchParams.get('state') !== expected) {
      throw new Error(
        `MCP server "${this.#server}": the sign-in came back with state ${JSON.stringify(back.searchParams.get('state'))}, not the one sent; it was not started here, so it is refused. Sign in again.`,
      );
    }
    const code = back.searchParams.get('code');
    if (!code)
      throw new Error(
        `MCP server "${this.#server}": the sign-in came back without an authorization code (${back.href}).`,
      );
    this.#code = code;
  }

  takeAuthorizationCode(): string | undefined {
    const code = this.#code;
    this.#code = undefined;
    return code;
  }
}
