import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closestNames, PERMISSION_MODES, type PermissionMode } from '@toolshed/core';
import { parseFamilyList, type FamilyName } from './families.ts';
import { COMMANDS, PLANNED_COMMANDS } from './help.ts';
import { UsageError } from './usage_error.ts';

/** A command the CLI runs today. */
export type CommandName = 'tools' | 'call' | 'check' | 'run';

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
  /** The `--settings` path as given (resolved by the settings reader). */
  settings: string | undefined;
  /** The `--mcp-config` path as given. */
  mcpConfig: string | undefined;
  yes: boolean;
  json: boolean;
}

/** What {@linkcode parseCliArgs} found on the command line. */
export type ParsedCommandLine =
  | { kind: 'help'; command: CommandName | undefined }
  | { kind: 'version' }
  | { kind: 'planned'; name: string }
  | { kind: 'command'; command: CommandName; positionals: string[]; args: CommonArgs };

const OPTIONS = {
  cwd: { type: 'string' },
  only: { type: 'string', multiple: true },
  mode: { type: 'string' },
  allow: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  ask: { type: 'string', multiple: true },
  settings: { type: 'string' },
  'mcp-config': { type: 'string' },
  yes: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

const VALUE_HINTS: Record<string, string> = {
  cwd: '--cwd DIR',
  only: '--only fs,shell',
  mode: '--mode acceptEdits',
  allow: "--allow 'Bash(npm test:*)'",
  deny: "--deny 'Read(./.env)'",
  ask: "--ask 'Bash(git push:*)'",
  settings: '--settings .toolshed/settings.json',
  'mcp-config': '--mcp-config .mcp.json',
};

/** Options of {@linkcode parseCliArgs}. */
export interface ParseCliArgsOptions {
  /** What a relative `--cwd` resolves against, and the default cwd. @default process.cwd() */
  baseDir?: string;
}

/**
 * Parses the command line: the command word (anywhere among the flags), its positional arguments
 * and the common flags of DESIGN.md's CLI contract.
 *
 * @param argv The arguments after `toolshed`.
 * @param options Where relative paths start.
 * @returns Help, version, a planned command, or a command with its checked arguments.
 * @throws {UsageError} For an unknown command or flag, a flag without its value, a value that is
 *   not valid (`--mode`, `--only`, `--cwd`), or the wrong number of arguments; the error names
 *   the command so its usage can be shown.
 *
 * @example
 * ```ts
 * const parsed = parseCliArgs(['call', 'Read', '{"file_path":"a.ts"}', '--json']);
 * // { kind: 'command', command: 'call', positionals: ['Read', '{"file_path":"a.ts"}'], args: { json: true, ... } }
 * ```
 */
export function parseCliArgs(argv: readonly string[], options: ParseCliArgsOptions = {}): ParsedCommandLine {
  const baseDir = options.baseDir ?? process.cwd();
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const positionals = tokens.flatMap((t) => (t.kind === 'positional' ? [t.value] : []));
  const has = (name: string) => tokens.some((t) => t.kind === 'option' && t.name === name);

  const word = positionals[0];
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
  const planned = plannedCommand(positionals);
  if (planned) return { kind: 'planned', name: planned };
  const command = commandName(word);
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
      settings: values.settings,
      mcpConfig: values['mcp-config'],
      yes: values.yes === true,
      json: values.json === true,
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

/** `demo`, `mcp serve`, … : the planned command the words start with, if any. */
function plannedCommand(positionals: readonly string[]): string | undefined {
  for (const planned of PLANNED_COMMANDS) {
    const words = planned.name.split(' ');
    if (words[0] !== positionals[0]) continue;
    // `toolshed mcp` alone names the planned group too: it says what is missing either way.
    if (words.length === 1 || positionals[1] === undefined || positionals[1] === words[1]) return planned.name;
    throw new UsageError(`Unknown command "${words[0]} ${positionals[1]}". Did you mean "${planned.name}"?`);
  }
  return undefined;
}

type Token = ReturnType<typeof parseArgs>['tokens'] extends (infer T)[] | undefined ? T : never;
type FlagValues = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

function collectFlags(tokens: readonly Token[], command: CommandName): FlagValues {
  const values: Record<string, string | string[] | boolean> = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = (OPTIONS as Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>)[token.name];
    if (!spec) {
      const near = closestNames(token.name, Object.keys(OPTIONS), { max: 1 });
      throw new UsageError(`Unknown flag "${token.rawName}" for "toolshed ${command}".${near.length ? ` Did you mean "--${near[0]}"?` : ''}`, { command });
    }
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`The flag ${token.rawName} takes no value, got "${token.value}". Write ${token.rawName} alone.`, { command });
      values[token.name] = true;
      continue;
    }
    // `--cwd --json` would otherwise take "--json" as the directory.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
      throw new UsageError(`The flag ${token.rawName} needs a value, as in ${VALUE_HINTS[token.name] ?? `${token.rawName} VALUE`}.`, { command });
    }
    if (spec.multiple) values[token.name] = [...((values[token.name] as string[] | undefined) ?? []), token.value];
    else values[token.name] = token.value;
  }
  return values as FlagValues;
}

function checkArity(command: CommandName, rest: readonly string[]): void {
  const spec = COMMANDS.find((c) => c.name === command)!;
  const wanted = spec.positionals;
  if (rest.length < wanted.length) {
    const missing = wanted.slice(rest.length).join(' ');
    throw new UsageError(`"toolshed ${command}" needs ${wanted.join(' ')}; missing ${missing}.`, { command });
  }
  if (rest.length > wanted.length) {
    const extra = rest.slice(wanted.length).map((a) => `"${a}"`).join(' ');
    const hint = wanted.some((w) => w.includes('json')) ? ' Quote the JSON input as one argument, for example \'{"text": "hi"}\'.' : '';
    throw new UsageError(`"toolshed ${command}" takes ${wanted.length === 0 ? 'no arguments' : wanted.join(' ')}; unexpected ${extra}.${hint}`, { command });
  }
  if (wanted[0] === '<Tool>' && rest[0]!.trim() === '') throw new UsageError(`The tool name is empty; run "toolshed tools" to see the names.`, { command });
}

function checkCwd(value: string | undefined, baseDir: string, command: CommandName): string {
  const dir = path.resolve(baseDir, value ?? '.');
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`--cwd "${value ?? dir}" does not exist (resolved to ${dir}); pass an existing directory.`, { command });
  }
  if (!isDir) throw new UsageError(`--cwd "${value ?? dir}" is not a directory (resolved to ${dir}); pass a directory.`, { command });
  return dir;
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
    if (e instanceof UsageError && e.command === undefined) throw new UsageError(e.message, { command, showUsage: e.showUsage });
    throw e;
  }
}

/** What a command function gets: its positional arguments and the common flags. */
export interface CommandInvocation {
  positionals: readonly string[];
  args: CommonArgs;
}
