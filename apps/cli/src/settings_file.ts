import { closestNames, HOOK_EVENTS, PERMISSION_MODES, type HookEvent, type HookMatcherGroup, type HooksConfig, type PermissionOptions } from '@toolshed/core';
import { readJsonFile } from './_read_json_file.ts';
import { UsageError } from './usage_error.ts';

/** What {@linkcode readSettingsFile} found in a settings file. */
export interface SettingsFile {
  /** The absolute path of the file. */
  path: string;
  /** `permissions.allow|deny|ask|additionalDirectories`, and `defaultMode` as `mode`. */
  permissions: PermissionOptions;
  /** `hooks`, for the events Toolshed runs. */
  hooks: HooksConfig | undefined;
  /** Things that are ignored but worth a line on stderr (hook events Toolshed does not run). */
  warnings: string[];
}

const PERMISSION_KEYS = ['allow', 'deny', 'ask', 'defaultMode', 'additionalDirectories', 'disableBypassPermissionsMode'] as const;
// Claude Code's other hook events are valid in a shared settings file; Toolshed just does not run them.
const CLAUDE_CODE_ONLY_EVENTS = ['Notification', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionStart', 'SessionEnd'];

/**
 * Reads a Claude-Code-shaped settings file given with `--settings`:
 * `{ "permissions": { "allow", "deny", "ask", "defaultMode", "additionalDirectories" }, "hooks": {...} }`.
 * Other top-level keys (`env`, `model`, …) are Claude Code's and are ignored.
 *
 * This is the CLI's small stand-in until core layers settings files itself; it checks the shape
 * so that a typo fails loudly instead of silently dropping a deny rule.
 *
 * @param file The path as given.
 * @param baseDir What a relative path resolves against.
 * @returns The permissions and hooks of the file.
 * @throws {UsageError} When the file is missing, is not JSON (with line and column), or a key
 *   has the wrong type; the message names the file, the key and the fix.
 *
 * @example
 * ```ts
 * const settings = await readSettingsFile('.toolshed/settings.json', process.cwd());
 * settings.permissions.deny; // ['Read(./.env)']
 * ```
 */
export async function readSettingsFile(file: string, baseDir: string): Promise<SettingsFile> {
  const { value, path } = await readJsonFile(file, '--settings', baseDir);
  const fail = (key: string, problem: string, fix: string): never => {
    throw new UsageError(`Settings file "${file}": ${key} ${problem}. ${fix}`, { showUsage: false });
  };
  if (!isPlainObject(value)) {
    return fail('the top level', `is ${describe(value)}, not an object`, 'Write an object such as {"permissions": {"allow": ["Read"]}}.');
  }
  const warnings: string[] = [];
  const permissions: PermissionOptions = {};
  const perms = value['permissions'];
  if (perms !== undefined) {
    if (!isPlainObject(perms)) return fail('"permissions"', `is ${describe(perms)}, not an object`, 'Write for example "permissions": {"allow": ["Read"], "deny": ["Read(./.env)"]}.');
    for (const key of Object.keys(perms)) {
      if (!(PERMISSION_KEYS as readonly string[]).includes(key)) {
        const near = closestNames(key, PERMISSION_KEYS, { max: 1 });
        fail(`"permissions.${key}"`, 'is not a permissions key', near.length ? `Did you mean "${near[0]}"? Valid keys: ${PERMISSION_KEYS.join(', ')}.` : `Valid keys: ${PERMISSION_KEYS.join(', ')}.`);
      }
    }
    for (const key of ['allow', 'deny', 'ask', 'additionalDirectories'] as const) {
      const list = perms[key];
      if (list === undefined) continue;
      const example = key === 'additionalDirectories' ? '["../shared"]' : '["Bash(npm test:*)"]';
      if (!Array.isArray(list)) fail(`"permissions.${key}"`, `is ${describe(list)}, not a list`, `Write a list of strings, for example "${key}": ${example}.`);
      (list as unknown[]).forEach((item, i) => {
        if (typeof item !== 'string') fail(`"permissions.${key}[${i}]"`, `is ${describe(item)}, not a string`, `Write each entry as a string, for example "${key}": ${example}.`);
      });
      permissions[key] = list as string[];
    }
    const mode = perms['defaultMode'];
    if (mode !== undefined) {
      if (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
        const near = typeof mode === 'string' ? closestNames(mode, PERMISSION_MODES, { max: 1 }) : [];
        fail('"permissions.defaultMode"', `is ${describe(mode)}, not a permission mode`, `${near.length ? `Did you mean "${near[0]}"? ` : ''}Use one of ${PERMISSION_MODES.join(', ')}.`);
      }
      permissions.mode = mode as PermissionOptions['mode'] & string;
    }
  }
  const hooks = value['hooks'] === undefined ? undefined : readHooks(value['hooks'], fail, warnings, file);
  return { path, permissions, hooks, warnings };
}

type Fail = (key: string, problem: string, fix: string) => never;

function readHooks(value: unknown, fail: Fail, warnings: string[], file: string): HooksConfig {
  const example = '"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}';
  if (!isPlainObject(value)) return fail('"hooks"', `is ${describe(value)}, not an object`, `Write for example ${example}.`);
  const hooks: HooksConfig = {};
  for (const [event, groups] of Object.entries(value)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      if (CLAUDE_CODE_ONLY_EVENTS.includes(event)) {
        warnings.push(`Settings file "${file}": hooks.${event} is a Claude Code event that toolshed does not run (it runs ${HOOK_EVENTS.join(', ')}); ignored.`);
        continue;
      }
      const near = closestNames(event, HOOK_EVENTS, { max: 1 });
      fail(`"hooks.${event}"`, 'is not a hook event', `${near.length ? `Did you mean "${near[0]}"? ` : ''}Use one of ${HOOK_EVENTS.join(', ')}.`);
    }
    const key = `hooks.${event}`;
    if (!Array.isArray(groups)) fail(`"${key}"`, `is ${describe(groups)}, not a list of matcher groups`, `Write for example ${example}.`);
    hooks[event as HookEvent] = (groups as unknown[]).map((group, g): HookMatcherGroup => {
      const at = `${key}[${g}]`;
      if (!isPlainObject(group)) return fail(`"${at}"`, `is ${describe(group)}, not an object`, 'Write {"matcher": "Bash", "hooks": [{"type": "command", "command": "..."}]}.');
      const matcher = group['matcher'];
      if (matcher !== undefined && typeof matcher !== 'string') fail(`"${at}.matcher"`, `is ${describe(matcher)}, not a string`, 'Write a tool name, "Edit|Write", a regular expression, or "*".');
      const list = group['hooks'];
      if (!Array.isArray(list)) return fail(`"${at}.hooks"`, `is ${describe(list)}, not a list`, 'Write "hooks": [{"type": "command", "command": "..."}].');
      const defs = list.map((hook: unknown, h) => {
        const hat = `${at}.hooks[${h}]`;
        if (!isPlainObject(hook)) return fail(`"${hat}"`, `is ${describe(hook)}, not an object`, 'Write {"type": "command", "command": "..."}.');
        if (hook['type'] !== 'command') fail(`"${hat}.type"`, `is ${describe(hook['type'])}`, 'A settings file can only hold command hooks: write "type": "command".');
        const command = hook['command'];
        if (typeof command !== 'string' || command.trim() === '') fail(`"${hat}.command"`, `is ${describe(command)}, not a command`, 'Write the shell command to run, for example "command": "./check.sh".');
        const timeout = hook['timeout'];
        if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0))) fail(`"${hat}.timeout"`, `is ${describe(timeout)}`, 'Write a positive number of seconds, for example "timeout": 30.');
        const failClosed = hook['failClosed'];
        if (failClosed !== undefined && typeof failClosed !== 'boolean') fail(`"${hat}.failClosed"`, `is ${describe(failClosed)}`, 'Write true or false.');
        return {
          type: 'command' as const,
          command: command as string,
          ...(timeout !== undefined ? { timeout: timeout as number } : {}),
          ...(failClosed !== undefined ? { failClosed: failClosed as boolean } : {}),
        };
      });
      return matcher === undefined ? { hooks: defs } : { matcher: matcher as string, hooks: defs };
    });
  }
  return hooks;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string "${value.length > 40 ? `${value.slice(0, 37)}...` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${String(value)}`;
}
