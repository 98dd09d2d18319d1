/**
 * `@toolshed/core/internal`: the building blocks the packages of the Toolshed repository share —
 * path resolution and the path guard's parts, rule parsing and matching, the permission decision
 * alone, result persistence, background-task buffers, error formatting. **Unstable**: these names
 * may change or go in any release, without a major version. An integrator or a family author
 * needs only `@toolshed/core`; reach in here when writing a package that works as this repo's
 * own families do, and pin the exact version.
 *
 * ```ts
 * import { isPathInside, resolvePath } from '@toolshed/core/internal';
 *
 * const file = resolvePath('src/a.ts', '/repo');
 * console.log(isPathInside(file, '/repo')); // true
 * ```
 *
 * @module
 */
export { formatToolDefinition, PROVIDER_FORMATS } from '../provider_format.ts';
export { toolInputJsonSchema } from '../json_schema.ts';
export { formatInputError, type FormatInputErrorOptions } from '../input_errors.ts';
export { closestNames, type ClosestNamesOptions } from '../closest_names.ts';
export { describeError } from '../describe_error.ts';
export { cannotAbort, neverAbortingSignal } from '../never_aborts.ts';
export { deferredNoticeText, MAX_INSTRUCTIONS_CHARS } from '../deferred_notice.ts';
export { type HookCondition, hookConditionMatcher, type HookConditionMatcherOptions } from '../hooks/hook_condition.ts';
export { matchesTool, validateMatcher } from '../hooks/hook_matcher.ts';
export { runHooks, type RunHooksOptions } from '../hooks/run_hooks.ts';
export type { HookRunResult, HooksOutcome } from '../hooks/types.ts';
export { quotedRules } from '../permissions/_checked_suggestions.ts';
export { decidePermission, denialMessage, type DecidePermissionOptions } from '../permissions/decide_permission.ts';
export { formatRule, parseRule, parseRules, type ParseRuleOptions } from '../permissions/rule_parser.ts';
export {
  coveredOnly,
  findBlanketDenyRule,
  ruleMatchesCall,
  ruleMatchesTool,
  type RuleMatchesCallOptions,
} from '../permissions/rule_matching.ts';
export {
  createPermissionContext,
  mergePermissionContexts,
  type CreatePermissionContextOptions,
} from '../permissions/permission_context.ts';
export type { PermissionContextLayer, PermissionPlacement } from '../permissions/permission_context.ts';
export { isPathInside } from '../permissions/is_path_inside.ts';
export { resolvePath } from '../permissions/resolve_path.ts';
export { PATH_UNRESOLVABLE, resolveRealPath, type ResolveRealPathOptions } from '../permissions/resolve_real_path.ts';
export {
  compilePathRule,
  matchPathRule,
  parsePathSpecifier,
  pathRuleRoots,
  pathRuleTarget,
} from '../permissions/path_rule.ts';
export {
  pathRuleCandidates,
  type PathRuleIndexBases,
  type PathRuleCandidatesOptions,
} from '../permissions/path_rule_index.ts';
export { toolRuleCandidates, type ToolRuleCandidatesOptions } from '../permissions/tool_rule_index.ts';
export type { CompiledPathRule, PathAnchor, PathRuleBases, PathSpecifier } from '../permissions/path_rule.ts';
export { approvedRealPaths, type ApprovedRealPathsOptions } from '../permissions/approved_paths.ts';
export {
  hardLinkedRuleFiles,
  hardLinkFolderListings,
  type HardLinkedRuleFile,
  type HardLinkedRuleFilesOptions,
  type HardLinkedRules,
  inodeKey,
  MAX_LISTED_ENTRIES,
  type UnlistedRuleFolder,
} from '../permissions/hard_linked_rules.ts';
export {
  type GitConfiguredPaths,
  type GitConfigSetting,
  gitConfiguredPaths,
  gitConfigSettings,
  gitRepositoryOf,
} from '../permissions/git_hooks_path.ts';
export {
  type GitProgramSetting,
  type GitProgramSettings,
  type GitProgramSettingsOptions,
  gitProgramSettings,
} from '../permissions/git_program_settings.ts';
export {
  PROTECTED_HOME_FILES,
  PROTECTED_NAME_TABLE,
  type ProtectedNameTable,
  protectedPath,
  type ProtectedPath,
} from '../permissions/protected_paths.ts';
export {
  caseInsensitivePaths,
  findPathRule,
  findProtectedWrite,
  outsideWorkingDirectories,
  PATH_RULE_COVERAGE,
  pathRuleApplies,
  pathRuleSuggestion,
  realWorkingDirectories,
  type RealWorkingDirectoriesOptions,
  RESOURCE_INVALID,
  resolveResources,
  ruleCoversPath,
  type PathRuleAppliesOptions,
  type PathCheckOptions,
} from '../permissions/path_guard.ts';
export type { FindPathRuleOptions, GuardedPath } from '../permissions/path_guard.ts';
export { checkRuleSpecifier, loosePrefixHint } from '../permissions/check_rule_specifier.ts';
export { CLAUDE_CODE_TOOL_NAMES } from '../permissions/claude_code_tool_names.ts';
export {
  readSettingsFile,
  type ReadSettingsFileOptions,
  type SettingsFileResult,
} from '../settings/read_settings_file.ts';
export {
  CLAUDE_CODE_SETTINGS_KEYS,
  PERMISSIONS_KEYS,
  settingsSchema,
  TOOLSHED_SETTINGS_KEYS,
  type SettingsFileContent,
} from '../settings/settings_schema.ts';
export { parseSettingSources, settingsFileLocations } from '../settings/setting_sources.ts';
export type { SettingsFileLocation } from '../settings/setting_sources.ts';
export { readTrustList, trustFilePath } from '../settings/project_trust.ts';
export type { TrustList } from '../settings/project_trust.ts';
export { hashContent } from '../results/file_state_cache.ts';
export { isSettledTime } from '../settled_time.ts';
export { MetricsRecorder } from '../results/metrics.ts';
export type { MetricsRecorderOptions } from '../results/metrics.ts';
export {
  applyTurnBudget,
  DEFAULT_TURN_BUDGET_CHARS,
  isPersistedPreview,
  persistLargeResult,
} from '../results/result_budget.ts';
export type {
  ApplyTurnBudgetOptions,
  PersistLargeResultOptions,
  PersistLargeResultOutcome,
  TurnBudgetItem,
  TurnBudgetOutcome,
} from '../results/result_budget.ts';
export { deniedQuoteGuard, quotedDeniedFile } from '../results/denied_quote_guard.ts';
export { checkKeepResults, removeSessionResults, sweepOldResults } from '../results/result_cleanup.ts';
export type { KeepResults, RemoveSessionResultsOptions } from '../results/result_cleanup.ts';
export { assertPrivateDir, prepareStateDir, stateDirName } from '../state_dir.ts';
export type { PrepareStateDirOptions, StateDirPlace } from '../state_dir.ts';
export { ownResultsRead, sessionResultsDir, type OwnResultsReadOptions } from '../permissions/own_results.ts';
export { SavedResults } from '../results/saved_results.ts';
export { foldedNote } from '../results/line_folder.ts';
export { BackgroundTasks, MAX_UNREAD_CHARS, UnreadBuffer } from '../tasks/background_tasks.ts';
export { DEFAULT_TASK_LOG_MAX_BYTES, taskLogName } from '../tasks/task_log.ts';
export { taskOutputInput, unknownTaskMessage } from '../tasks/task_output_tool.ts';
export { taskStopInput } from '../tasks/task_stop_tool.ts';
export {
  type NotReadReason,
  notReadMessage,
  readRegularFileSync,
  readShortRegularFile,
  type ReadRegularFileOptions,
} from '../read_regular_file.ts';
