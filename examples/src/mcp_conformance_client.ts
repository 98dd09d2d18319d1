// A client for the MCP conformance suite's client scenarios, built the way an integrator builds
// one: a session with `mcpServers(...)`, whose MCP tools are called through `session.run`.
// The suite starts a test server per scenario, runs this file with its URL as the last argument
// and the scenario in MCP_CONFORMANCE_SCENARIO (and, for some, MCP_CONFORMANCE_CONTEXT).
// `scripts/conformance_client.ts` runs every scenario.
import { askUserKey, createSession, type AskUser } from '@toolshed/core';
import { mcpServers, memoryTokenStore, type McpAuthorize, type McpOAuthServerConfig } from '@toolshed/mcp-bridge';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
if (!url || !/^https?:/.test(url)) {
  console.error('usage: mcp_conformance_client <server-url> (with MCP_CONFORMANCE_SCENARIO set)');
  process.exit(2);
}

/** The tool each scenario's test server expects to be called, with its arguments. */
const CALLS: Record<string, { tool: string; input: Record<string, unknown> } | undefined> = {
  tools_call: { tool: 'add_numbers', input: { a: 2, b: 3 } },
  'elicitation-sep1034-client-defaults': { tool: 'test_client_elicitation_defaults', input: {} },
  'sse-retry': { tool: 'test_reconnection', input: {} },
};
const call =
  CALLS[scenario] ??
  (scenario.startsWith('auth/') && !scenario.startsWith('auth/client-credentials')
    ? { tool: 'test-tool', input: {} }
    : undefined);

// The scenario's own data: pre-registered client ids, secrets, keys.
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
};
const oauth: McpOAuthServerConfig = {
  // Where the authorization server supports client ID metadata documents, this URL is the client's id.
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
};
if (scenario === 'auth/pre-registration')
  Object.assign(oauth, { clientId: context.client_id, clientSecret: context.client_secret });
if (scenario.startsWith('auth/client-credentials')) {
  Object.assign(
    oauth,
    { grantType: 'client_credentials', clientId: context.client_id },
    context.private_key_pem
      ? { privateKey: context.private_key_pem, signingAlgorithm: context.signing_algorithm ?? 'ES256' }
      : { clientSecret: context.client_secret },
  );
}

// The user, as this client plays it: signs in at once (the suite's authorization server
// approves without a page, answering with a redirect that holds the code) ...
const authorize: McpAuthorize = async ({ authorizationUrl }) => {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
};
// ... and accepts every question leaving the fields blank, so the form's defaults are sent.
const askUser: AskUser = { ask: async () => ({ action: 'accept', content: {} }) };

const session = await createSession({
  cwd: process.cwd(),
  families: [
    mcpServers(
      { mcpServers: { test: { type: 'http', url, oauth } } },
      { startTimeoutMs: 20_000, toolTimeoutMs: 20_000, oauth: { authorize, store: memoryTokenStore() } },
    ),
  ],
  permissions: { allow: ['mcp__test'] },
  services: [[askUserKey, askUser]],
});
let failed = false;
for (const notice of session.notices()) {
  console.error(`notice (${notice.level}): ${notice.message}`);
  if (notice.level === 'error') failed = true;
}
if (call && !failed) {
  const [result] = await session.run([
    { type: 'tool_use', id: 'c1', name: `mcp__test__${call.tool}`, input: call.input },
  ]);
  console.log(JSON.stringify(result));
  if (result?.is_error) failed = true;
}
await session.close();
process.exit(failed ? 1 : 0);
