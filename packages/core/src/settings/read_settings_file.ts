import { notReadMessage, readShortRegularFile } from '../read_regular_file.ts';
import { closestNames } from '../closest_names.ts';
import { validateMatcher } from '../hooks/hook_matcher.ts';
import { HOOK_EVENTS } from '../hooks/types.ts';
import { checkRuleSpecifier, loosePrefixHint } from '../permissions/check_rule_specifier.ts';
import { parseRule } from '../permissions/rule_parser.ts';
import { PERMISSION_MODES } from '../permissions/types.ts';
import { jsonDuplicateKey, jsonErrorOffset } from './_json_scan.ts';
import { checkFamilySetting, type FamilySettingsDef } from './family_settings.ts';
import {
  CLAUDE_CODE_ONLY_HOOK_EVENTS,
  CLAUDE_CODE_ONLY_HOOK_TYPES,
  CLAUDE_CODE_PERMISSIONS_KEYS,
  CLAUDE_CODE_SETTINGS_KEYS,
  COMMAND_HOOK_KEYS,
  HTTP_HOOK_KEYS,
  PERMISSIONS_KEYS,
  settingsSchema,
  type SettingsFileContent,
  TOOLSHED_SETTINGS_KEYS,
} from './settings_schema.ts';

/** What {@linkcode readSettingsFile} found. */
export interface SettingsFileResult {
  /** The file as given. */
  path: string;
  /** False when there is no such file (not an error: every source is optional). */
  exists: boolean;
  /** The content, when the file exists and has no errors. */
  content?: SettingsFileContent;
  /** The parsed JSON, whenever the file is JSON (also when it has other errors): for linting. */
  raw?: unknown;
  /** One sentence per problem, each naming the file, the key path, the bad value and the fix. */
  errors: string[];
  /** The same problems with their key path (`permissions.allow[2]`; `''` for the file as a whole). */
  issues: { key: string; message: string }[];
  /** Things ignored on purpose (hook events Toolshed does not run) or probably not meant (`Bash(npm test*)`). */
  warnings: string[];
  /** The values of the families' keys (see `ReadSettingsFileOptions.familySettings`), parsed by their schemas. */
  familySettings: Record<string, unknown>;
}

/** Options of {@linkcode readSettingsFile}. */
export interface ReadSettingsFileOptions {
  /** Keys families own (`lsp`): checked by their schemas, returned in `familySettings`. @default [] */
  familySettings?: readonly FamilySettingsDef[] | undefined;
  /**
   * Keys of families this session does not load (the CLI's `--only fs` leaves out `lsp`):
   * accepted without a check, so that a file written for all of them loads. @default []
   */
  otherFamilyKeys?: readonly string[] | undefined;
  /**
   * The file is one of Claude Code's (`.claude/settings*.json`, `~/.claude/settings.json`).
   * Claude Code ignores a top-level key it does not know, so a key newer than Toolshed's list is
   * a warning there, not an error; one that looks like a misspelt key Toolshed reads
   * (`permisions`) is still an error, since the rules under it would be lost.
   * @default false
   */
  claudeFile?: boolean | undefined;
}

const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * Reads and checks one settings file. A missing file is not an error; a file that is not JSON,
 * a key that is not known (with the closest known key suggested), a value of the wrong type, a
 * rule that does not parse or cannot mean what it says, a mode that does not exist (with the
 * valid ones listed), or a hook that is not a command each give one error. Never throws.
 *
 * @param path The file's absolute path.
 * @param options The keys families own, checked by their schemas.
 * @returns What the file holds, or why it cannot be used.
 *
 * @example
 * ```ts
 * import { readSettingsFile } from '@toolshed/core/internal';
 *
 * const result = await readSettingsFile('/p/.toolshed/settings.json');
 * result.errors; // ['Settings file "/p/.toolshed/settings.json": permissions.defaultMode is "acceptedits", …']
 * ```
 */
export async function readSettingsFile(
  path: string,
  options: ReadSettingsFileOptions = {},
): Promise<SettingsFileResult> {
  const result: SettingsFileResult = { path, exists: false, errors: [], issues: [], warnings: [], familySettings: {} };
  const fileProblem = (message: string) => {
    result.errors.push(message);
    result.issues.push({ key: '', message });
  };
  const read = await readSettingsText(path);
  if (read.exists) result.exists = true;
  if (read.problem !== undefined) fileProblem(read.problem);
  if (read.text === undefined) return result;
  let text = read.text;
  const fail = (key: string, problem: string, fix: string) => {
    const message = `Settings file "${path}": ${key} ${problem}. ${fix}`;
    result.errors.push(message);
    result.issues.push({ key, message });
  };
  // A byte-order mark is how some Windows editors start a UTF-8 file; it is not content.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    fileProblem(
      `Settings file "${path}" is not valid JSON (${describeJsonError(e as Error, text)}): fix the syntax; settings files are plain JSON, without comments or trailing commas.`,
    );
    return result;
  }
  // JSON.parse keeps the last of two equal keys: a second "permissions" object would silently
  // drop the deny rules of the first.
  const duplicate = jsonDuplicateKey(text);
  if (duplicate !== undefined) {
    fileProblem(
      `Settings file "${path}": the key ${duplicate} appears twice in one object, and only the last would count: merge the two into one.`,
    );
    return result;
  }
  result.raw = value;
  if (!isObject(value)) {
    fail(
      'the top level',
      `is ${show(value)}, not an object`,
      'Write an object such as {"permissions": {"allow": ["Read"]}}.',
    );
    return result;
  }
  const families = options.familySettings ?? [];
  const familyKeys = [...families.map((f) => f.key), ...(options.otherFamilyKeys ?? [])];
  const known = [...TOOLSHED_SETTINGS_KEYS, ...familyKeys, ...CLAUDE_CODE_SETTINGS_KEYS];
  const warn = (message: string) => result.warnings.push(`Settings file "${path}": ${message}`);
  for (const key of Object.keys(value)) {
    if (CLAUDE_CODE_SETTINGS_KEYS.includes(key) && !familyKeys.includes(key))
      warn(`"${key}" is a Claude Code setting that Toolshed does not use; ignored.`);
    else if (known.includes(key)) continue;
    else if (options.claudeFile === true && !looksMisspelt(key, [...TOOLSHED_SETTINGS_KEYS, ...familyKeys]))
      warn(
        `"${key}" is not a setting Toolshed knows (nor one of the Claude Code settings it knows of); ignored, as Claude Code ignores keys it does not know. If it is a misspelling, fix it: Toolshed reads ${TOOLSHED_SETTINGS_KEYS.filter((k) => k !== '$schema').join(', ')}.`,
      );
    else
      fail(`key "${key}"`, 'is not a settings key', didYouMean(key, known, [...TOOLSHED_SETTINGS_KEYS, ...familyKeys]));
  }
  for (const def of families) {
    if (value[def.key] === undefined) continue;
    const checked = checkFamilySetting(def, value[def.key]);
    for (const problem of checked.problems)
      fail(
        problem.key,
        problem.message,
        def.help ?? `Check the "${def.key}" settings in the README of the family that owns them.`,
      );
    if (checked.problems.length === 0) result.familySettings[def.key] = checked.value;
  }
  checkPermissions(value['permissions'], fail, warn);
  const env = checkEnv(value['env'], fail);
  checkMcpAndHookSwitches(value, fail);
  const hooks = checkHooks(value['hooks'], fail, warn);
  if (result.errors.length > 0) return result;
  // Claude Code's permissions keys that Toolshed does not use were warned about above: dropped.
  const permissions = isObject(value['permissions'])
    ? Object.fromEntries(
        Object.entries(value['permissions'])
          .filter(([k]) => !CLAUDE_CODE_PERMISSIONS_KEYS.includes(k))
          .map(([k, v]) => [k, k === 'defaultMode' ? modeAsRead(v) : v]),
      )
    : value['permissions'];
  const parsed = settingsSchema.safeParse({
    ...value,
    ...(permissions === undefined ? {} : { permissions }),
    ...(hooks === undefined ? {} : { hooks }),
    ...(env === undefined ? {} : { env }),
  });
  if (!parsed.success) {
    // The checks above should have caught it; this keeps a gap in them from loosening anything.
    for (const issue of parsed.error.issues)
      fail(
        issue.path.map(String).join('.') || 'the top level',
        `is invalid: ${issue.message}`,
        'See the settings reference in the @toolshed/core README.',
      );
    return result;
  }
  result.content = parsed.data;
  return result;
}

type Fail = (key: string, problem: string, fix: string) => void;

/**
 * Claude Code's `defaultMode` values that are not Toolshed's modes, and the mode each is read
 * as: `manual` is Claude Code's alias of `default`; `auto` needs Claude Code's classifier, so
 * here it asks as `default` does (never looser).
 */
const CLAUDE_CODE_MODE_NAMES: Readonly<Record<string, string>> = { auto: 'default', manual: 'default' };

/** A `defaultMode` as Toolshed reads it: Claude Code's own names mapped, anything else as written. */
function modeAsRead(mode: unknown): unknown {
  return typeof mode === 'string' && Object.hasOwn(CLAUDE_CODE_MODE_NAMES, mode) ? CLAUDE_CODE_MODE_NAMES[mode] : mode;
}

/**
 * The file's text, or why it cannot be read: a missing file is no problem (and does not exist);
 * a directory, FIFO, device or too large a file is one.
 */
async function readSettingsText(path: string): Promise<{ exists: boolean; text?: string; problem?: string }> {
  const fail = (why: string) => ({
    exists: true,
    problem: `Settings file "${path}" ${why}: make it a readable JSON file or remove it.`,
  });
  try {
    // Looked at on the open file before it is read: a FIFO or /dev/zero in a cloned repository's
    // settings would otherwise hang the session at start or fill the memory.
    const read = await readShortRegularFile(path, { maxBytes: MAX_SETTINGS_BYTES });
    if ('text' in read) return { exists: true, text: read.text };
    return fail(
      notReadMessage(read.notRead, { maxBytes: MAX_SETTINGS_BYTES, tooBig: 'a settings file is short JSON' }),
    );
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false };
    return fail(code === 'EISDIR' ? 'is a directory, not a file' : `cannot be read (${(e as Error).message})`);
  }
}

/** The server lists of .mcp.json and the switches of MCP servers and hooks: each of its type. */
function checkMcpAndHookSwitches(value: Record<string, unknown>, fail: Fail): void {
  for (const key of ['enabledMcpjsonServers', 'disabledMcpjsonServers']) {
    const list = value[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((n) => typeof n !== 'string'))) {
      fail(
        key,
        `is ${show(list)}, not a list of server names`,
        `Write the names of servers in .mcp.json, for example "${key}": ["github"].`,
      );
    }
  }
  if (value['enableAllProjectMcpServers'] !== undefined && typeof value['enableAllProjectMcpServers'] !== 'boolean') {
    fail(
      'enableAllProjectMcpServers',
      `is ${show(value['enableAllProjectMcpServers'])}, not true or false`,
      'Write "enableAllProjectMcpServers": true to start every server of the project\'s .mcp.json.',
    );
  }
  if (value['disableAllHooks'] !== undefined && typeof value['disableAllHooks'] !== 'boolean') {
    fail(
      'disableAllHooks',
      `is ${show(value['disableAllHooks'])}, not true or false`,
      'Write "disableAllHooks": true or false.',
    );
  }
  if (value['failClosedHooks'] !== undefined && typeof value['failClosedHooks'] !== 'boolean') {
    fail(
      'failClosedHooks',
      `is ${show(value['failClosedHooks'])}, not true or false`,
      'Write "failClosedHooks": true to make every PreToolUse hook block its call when it fails.',
    );
  }
}

function checkPermissions(perms: unknown, fail: Fail, warn: (message: string) => void): void {
  if (perms === undefined) return;
  if (!isObject(perms)) {
    fail(
      'permissions',
      `is ${show(perms)}, not an object`,
      'Write for example "permissions": {"allow": ["Read"], "deny": ["Read(./.env)"]}.',
    );
    return;
  }
  for (const key of Object.keys(perms)) {
    if (CLAUDE_CODE_PERMISSIONS_KEYS.includes(key))
      warn(`permissions.${key} is a Claude Code setting that Toolshed does not use; ignored.`);
    else if (!PERMISSIONS_KEYS.includes(key))
      fail(`permissions.${key}`, 'is not a permissions key', didYouMean(key, PERMISSIONS_KEYS, PERMISSIONS_KEYS));
  }
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    const list = perms[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      fail(
        `permissions.${behavior}`,
        `is ${show(list)}, not a list`,
        `Write a list of rule strings, for example "${behavior}": ["Bash(npm test:*)"].`,
      );
      continue;
    }
    list.forEach((raw: unknown, i) => {
      const key = `permissions.${behavior}[${i}]`;
      if (typeof raw !== 'string') {
        fail(key, `is ${show(raw)}, not a string`, 'Write each rule as a string such as "Bash(npm test:*)".');
        return;
      }
      try {
        const rule = parseRule(raw, { behavior, source: 'settings' });
        const problem = checkRuleSpecifier(rule);
        if (problem !== undefined) fail(key, `is ${show(raw)}, which is not a usable rule`, `${problem}.`);
        const loose = loosePrefixHint(rule);
        if (loose !== undefined) warn(`${key}: ${loose}`);
      } catch (e) {
        const message = (e as Error).message.replace(/ \(permissions\.\w+, from settings\)$/, '');
        fail(key, `is ${show(raw)}, which is not a valid rule`, `${message}.`);
      }
    });
  }
  if (perms['defaultMode'] === 'auto')
    warn(
      'permissions.defaultMode "auto" is Claude Code\'s classifier mode, which Toolshed does not have; read as "default" (what no rule allows is asked).',
    );
  const mode = modeAsRead(perms['defaultMode']);
  if (mode !== undefined && (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode))) {
    const near = typeof mode === 'string' ? closestNames(mode, PERMISSION_MODES, { max: 1 }) : [];
    fail(
      'permissions.defaultMode',
      `is ${show(mode)}, not a permission mode`,
      `${near.length ? `Did you mean "${near[0]}"? ` : ''}Use one of ${PERMISSION_MODES.map((m) => `"${m}"`).join(', ')}.`,
    );
  }
  const dirs = perms['additionalDirectories'];
  if (dirs !== undefined) {
    if (!Array.isArray(dirs))
      fail(
        'permissions.additionalDirectories',
        `is ${show(dirs)}, not a list`,
        'Write a list of directory paths, for example "additionalDirectories": ["../shared"].',
      );
    else {
      dirs.forEach((dir: unknown, i) => {
        if (typeof dir !== 'string' || dir.trim() === '') {
          fail(
            `permissions.additionalDirectories[${i}]`,
            `is ${show(dir)}, not a directory path`,
            'Write a path such as "../shared" or "/srv/data".',
          );
        }
      });
    }
  }
  const disable = perms['disableBypassPermissionsMode'];
  if (disable !== undefined && disable !== 'disable') {
    fail(
      'permissions.disableBypassPermissionsMode',
      `is ${show(disable)}`,
      'The only value is "disable"; remove the key to allow bypassPermissions.',
    );
  }
}

/** Checks `hooks`; returns it without the events Toolshed does not run. */
function checkHooks(hooks: unknown, fail: Fail, warn: (message: string) => void): Record<string, unknown> | undefined {
  if (hooks === undefined) return undefined;
  const example =
    '"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}';
  if (!isObject(hooks)) {
    fail('hooks', `is ${show(hooks)}, not an object`, `Write for example ${example}.`);
    return undefined;
  }
  const kept: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (CLAUDE_CODE_ONLY_HOOK_EVENTS.includes(event)) {
      warn(
        `hooks.${event} is a Claude Code event that Toolshed does not run (it runs ${HOOK_EVENTS.join(', ')}); ignored.`,
      );
      continue;
    }
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      fail(
        `hooks.${event}`,
        'is not a hook event',
        didYouMean(event, [...HOOK_EVENTS, ...CLAUDE_CODE_ONLY_HOOK_EVENTS], HOOK_EVENTS),
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      fail(`hooks.${event}`, `is ${show(groups)}, not a list of matcher groups`, `Write for example ${example}.`);
      continue;
    }
    const keptGroups: Record<string, unknown>[] = [];
    kept[event] = keptGroups;
    groups.forEach((group: unknown, g) => {
      const at = `hooks.${event}[${g}]`;
      if (!isObject(group)) {
        fail(
          at,
          `is ${show(group)}, not an object`,
          'Write {"matcher": "Bash", "hooks": [{"type": "command", "command": "..."}]}.',
        );
        return;
      }
      for (const key of Object.keys(group)) {
        if (key !== 'matcher' && key !== 'hooks')
          fail(
            `${at}.${key}`,
            'is not a key of a matcher group',
            didYouMean(key, ['matcher', 'hooks'], ['matcher', 'hooks']),
          );
      }
      const matcherProblem = validateMatcher(group['matcher']);
      if (matcherProblem !== undefined) fail(`${at}.matcher`, `is ${show(group['matcher'])}`, matcherProblem);
      const list = group['hooks'];
      if (!Array.isArray(list)) {
        fail(`${at}.hooks`, `is ${show(list)}, not a list`, 'Write "hooks": [{"type": "command", "command": "..."}].');
        return;
      }
      const keptHooks: unknown[] = [];
      list.forEach((hook: unknown, h) => {
        const hat = `${at}.hooks[${h}]`;
        if (!isObject(hook)) {
          fail(hat, `is ${show(hook)}, not an object`, 'Write {"type": "command", "command": "..."}.');
          return;
        }
        const type = hook['type'];
        if (typeof type === 'string' && CLAUDE_CODE_ONLY_HOOK_TYPES.includes(type)) {
          warn(
            `${hat} is a Claude Code "${type}" hook, which asks a model; Toolshed does not run ${type} hooks, so it is skipped.`,
          );
          return;
        }
        keptHooks.push(hook);
        if (type !== 'command' && type !== 'http') {
          fail(
            `${hat}.type`,
            `is ${show(type)}`,
            'Settings files hold "command" and "http" hooks (and Claude Code\'s "prompt" and "agent" hooks, which Toolshed skips): write "type": "command".',
          );
          return;
        }
        const keys = type === 'http' ? HTTP_HOOK_KEYS : COMMAND_HOOK_KEYS;
        for (const key of Object.keys(hook)) {
          if (!keys.includes(key))
            fail(
              `${hat}.${key}`,
              `is not a key of ${type === 'http' ? 'an http' : 'a command'} hook`,
              didYouMean(key, keys, keys),
            );
        }
        if (type === 'http') checkHttpHook(hook, hat, fail);
        else {
          const command = hook['command'];
          if (typeof command !== 'string' || command.trim() === '') {
            fail(
              `${hat}.command`,
              `is ${show(command)}, not a command`,
              'Write the shell command to run, for example "command": "./check.sh".',
            );
          }
        }
        checkClaudeHookKeys(hook, hat, { fail, warn });
        const timeout = hook['timeout'];
        if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0) || !Number.isFinite(timeout))) {
          fail(
            `${hat}.timeout`,
            `is ${show(timeout)}, not a positive number of seconds`,
            'Write for example "timeout": 30.',
          );
        }
        const failClosed = hook['failClosed'];
        if (failClosed !== undefined && typeof failClosed !== 'boolean') {
          fail(
            `${hat}.failClosed`,
            `is ${show(failClosed)}, not true or false`,
            'Write "failClosed": true to block the call when the hook fails.',
          );
        }
      });
      if (keptHooks.length > 0) keptGroups.push({ ...group, hooks: keptHooks });
    });
  }
  return kept;
}

/** Checks `env`: names to strings; numbers and booleans are written as strings, as Claude Code does. */
function checkEnv(env: unknown, fail: Fail): Record<string, string> | undefined {
  if (env === undefined) return undefined;
  if (!isObject(env)) {
    fail(
      'env',
      `is ${show(env)}, not an object`,
      'Write environment variables as names to strings, for example "env": {"NODE_ENV": "test"}.',
    );
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      fail(
        `env.${name}`,
        'is not an environment variable name',
        'Use letters, digits and underscores, not starting with a digit.',
      );
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[name] = String(value);
    else fail(`env.${name}`, `is ${show(value)}, not a string`, `Write "${name}": "value".`);
  }
  return out;
}

/** Claude Code's `if`, `shell`, `async` and `asyncRewake` on one hook: each checked or warned about. */
function checkClaudeHookKeys(
  hook: Record<string, unknown>,
  at: string,
  { fail, warn }: { fail: Fail; warn: (message: string) => void },
): void {
  const condition = hook['if'];
  if (condition !== undefined) {
    let problem: string | undefined;
    if (typeof condition !== 'string' || condition.trim() === '') problem = `is ${show(condition)}, not a rule`;
    else {
      try {
        parseRule(condition, { behavior: 'deny', source: 'settings' });
      } catch (e) {
        problem = `is ${show(condition)}, which is not a rule (${(e as Error).message.replace(/ \(permissions\.\w+, from settings\)$/, '')})`;
      }
    }
    if (problem !== undefined)
      fail(
        `${at}.if`,
        problem,
        'Write a permission rule the call must match for the hook to run, for example "if": "Bash(git *)" or "if": "Edit(*.ts)".',
      );
  }
  const shell = hook['shell'];
  if (shell !== undefined && shell !== 'bash' && shell !== 'powershell')
    fail(`${at}.shell`, `is ${show(shell)}`, 'Write "shell": "bash" or "shell": "powershell" (run with pwsh).');
  const background = hook['async'];
  if (background !== undefined && typeof background !== 'boolean')
    fail(
      `${at}.async`,
      `is ${show(background)}, not true or false`,
      'Write "async": true to run the hook in the background.',
    );
  if (background === true)
    warn(
      `${at} is "async": Toolshed starts it in the background and does not wait for it or read what it prints, so it never blocks, decides or rewrites a call.`,
    );
  if (hook['asyncRewake'] !== undefined)
    warn(
      `${at}.asyncRewake is a Claude Code setting that Toolshed does not use: an async hook's exit code is not read, so it never wakes the model; ignored.`,
    );
}

function checkHttpHook(hook: Record<string, unknown>, at: string, fail: Fail): void {
  const url = hook['url'];
  let ok = false;
  try {
    ok = typeof url === 'string' && ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    ok = false;
  }
  if (!ok)
    fail(
      `${at}.url`,
      `is ${show(url)}, not an http: or https: URL`,
      'Write for example "url": "http://127.0.0.1:8080/hooks/pre-tool-use".',
    );
  const headers = hook['headers'];
  if (headers !== undefined && (!isObject(headers) || Object.values(headers).some((v) => typeof v !== 'string'))) {
    fail(
      `${at}.headers`,
      `is ${show(headers)}, not an object of strings`,
      'Write for example "headers": {"Authorization": "Bearer $HOOK_TOKEN"}.',
    );
  }
  const names = hook['allowedEnvVars'];
  if (names !== undefined && (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))) {
    fail(
      `${at}.allowedEnvVars`,
      `is ${show(names)}, not a list of variable names`,
      'Write for example "allowedEnvVars": ["HOOK_TOKEN"].',
    );
  }
}

/** A key within a quarter of its length (at least one edit) of a key Toolshed reads: a typo, not a new setting. */
function looksMisspelt(key: string, read: readonly string[]): boolean {
  return closestNames(key, read, { max: 1, maxDistance: 0.25 }).length > 0;
}

function didYouMean(key: string, candidates: readonly string[], listed: readonly string[]): string {
  const near = closestNames(key, candidates, { max: 1 });
  const valid = `Valid keys: ${listed.join(', ')}.`;
  return near.length ? `Did you mean "${near[0]}"? ${valid}` : valid;
}

function describeJsonError(error: Error, text: string): string {
  const offset = jsonErrorOffset(text);
  const first = error.message
    .split('\n', 1)[0]!
    .replace(/, "[^"]*$/, '')
    .replace(/ in JSON at position \d+.*$/, '');
  if (offset === undefined) return first;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const near = offset >= text.length ? 'the file ends too soon' : `unexpected ${JSON.stringify(text[offset])}`;
  return `${near} at line ${line}, column ${column}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
