// A client for the MCP conformance suite's client scenarios, built the way an integrator builds
// one: a session with `mcpServers(...)`, whose MCP tools are called through `session.run`.
// The suite starts a test server per scenario, runs this file with its URL as the last argument
// and the scenario in MCP_CONFORMANCE_SCENARIO (and, for some, MCP_CONFORMANCE_CONTEXT).
// `scripts/conformance_client.ts` runs every scenario.
import { createSession } from '@toolshed/core';
import { mcpServers } from '@toolshed/mcp-bridge';

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
const call = CALLS[scenario] ?? (scenario.startsWith('auth/') && !scenario.startsWith('auth/client-credentials') ? { tool: 'test-tool', input: {} } : undefined);

const session = await createSession({
  cwd: process.cwd(),
  families: [mcpServers({ mcpServers: { test: { type: 'http', url } } }, { startTimeoutMs: 20_000, toolTimeoutMs: 20_000 })],
  permissions: { allow: ['mcp__test'] },
});
let failed = false;
for (const notice of session.notices()) {
  console.error(`notice (${notice.level}): ${notice.message}`);
  if (notice.level === 'error') failed = true;
}
if (call && !failed) {
  const [result] = await session.run([{ type: 'tool_use', id: 'c1', name: `mcp__test__${call.tool}`, input: call.input }]);
  console.log(JSON.stringify(result));
  if (result?.is_error) failed = true;
}
await session.close();
process.exit(failed ? 1 : 0);
