/**
 * `@toolshed/core`: the tool contract, the pool, the seven-step pipeline, orchestration,
 * permissions (with the path guard), settings files, hooks, result budgets and the file-state cache — what every Toolshed family
 * plugs into and every agent loop talks to.
 *
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { createSession, type Family } from '@toolshed/core';
 * declare const fileTools: () => Family; // from @toolshed/tool-fs (core imports no family)
 *
 * // Families come from their own packages: fileTools() from @toolshed/tool-fs, shellTools() from @toolshed/tool-shell, …
 * const session = await createSession({ cwd: process.cwd(), families: [fileTools()], permissions: { allow: ['Edit(./src/**)'] } });
 * const client = new Anthropic();
 * const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Fix the typo in src/a.ts' }];
 * const reply = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 4096, messages, tools: session.toolsFor('anthropic') });
 * const results = await session.run(reply.content.filter((b) => b.type === 'tool_use'));
 * messages.push({ role: 'assistant', content: reply.content }, { role: 'user', content: results });
 * ```
 *
 * @module
 */
export { buildTool, DEFAULT_MAX_RESULT_SIZE_CHARS } from './tool.ts';
export type {
  AnyTool,
  DescriptionContext,
  JsonSchema,
  ObjectJsonSchema,
  ResourceAccess,
  Tool,
  ToolCallOptions,
  ToolCallResult,
  ToolDef,
  ToolProgress,
  ValidationResult,
} from './tool.ts';
export { contentToText } from './blocks.ts';
export type {
  ContentBlock,
  DocumentBlock,
  ImageBlock,
  TextBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
} from './blocks.ts';
export { defineFamily } from './family.ts';
export type {
  DeferralCandidate,
  DeferralPolicy,
  Family,
  FamilyDef,
  FamilySetupApi,
  ToolManifestEntry,
} from './family.ts';
export { createSession } from './session.ts';
export type { RunOptions, Session, SessionEvent, SessionOptions } from './session_types.ts';
export type { CatalogEntry, ToolCatalog, ToolContext, ToolDefinition } from './tool.ts';
export { ToolshedError } from './errors.ts';
export type { ToolshedErrorCode, ToolshedErrorCodes } from './error_codes.ts';
export { createServices, serviceKey } from './services.ts';
export type { ServiceKey, Services } from './services.ts';
export type {
  AnthropicTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
  ProviderFormat,
  ProviderToolsOptions,
} from './provider_format.ts';
export { PERMISSION_MODES } from './permissions/types.ts';
export type {
  CanUseTool,
  CanUseToolResult,
  HookPermissionDecision,
  PermissionBehavior,
  PermissionContext,
  PermissionDecision,
  PermissionMatcher,
  PermissionMode,
  PermissionOptions,
  PermissionResult,
  PermissionRule,
} from './permissions/types.ts';
export { HOOK_EVENTS } from './hooks/types.ts';
export { mergeHooks } from './hooks/merge_hooks.ts';
export { failClosedHooks } from './hooks/fail_closed_hooks.ts';
export { hookOutputSchema, validateHookOutput } from './hooks/hook_output.ts';
export type {
  CommandHook,
  FunctionHook,
  HookDefinition,
  HookEvent,
  HookFunction,
  HookInput,
  HookMatcherGroup,
  HookOutput,
  HooksConfig,
} from './hooks/types.ts';
export { PERMISSION_RULE_INVALID } from './permissions/rule_parser.ts';
export { matchDomainSpecifier, matchWildcardSpecifier } from './permissions/rule_matching.ts';
export { PERMISSION_OPTIONS_INVALID } from './permissions/permission_context.ts';
export { deniedPathFilter } from './permissions/denied_path_filter.ts';
export { lintRules } from './permissions/lint_rules.ts';
export type { LintFinding, LintFindingKind, LintRulesOptions, RuleLayer } from './permissions/lint_rules.ts';
export { assertSettingsValid, loadSettings, SETTINGS_INVALID } from './settings/load_settings.ts';
export type { LoadedSettings, LoadSettingsOptions } from './settings/load_settings.ts';
export type { FamilySettingsDef, FamilySettingValue } from './settings/family_settings.ts';
export { SETTING_SOURCES } from './settings/setting_sources.ts';
export type { SettingSource } from './settings/setting_sources.ts';
export { lintSettings } from './settings/lint_settings.ts';
export type { LintSettingsOptions, SettingsLintReport } from './settings/lint_settings.ts';
export { declineProjectTrust, isProjectTrusted, trustProject } from './settings/project_trust.ts';
export type { ProjectTrustOptions } from './settings/project_trust.ts';
export { FileStateCache } from './results/file_state_cache.ts';
export type { FileState, FileStateCacheOptions, FileStateInput, FreshnessCheck } from './results/file_state_cache.ts';
export type { CallMetrics, SessionMetrics, ToolMetrics } from './results/metrics.ts';
export { ResultSpill } from './results/result_spill.ts';
export type { ResultSpillOptions, ResultSpillOutcome } from './results/result_spill.ts';
export { savedFileStats } from './results/saved_results.ts';
export type { SavedFileStats } from './results/saved_results.ts';
export { LineFolder, SAVED_LINE_CHARS } from './results/line_folder.ts';
export { readMoreHint, savedOutputReaders } from './results/saved_output_hint.ts';
export type { SavedOutputReaders } from './results/saved_output_hint.ts';
export { STATE_DIR_UNSAFE } from './state_dir.ts';
export { askUserKey } from './ask_user.ts';
export type { AskUser, AskUserRequest, AskUserResponse } from './ask_user.ts';
export { modelClientKey } from './model_client.ts';
export {
  describeSkillArguments,
  SkillSources,
  skillArguments,
  skillSourcesKey,
  skillSourcesOf,
  skillUsage,
} from './skill_sources.ts';
export type {
  SkillArgument,
  SkillCompleteRequest,
  SkillLoadOptions,
  SkillSource,
  SkillSourceProblem,
  SourcedSkill,
} from './skill_sources.ts';
export type { ModelClient, ModelRequest } from './model_client.ts';
export {
  functionCallOutputsForOpenAIResponses,
  toolMessagesForOpenAIChat,
  toolUsesFromOpenAIChat,
  toolUsesFromOpenAIResponses,
} from './provider_messages.ts';
export type {
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesOutputItem,
} from './provider_messages.ts';
export { childSessionKey, narrowerMode, openChildSession } from './child_session.ts';
export type { ChildSessionOpener, ChildSessionOptions } from './child_session.ts';
export { backgroundTasksKey, backgroundTasksOf } from './tasks/background_tasks.ts';
export type { BackgroundTask, TaskStatus } from './tasks/background_tasks.ts';
export { openTaskLog } from './tasks/task_log.ts';
export type { TaskLog, TaskLogOptions } from './tasks/task_log.ts';
export { taskOutputTool } from './tasks/task_output_tool.ts';
export type { TaskOutputResult } from './tasks/task_output_tool.ts';
export { taskStopTool } from './tasks/task_stop_tool.ts';
export type { TaskStopResult } from './tasks/task_stop_tool.ts';
