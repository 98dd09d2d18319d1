import { z } from 'zod';
import { PERMISSION_MODES } from '../permissions/types.ts';

/** Keys of a settings file that Toolshed reads. */
export const TOOLSHED_SETTINGS_KEYS: readonly string[] = [
  '$schema',
  'permissions',
  'hooks',
  'failClosedHooks',
  'disableAllHooks',
  'env',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'disabledMcpjsonServers',
];

/**
 * Top-level keys of Claude Code's `settings.json` that Toolshed does not use: a file may hold
 * them (each gives one warning that it is ignored), so that a Claude Code project's settings
 * load unchanged, while a key that is neither Toolshed's nor Claude Code's is an error with the
 * closest key suggested.
 */
export const CLAUDE_CODE_SETTINGS_KEYS: readonly string[] = [
  'advisorModel',
  'agent',
  'allowManagedHooksOnly',
  'allowManagedMcpServersOnly',
  'allowManagedPermissionRulesOnly',
  'allowedHttpHookUrls',
  'allowedMcpServers',
  'alwaysThinkingEnabled',
  'apiKeyHelper',
  'attribution',
  'autoDreamEnabled',
  'autoMemoryDirectory',
  'autoMemoryEnabled',
  'autoMode',
  'autoUpdatesChannel',
  'availableModels',
  'awsAuthRefresh',
  'awsCredentialExport',
  'blockedMarketplaces',
  'claudeMdExcludes',
  'cleanupPeriodDays',
  'companyAnnouncements',
  'defaultShell',
  'deniedMcpServers',
  'disableAutoMode',
  'disableDeepLinkRegistration',
  'effortLevel',
  'enabledPlugins',
  'extraKnownMarketplaces',
  'fastMode',
  'fastModePerSessionOptIn',
  'feedbackSurveyRate',
  'fileSuggestion',
  'forceLoginMethod',
  'forceLoginOrgUUID',
  'gcpAuthRefresh',
  'httpHookAllowedEnvVars',
  'includeCoAuthoredBy',
  'includeGitInstructions',
  'language',
  'model',
  'modelOverrides',
  'otelHeadersHelper',
  'outputStyle',
  'plansDirectory',
  'pluginConfigs',
  'pluginTrustMessage',
  'prefersReducedMotion',
  'promptSuggestionEnabled',
  'remote',
  'respectGitignore',
  'sandbox',
  'showClearContextOnPlanAccept',
  'showThinkingSummaries',
  'showTurnDuration',
  'skipAutoPermissionPrompt',
  'skipDangerousModePermissionPrompt',
  'skipWebFetchPreflight',
  'spinnerTipsEnabled',
  'spinnerTipsOverride',
  'spinnerVerbs',
  'sshConfigs',
  'statusLine',
  'strictKnownMarketplaces',
  'strictPluginOnlyCustomization',
  'subagentStatusLine',
  'syntaxHighlightingDisabled',
  'terminalTitleFromRename',
  'useAutoModeDuringPlan',
  'worktree',
  'xaaIdp',
];

/** Keys of `permissions`. `disableBypassPermissionsMode: "disable"` refuses `bypassPermissions`. */
export const PERMISSIONS_KEYS: readonly string[] = [
  'allow',
  'deny',
  'ask',
  'defaultMode',
  'additionalDirectories',
  'disableBypassPermissionsMode',
];

/** Keys of Claude Code's `permissions` that Toolshed does not use (ignored with a warning). */
export const CLAUDE_CODE_PERMISSIONS_KEYS: readonly string[] = ['disableAutoMode'];

/** Claude Code hook events that Toolshed does not run; accepted with a warning. */
export const CLAUDE_CODE_ONLY_HOOK_EVENTS: readonly string[] = [
  'ConfigChange',
  'CwdChanged',
  'Elicitation',
  'ElicitationResult',
  'FileChanged',
  'InstructionsLoaded',
  'Notification',
  'PermissionDenied',
  'PostCompact',
  'PermissionRequest',
  'PreCompact',
  'SessionEnd',
  'SessionStart',
  'Stop',
  'SubagentStart',
  'StopFailure',
  'SubagentStop',
  'TaskCompleted',
  'TaskCreated',
  'TeammateIdle',
  'Setup',
  'UserPromptSubmit',
  'WorktreeCreate',
  'WorktreeRemove',
];

/**
 * Keys of one command hook in a settings file. Claude Code's `if`, `async` and `shell` are
 * honoured; `statusMessage` and `once` are accepted and not used (a status line; skills only);
 * `asyncRewake` is accepted with a warning.
 */
export const COMMAND_HOOK_KEYS: readonly string[] = [
  'type',
  'command',
  'timeout',
  'failClosed',
  'statusMessage',
  'once',
  'async',
  'asyncRewake',
  'shell',
  'if',
];

/** Keys of one http hook in a settings file. */
export const HTTP_HOOK_KEYS: readonly string[] = [
  'type',
  'url',
  'headers',
  'allowedEnvVars',
  'timeout',
  'failClosed',
  'statusMessage',
  'once',
  'if',
];

/** Claude Code hook types Toolshed does not run (a model call): accepted with one warning each and skipped. */
export const CLAUDE_CODE_ONLY_HOOK_TYPES: readonly string[] = ['prompt', 'agent'];

const ruleList = z.array(z.string());

/**
 * The zod schema of a settings file (`~/.toolshed/settings.json`, `.toolshed/settings.json`,
 * `.toolshed/settings.local.json`, and Claude Code's `.claude/settings*.json`): the shape only.
 * {@linkcode readSettingsFile} checks it key by key with messages that name the fix, and the
 * rules themselves with the rule parser.
 *
 * @example
 * ```ts
 * import { settingsSchema } from '@toolshed/core/internal';
 *
 * settingsSchema.safeParse({ permissions: { allow: ['Bash(npm test:*)'], defaultMode: 'acceptEdits' } }).success; // true
 * ```
 */
export const settingsSchema = z.looseObject({
  $schema: z.string().optional(),
  permissions: z
    .strictObject({
      allow: ruleList.optional(),
      deny: ruleList.optional(),
      ask: ruleList.optional(),
      defaultMode: z.enum(PERMISSION_MODES as [string, ...string[]]).optional(),
      additionalDirectories: z.array(z.string()).optional(),
      disableBypassPermissionsMode: z.literal('disable').optional(),
    })
    .optional(),
  disableAllHooks: z.boolean().optional(),
  /** Environment variables for the processes tools start (the Bash tool's commands). */
  env: z.record(z.string(), z.string()).optional(),
  enableAllProjectMcpServers: z.boolean().optional(),
  enabledMcpjsonServers: z.array(z.string()).optional(),
  disabledMcpjsonServers: z.array(z.string()).optional(),
  /** Every PreToolUse hook blocks its call on any error, timeout or malformed reply. */
  failClosedHooks: z.boolean().optional(),
  hooks: z
    .record(
      z.string(),
      z.array(
        z.looseObject({
          matcher: z.string().optional(),
          hooks: z.array(
            z.union([
              z.looseObject({
                type: z.literal('command'),
                command: z.string().min(1),
                timeout: z.number().positive().optional(),
                failClosed: z.boolean().optional(),
                if: z.string().optional(),
                async: z.boolean().optional(),
                shell: z.enum(['bash', 'powershell']).optional(),
              }),
              z.looseObject({
                type: z.literal('http'),
                url: z.string().min(1),
                headers: z.record(z.string(), z.string()).optional(),
                allowedEnvVars: z.array(z.string()).optional(),
                timeout: z.number().positive().optional(),
                failClosed: z.boolean().optional(),
                if: z.string().optional(),
              }),
            ]),
          ),
        }),
      ),
    )
    .optional(),
});

/** What a settings file holds, as {@linkcode settingsSchema} describes it. */
export type SettingsFileContent = z.infer<typeof settingsSchema>;
