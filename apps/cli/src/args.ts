import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PERMISSION_MODES, SETTING_SOURCES, type PermissionMode, type SettingSource } from '@toolshed/core';
import { closestNames, parseSettingSources } from '@toolshed/core/internal';
import { parseFamilyList, type FamilyName } from './families.ts';
import { DEFAULT_SETTING_SOURCES } from './default_setting_sources.ts';
import { OPTIONS } from './_cli_options.ts';
import { helpOrVersion } from './_help_or_version.ts';
import { COMMANDS, PLANNED_COMMANDS } from './help.ts';
import { UsageError } from './usage_error.ts';

/** A command the CLI runs today. */
export type CommandName =
  | 'demo'
  | 'tools'
  | 'call'
  | 'check'
  | 'run'
  | 'search'
  | 'mcp'
  | 'chat'
  | 'rules'
  | 'bench'
  | 'trust';

/** The flags every command takes, parsed and checked. */
export interface CommonArgs {
  /** Absolute; an existing directory. */
  cwd: string;
  /** From `--only`; every family when absent. */
  families: FamilyName[];
  /** From `--mode`; undefined leaves it to the settings file or the default. */
  mode: PermissionMode | undefined;
  allow: string[];
  deny: string[];
  ask: string[];
  /** From `--setting-sources`: which settings files the session reads. @default ['user', 'project', 'local', 'claude'] */
  settingSources: SettingSource[];
  /** The `--settings` paths as given, in order (relative to where the CLI was started). */
  settings: string[];
  /** The `--mcp-config` path as given. */
  mcpConfig: string | undefined;
  yes: boolean;
  json: boolean;
  /** `--http PORT` of `mcp serve`, as given; only set when given. */
  http?: string | undefined;
  /** `--corpus FILE` of `search`, as given; only set when given. */
  corpus?: string | undefined;
  /** `--approve deny|elicit|tty` of `mcp serve`, as given; only set when given. */
  approve?: string | undefined;
  /** `--token-file FILE` of `mcp serve --http`, as given; only set when given. */
  tokenFile?: string | undefined;
  /** `--no-auth` of `mcp serve --http`; only set when given. */
  noAuth?: boolean | undefined;
  /** `--no-read-first` of `call`: do not Read an existing file before an Edit/Write of it; only set when given. */
  noReadFirst?: boolean | undefined;
  /** `-p`/`--print` of `chat`: one prompt, non-interactive; only set when given. */
  print?: boolean | undefined;
  /** `--model ID` of `chat`; only set when given. */
  model?: string | undefined;
  /** `--provider` of `chat` (anthropic, openai, openai-responses); only set when given. */
  provider?: string | undefined;
  /** `--max-turns N` of `chat`, as given; only set when given. */
  maxTurns?: string | undefined;
}

/** What {@linkcode parseCliArgs} found on the command line. */
export type ParsedCommandLine =
  | { kind: 'help'; command: CommandName | undefined }
  | { kind: 'version' }
  | { kind: 'planned'; name: string }
  | { kind: 'command'; command: Exclude<CommandName, 'rules' | 'bench'>; positionals: string[]; args: CommonArgs }
  /** `toolshed bench …`: the bench parses its own arguments (bench_command.ts). */
  | { kind: 'bench'; argv: string[] }
  /** `toolshed rules …`: the command parses its own flags, so it gets the raw arguments after `rules`. */
  | { kind: 'rules'; argv: string[] };

const VALUE_HINTS: Record<string, string> = {
  cwd: '--cwd DIR',
  only: '--only fs,shell',
  mode: '--mode acceptEdits',
  allow: "--allow 'Bash(npm test:*)'",
  deny: "--deny 'Read(./.env)'",
  ask: "--ask 'Bash(git push:*)'",
  'setting-sources': '--setting-sources user,project',
  settings: '--settings .toolshed/settings.json',
  'mcp-config': '--mcp-config .mcp.json',
  http: '--http 8931',
  approve: '--approve elicit',
  'token-file': '--token-file ~/.toolshed/mcp.token',
  corpus: '--corpus tools.json',
  model: '--model claude-sonnet-5-5',
  provider: '--provider openai',
  'max-turns': '--max-turns 20',
};

/** Flags that belong to one command only. */
const COMMAND_FLAGS: Partial<Record<string, { command: CommandName; usage: string }>> = {
  http: { command: 'mcp', usage: 'toolshed mcp serve --http PORT' },
  approve: { command: 'mcp', usage: 'toolshed mcp serve --approve deny|elicit|tty' },
  'token-file': { command: 'mcp', usage: 'toolshed mcp serve --http PORT --token-file FILE' },
  'no-auth': { command: 'mcp', usage: 'toolshed mcp serve --http PORT --no-auth' },
  'no-read-first': { command: 'call', usage: 'toolshed call Edit JSON --no-read-first' },
  corpus: { command: 'search', usage: 'toolshed search <query> --corpus FILE' },
  print: { command: 'chat', usage: 'toolshed chat -p PROMPT' },
  model: { command: 'chat', usage: 'toolshed chat --model ID' },
  provider: { command: 'chat', usage: 'toolshed chat --provider openai' },
  'max-turns': { command: 'chat', usage: 'toolshed chat --max-turns 20' },
};

/** Options of {@linkcode parseCliArgs}. */
export interface ParseCliArgsOptions {
  /** What a relative `--cwd` resolves against, and the default cwd. @default process.cwd() */
  baseDir?: string;
}

/**
 * Parses the command line: the command word (anywhere among the flags), its positional arguments
 * and the common flags of DESIGN.md's CLI contract, plus `--setting-sources` (default
 * `user,project,local,claude`), `--http` (mcp) and `--corpus` (search).
 *
 * @param argv The arguments after `toolshed`.
 * @param options Where relative paths start.
 * @returns Help, version, a planned command, a command with its checked arguments, or for
 *   `rules` the raw arguments (that command parses its own flags).
 * @throws {UsageError} For an unknown command or flag, a flag of another command (`--http` is
 *   `mcp`'s, `--corpus` is `search`'s), a flag without its value, a value that is not valid
 *   (`--mode`, `--only`, `--cwd`, `--setting-sources`), or the wrong number of arguments; the
 *   error names the command so its usage can be shown.
 *
 * @example
 * ```ts
 * import { parseCliArgs } from '@toolshed/cli';
 *
 * const parsed = parseCliArgs(['call', 'Read', '{"file_path":"a.ts"}', '--json']);
 * // { kind: 'command', command: 'call', positionals: ['Read', '{"file_path":"a.ts"}'], args: { json: true, ... } }
 * ```
 */
export function parseCliArgs(argv: readonly string[], options: ParseCliArgsOptions = {}): ParsedCommandLine {
  const quick = helpOrVersion(argv);
  if (quick) return quick.kind === 'help' ? { kind: 'help', command: quick.command as CommandName | undefined } : quick;
  const baseDir = options.baseDir ?? process.cwd();
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals = tokens.flatMap((t) => (t.kind === 'positional' ? [t.value] : []));
  const has = (name: string) => tokens.some((t) => t.kind === 'option' && t.name === name);

  let word = positionals[0];
  // `toolshed -p "prompt"` is `toolshed chat -p "prompt"`: every word is the prompt.
  if (has('print') && (word === undefined || !COMMANDS.some((c) => c.name === word))) {
    word = 'chat';
    positionals.unshift('chat');
  }
  if (word === undefined) {
    if (has('version')) return { kind: 'version' };
    if (has('help')) return { kind: 'help', command: undefined };
    throw new UsageError('No command given.');
  }
  if (word === 'help') {
    const topic = positionals[1];
    if (topic === undefined) return { kind: 'help', command: undefined };
    return { kind: 'help', command: commandName(topic) };
  }
  const planned = plannedCommand(word);
  if (planned) return { kind: 'planned', name: planned };
  const command = commandName(word);
  if (command === 'rules') {
    // `rules` has flags of its own (a repeatable --settings, no --yes): hand it everything else.
    const at = tokens.find((t) => t.kind === 'positional')!.index;
    return { kind: 'rules', argv: argv.filter((_, i) => i !== at) };
  }
  if (command === 'bench') {
    const at = tokens.find((t) => t.kind === 'positional')!.index;
    return { kind: 'bench', argv: argv.filter((_, i) => i !== at) };
  }
  if (has('help')) return { kind: 'help', command };
  if (has('version')) return { kind: 'version' };

  const values = collectFlags(tokens, command);
  const rest = positionals.slice(1);
  checkArity(command, rest);
  return {
    kind: 'command',
    command,
    positionals: rest,
    args: {
      cwd: checkCwd(values.cwd, baseDir, command),
      families: withCommand(command, () => parseFamilyList(values.only ?? [])),
      mode: checkMode(values.mode, command),
      allow: values.allow ?? [],
      deny: values.deny ?? [],
      ask: values.ask ?? [],
      settingSources: checkSettingSources(values['setting-sources'], command),
      settings: values.settings ?? [],
      mcpConfig: values['mcp-config'],
      yes: values.yes === true,
      json: values.json === true,
      ...(values.http !== undefined ? { http: values.http } : {}),
      ...(values.corpus !== undefined ? { corpus: values.corpus } : {}),
      ...(values.approve !== undefined ? { approve: values.approve } : {}),
      ...(values['token-file'] !== undefined ? { tokenFile: values['token-file'] } : {}),
      ...(values['no-auth'] === true ? { noAuth: true } : {}),
      ...(values['no-read-first'] === true ? { noReadFirst: true } : {}),
      ...(values.print !== undefined ? { print: values.print } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values.provider !== undefined ? { provider: values.provider } : {}),
      ...(values['max-turns'] !== undefined ? { maxTurns: values['max-turns'] } : {}),
    },
  };
}

function commandName(word: string): CommandName {
  const spec = COMMANDS.find((c) => c.name === word);
  if (spec) return spec.name as CommandName;
  const all = [...COMMANDS.map((c) => c.name), ...PLANNED_COMMANDS.map((c) => c.name.split(' ')[0]!)];
  const near = closestNames(word, all, { max: 1 });
  throw new UsageError(`Unknown command "${word}".${near.length ? ` Did you mean "${near[0]}"?` : ''}`);
}

/** `demo`, `chat`, `bench`: the planned command the word names, if any. */
function plannedCommand(word: string): string | undefined {
  return PLANNED_COMMANDS.find((planned) => planned.name === word)?.name;
}

type Token = ReturnType<typeof parseArgs>['tokens'] extends (infer T)[] | undefined ? T : never;
type FlagValues = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true }
    ? string[]
    : (typeof OPTIONS)[K]['type'] extends 'string'
      ? string
      : boolean;
};

function collectFlags(tokens: readonly Token[], command: Exclude<CommandName, 'rules' | 'bench'>): FlagValues {
  const values: Record<string, string | string[] | boolean> = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = (OPTIONS as Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>)[token.name];
    if (!spec) {
      const near = closestNames(token.name, Object.keys(OPTIONS), { max: 1 });
      throw new UsageError(
        `Unknown flag "${token.rawName}" for "toolshed ${command}".${near.length ? ` Did you mean "--${near[0]}"?` : ''}`,
        { command },
      );
    }
    const owner = COMMAND_FLAGS[token.name];
    if (owner && owner.command !== command) {
      throw new UsageError(
        `The flag ${token.rawName} belongs to "toolshed ${owner.command}" (${owner.usage}), not to "toolshed ${command}".`,
        { command },
      );
    }
    if (spec.type === 'boolean') {
      if (token.value !== undefined)
        throw new UsageError(
          `The flag ${token.rawName} takes no value, got "${token.value}". Write ${token.rawName} alone.`,
          { command },
        );
      values[token.name] = true;
      continue;
    }
    // `--cwd --json` would otherwise take "--json" as the directory.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
      throw new UsageError(
        `The flag ${token.rawName} needs a value, as in ${VALUE_HINTS[token.name] ?? `${token.rawName} VALUE`}.`,
        { command },
      );
    }
    if (spec.multiple) values[token.name] = [...((values[token.name] as string[] | undefined) ?? []), token.value];
    else values[token.name] = token.value;
  }
  return values as FlagValues;
}

function checkArity(command: CommandName, rest: readonly string[]): void {
  const spec = COMMANDS.find((c) => c.name === command)!;
  // `mcp` says itself which subcommand is missing or unknown, in words about serve and list.
  if (spec.ownArguments) return;
  const wanted = spec.positionals;
  if (spec.variadic && rest.length >= wanted.length) return;
  if (rest.length < wanted.length) {
    const missing = wanted.slice(rest.length).join(' ');
    throw new UsageError(`"toolshed ${command}" needs ${wanted.join(' ')}; missing ${missing}.`, { command });
  }
  if (rest.length > wanted.length) {
    const extra = rest
      .slice(wanted.length)
      .map((a) => `"${a}"`)
      .join(' ');
    const hint = wanted.some((w) => w.includes('json'))
      ? ' Quote the JSON input as one argument, for example \'{"text": "hi"}\'.'
      : '';
    throw new UsageError(
      `"toolshed ${command}" takes ${wanted.length === 0 ? 'no arguments' : wanted.join(' ')}; unexpected ${extra}.${hint}`,
      { command },
    );
  }
  if (wanted[0] === '<Tool>' && rest[0]!.trim() === '')
    throw new UsageError(`The tool name is empty; run "toolshed tools" to see the names.`, { command });
}

function checkCwd(value: string | undefined, baseDir: string, command: CommandName): string {
  const dir = path.resolve(baseDir, value ?? '.');
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`--cwd "${value ?? dir}" does not exist (resolved to ${dir}); pass an existing directory.`, {
      command,
    });
  }
  if (!isDir)
    throw new UsageError(`--cwd "${value ?? dir}" is not a directory (resolved to ${dir}); pass a directory.`, {
      command,
    });
  return dir;
}

function checkSettingSources(value: string | undefined, command: CommandName): SettingSource[] {
  if (value === undefined) return [...DEFAULT_SETTING_SOURCES];
  try {
    return parseSettingSources(value);
  } catch (e) {
    const why = (e as Error).message;
    throw new UsageError(
      `--setting-sources "${value}" is not valid: ${why}${/[.?!]$/.test(why) ? ' ' : '. '}Write a comma-separated list of ${SETTING_SOURCES.join(', ')}, for example --setting-sources user,project (an empty value reads no settings file).`,
      { command },
    );
  }
}

function checkMode(value: string | undefined, command: CommandName): PermissionMode | undefined {
  if (value === undefined) return undefined;
  if ((PERMISSION_MODES as readonly string[]).includes(value)) return value as PermissionMode;
  const near = closestNames(value, PERMISSION_MODES, { max: 1 });
  throw new UsageError(
    `Unknown permission mode "${value}" for --mode.${near.length ? ` Did you mean "${near[0]}"?` : ''} Valid modes: ${PERMISSION_MODES.join(', ')}.`,
    { command },
  );
}

/** Re-throws a usage error of a helper with this command attached, so its usage is shown. */
function withCommand<T>(command: CommandName, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof UsageError && e.command === undefined)
      throw new UsageError(e.message, { command, showUsage: e.showUsage });
    throw e;
  }
}

/** What a command function gets: its positional arguments and the flags. */
export interface CommandInvocation {
  positionals: readonly string[];
  args: CommonArgs;
}
