/**
 * `@toolshed/core`: the tool contract, the pool, the seven-step pipeline, orchestration,
 * permissions (with the path guard), settings files, hooks, result budgets and the file-state cache — what every Toolshed family
 * plugs into and every agent loop talks to.
 *
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { createSession } from '@toolshed/core';
 * import { fileTools } from '@toolshed/tool-fs';
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
export { formatToolDefinition, PROVIDER_FORMATS } from './provider_format.ts';
export type {
  AnthropicTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
  ProviderFormat,
  ProviderToolsOptions,
} from './provider_format.ts';
export { toolInputJsonSchema } from './json_schema.ts';
export { formatInputError } from './input_errors.ts';
export { closestNames, type ClosestNamesOptions } from './closest_names.ts';
export { describeError } from './describe_error.ts';
export { deferredNoticeText, MAX_INSTRUCTIONS_CHARS } from './deferred_notice.ts';
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
export { matchesTool, validateMatcher } from './hooks/hook_matcher.ts';
export { runHooks, type RunHooksOptions } from './hooks/run_hooks.ts';
export type { HookRunResult, HooksOutcome } from './hooks/types.ts';
export { decidePermission, denialMessage, type DecidePermissionOptions } from './permissions/decide_permission.ts';
export { formatRule, parseRule, parseRules, PERMISSION_RULE_INVALID } from './permissions/rule_parser.ts';
export {
  coveredOnly,
  findBlanketDenyRule,
  matchDomainSpecifier,
  matchWildcardSpecifier,
  ruleMatchesCall,
  ruleMatchesTool,
} from './permissions/rule_matching.ts';
export {
  createPermissionContext,
  mergePermissionContexts,
  PERMISSION_OPTIONS_INVALID,
} from './permissions/permission_context.ts';
export type { PermissionContextLayer, PermissionPlacement } from './permissions/permission_context.ts';
export { isPathInside } from './permissions/is_path_inside.ts';
export { resolvePath } from './permissions/resolve_path.ts';
export { PATH_UNRESOLVABLE, resolveRealPath, type ResolveRealPathOptions } from './permissions/resolve_real_path.ts';
export {
  compilePathRule,
  matchPathRule,
  parsePathSpecifier,
  pathRuleRoots,
  pathRuleTarget,
} from './permissions/path_rule.ts';
export { pathRuleCandidates, type PathRuleIndexBases } from './permissions/path_rule_index.ts';
export { toolRuleCandidates, type ToolRuleCandidatesOptions } from './permissions/tool_rule_index.ts';
export type { CompiledPathRule, PathAnchor, PathRuleBases, PathSpecifier } from './permissions/path_rule.ts';
export { deniedPathFilter } from './permissions/denied_path_filter.ts';
export { PROTECTED_HOME_FILES, protectedPath, type ProtectedPath } from './permissions/protected_paths.ts';
export {
  caseInsensitivePaths,
  findPathRule,
  findProtectedWrite,
  outsideWorkingDirectories,
  PATH_RULE_COVERAGE,
  pathRuleApplies,
  pathRuleSuggestion,
  realWorkingDirectories,
  RESOURCE_INVALID,
  resolveResources,
  ruleCoversPath,
} from './permissions/path_guard.ts';
export type { FindPathRuleOptions, GuardedPath } from './permissions/path_guard.ts';
export { checkRuleSpecifier, loosePrefixHint } from './permissions/check_rule_specifier.ts';
export { lintRules } from './permissions/lint_rules.ts';
export { CLAUDE_CODE_TOOL_NAMES } from './permissions/claude_code_tool_names.ts';
export type { LintFinding, LintFindingKind, LintRulesOptions, RuleLayer } from './permissions/lint_rules.ts';
export { assertSettingsValid, loadSettings, SETTINGS_INVALID } from './settings/load_settings.ts';
export type { LoadedSettings, LoadSettingsOptions } from './settings/load_settings.ts';
export {
  readSettingsFile,
  type ReadSettingsFileOptions,
  type SettingsFileResult,
} from './settings/read_settings_file.ts';
export type { FamilySettingsDef, FamilySettingValue } from './settings/family_settings.ts';
export {
  CLAUDE_CODE_SETTINGS_KEYS,
  PERMISSIONS_KEYS,
  settingsSchema,
  TOOLSHED_SETTINGS_KEYS,
  type SettingsFileContent,
} from './settings/settings_schema.ts';
export { parseSettingSources, SETTING_SOURCES, settingsFileLocations } from './settings/setting_sources.ts';
export type { SettingsFileLocation, SettingSource } from './settings/setting_sources.ts';
export { lintSettings } from './settings/lint_settings.ts';
export type { LintSettingsOptions, SettingsLintReport } from './settings/lint_settings.ts';
export {
  declineProjectTrust,
  isProjectTrusted,
  readTrustList,
  trustFilePath,
  trustProject,
} from './settings/project_trust.ts';
export type { ProjectTrustOptions, TrustList } from './settings/project_trust.ts';
export { FileStateCache, hashContent } from './results/file_state_cache.ts';
export type { FileState, FileStateCacheOptions, FileStateInput, FreshnessCheck } from './results/file_state_cache.ts';
export { MetricsRecorder } from './results/metrics.ts';
export type { CallMetrics, MetricsRecorderOptions, SessionMetrics, ToolMetrics } from './results/metrics.ts';
export {
  applyTurnBudget,
  DEFAULT_TURN_BUDGET_CHARS,
  isPersistedPreview,
  persistLargeResult,
} from './results/result_budget.ts';
export type {
  ApplyTurnBudgetOptions,
  PersistLargeResultOptions,
  PersistLargeResultOutcome,
  TurnBudgetItem,
  TurnBudgetOutcome,
} from './results/result_budget.ts';
export { ResultSpill } from './results/result_spill.ts';
export type { ResultSpillOptions, ResultSpillOutcome } from './results/result_spill.ts';
export { deniedQuoteGuard, quotedDeniedFile } from './results/denied_quote_guard.ts';
export { checkKeepResults, removeSessionResults, sweepOldResults } from './results/result_cleanup.ts';
export type { KeepResults, RemoveSessionResultsOptions } from './results/result_cleanup.ts';
export { assertPrivateDir, prepareStateDir, STATE_DIR_UNSAFE, stateDirName } from './state_dir.ts';
export type { PrepareStateDirOptions, StateDirPlace } from './state_dir.ts';
export { ownResultsRead, sessionResultsDir } from './permissions/own_results.ts';
export { askUserKey } from './ask_user.ts';
export type { AskUser, AskUserRequest, AskUserResponse } from './ask_user.ts';
export { modelClientKey } from './model_client.ts';
export { SkillSources, skillArguments, skillSourcesKey, skillSourcesOf } from './skill_sources.ts';
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
export {
  BackgroundTasks,
  backgroundTasksKey,
  backgroundTasksOf,
  MAX_UNREAD_CHARS,
  UnreadBuffer,
} from './tasks/background_tasks.ts';
export type { BackgroundTask, TaskStatus } from './tasks/background_tasks.ts';
export { DEFAULT_TASK_LOG_MAX_BYTES, openTaskLog, taskLogName } from './tasks/task_log.ts';
export type { TaskLog, TaskLogOptions } from './tasks/task_log.ts';
export { taskOutputInput, taskOutputTool, unknownTaskMessage } from './tasks/task_output_tool.ts';
export type { TaskOutputResult } from './tasks/task_output_tool.ts';
export { taskStopInput, taskStopTool } from './tasks/task_stop_tool.ts';
export type { TaskStopResult } from './tasks/task_stop_tool.ts';
