import { z } from 'zod';
import { PERMISSION_MODES } from '../permissions/types.ts';

/** Keys of a settings file that Toolshed reads. */
export const TOOLSHED_SETTINGS_KEYS: readonly string[] = ['$schema', 'permissions', 'hooks', 'failClosedHooks'];

/**
 * Top-level keys of Claude Code's `settings.json` that Toolshed accepts and ignores, so that a
 * Claude Code project's settings load unchanged (and a typo of one of them is still caught).
 */
export const CLAUDE_CODE_SETTINGS_KEYS: readonly string[] = [
  'apiKeyHelper',
  'attribution',
  'alwaysThinkingEnabled',
  'allowManagedHooksOnly',
  'autoUpdatesChannel',
  'awsAuthRefresh',
  'awsCredentialExport',
  'cleanupPeriodDays',
  'companyAnnouncements',
  'disableAllHooks',
  'disabledMcpjsonServers',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'enabledPlugins',
  'env',
  'extraKnownMarketplaces',
  'fileSuggestion',
  'forceLoginMethod',
  'forceLoginOrgUUID',
  'includeCoAuthoredBy',
  'language',
  'model',
  'otelHeadersHelper',
  'outputStyle',
  'plansDirectory',
  'respectGitignore',
  'sandbox',
  'showTurnDuration',
  'skipWebFetchPreflight',
  'spinnerTipsEnabled',
  'statusLine',
  'subagentStatusLine',
];

/** Keys of `permissions`. `disableBypassPermissionsMode: "disable"` refuses `bypassPermissions`. */
export const PERMISSIONS_KEYS: readonly string[] = ['allow', 'deny', 'ask', 'defaultMode', 'additionalDirectories', 'disableBypassPermissionsMode'];

/** Claude Code hook events that Toolshed does not run; accepted with a warning. */
export const CLAUDE_CODE_ONLY_HOOK_EVENTS: readonly string[] = [
  'Notification',
  'PermissionRequest',
  'PreCompact',
  'SessionEnd',
  'SessionStart',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'UserPromptSubmit',
];

/** Keys of one command hook in a settings file. */
export const COMMAND_HOOK_KEYS: readonly string[] = ['type', 'command', 'timeout', 'failClosed'];

const ruleList = z.array(z.string());

/**
 * The zod schema of a settings file (`~/.toolshed/settings.json`, `.toolshed/settings.json`,
 * `.toolshed/settings.local.json`, and Claude Code's `.claude/settings*.json`): the shape only.
 * {@linkcode readSettingsFile} checks it key by key with messages that name the fix, and the
 * rules themselves with the rule parser.
 *
 * @example
 * ```ts
 * settingsSchema.safeParse({ permissions: { allow: ['Bash(npm test:*)'], defaultMode: 'acceptEdits' } }).success; // true
 * ```
 */
export const settingsSchema = z.looseObject({
  $schema: z.string().optional(),
  permissions: z.strictObject({
    allow: ruleList.optional(),
    deny: ruleList.optional(),
    ask: ruleList.optional(),
    defaultMode: z.enum(PERMISSION_MODES as [string, ...string[]]).optional(),
    additionalDirectories: z.array(z.string()).optional(),
    disableBypassPermissionsMode: z.literal('disable').optional(),
  }).optional(),
  disableAllHooks: z.boolean().optional(),
  /** Every PreToolUse hook blocks its call on any error, timeout or malformed reply. */
  failClosedHooks: z.boolean().optional(),
  hooks: z.record(
    z.string(),
    z.array(z.looseObject({
      matcher: z.string().optional(),
      hooks: z.array(z.strictObject({
        type: z.literal('command'),
        command: z.string().min(1),
        timeout: z.number().positive().optional(),
        failClosed: z.boolean().optional(),
      })),
    })),
  ).optional(),
});

/** What a settings file holds, as {@linkcode settingsSchema} describes it. */
export type SettingsFileContent = z.infer<typeof settingsSchema>;
