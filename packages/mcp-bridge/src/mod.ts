/**
 * `@toolshed/mcp-bridge`: any MCP server's tools as Toolshed tools (`mcpServers(config)`), and
 * any Toolshed session served to MCP clients (`serveSession`).
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { mcpServers } from '@toolshed/mcp-bridge';
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   families: [mcpServers({ mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } })],
 *   permissions: { deny: ['mcp__everything__toggle-simulated-logging'] },
 * });
 * const results = await session.run([{ type: 'tool_use', id: 't1', name: 'mcp__everything__echo', input: { message: 'hi' } }]);
 * await session.close(); // stops the servers
 * ```
 *
 * @module
 */
export {
  defaultTokenFile,
  listMcpServers,
  mcpServers,
  type ListMcpServersOptions,
  type McpServersOptions,
} from './family.ts';
export {
  createAuthProvider,
  credentialsKey,
  type BridgeAuthProvider,
  type McpAuthorize,
  type McpAuthorizeRequest,
  type McpOAuthOptions,
} from './oauth_provider.ts';
export { loginMcpServer, type LoginMcpServerOptions, type LoginMcpServerResult } from './mcp_login.ts';
export { fileTokenStore, memoryTokenStore, type McpStoredCredentials, type McpTokenStore } from './oauth_store.ts';
export { MCP_LOG_LEVELS, type McpLogLevel, type McpSamplingPolicy } from './_client_handlers.ts';
export {
  expandVariables,
  type ExpandVariablesOptions,
  parseMcpConfig,
  type McpConfig,
  type McpOAuthServerConfig,
  type McpRemoteServerConfig,
  type McpServerConfig,
  type McpServerPermissionConfig,
  type McpStdioServerConfig,
  type ParseMcpConfigOptions,
} from './config.ts';
export type { McpConnectionState, McpServerStatus } from './server_status.ts';
export {
  mcpServerSegment,
  mcpToolName,
  normalizeMcpName,
  uniqueToolName,
  type UniqueToolNameOptions,
} from './tool_name.ts';
export { mapCallResult, type McpCallResult, type McpContentBlock } from './map_call_result.ts';
export { buildMcpTool, MAX_MCP_DESCRIPTION_CHARS, type BuildMcpToolOptions } from './mcp_tool.ts';
export { listMcpResourcesTool, readMcpResourceTool, type ResourceServers } from './resource_tools.ts';
export { getMcpPromptTool, listMcpPromptsTool, type PromptServers } from './prompt_tools.ts';
export {
  serveSession,
  type ServeApprove,
  type ServedSession,
  type ServeSessionCommonOptions,
  type ServeSessionFactory,
  type ServeSessionHttpOptions,
  type ServeSessionOptions,
  type ServeSessionStdioOptions,
} from './serve_session.ts';
export {
  fileResourceUri,
  sessionResults,
  workingFiles,
  type ServeResourceSource,
  type WorkingFilesOptions,
} from './serve_resources.ts';
export { skillPrompts, type ServePromptSource } from './serve_prompts.ts';
export { servedClientChannels, type ServedClientChannels } from './serve_client_channels.ts';
export type { ServeFeatureOptions } from './_serve_features.ts';
export {
  createMcpPermissionPrompt,
  type McpPermissionAsker,
  type McpPermissionPrompt,
  type McpPermissionPromptOptions,
} from './mcp_permission_prompt.ts';
