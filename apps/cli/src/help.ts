import { FAMILY_NAMES } from './families.ts';

/** One command the CLI runs today. */
export interface CommandSpec {
  /** The command word. */
  name: string;
  /** The positional arguments, in order, as the usage line names them. */
  positionals: readonly string[];
  /** The usage line after `toolshed`. */
  synopsis: string;
  /** One line: what it does. */
  summary: string;
  /** More lines for `toolshed <command> --help`. */
  details: readonly string[];
}

/** The commands that are built, in the order the help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'tools',
    positionals: [],
    synopsis: 'tools [--json]',
    summary: 'List the pool: name, family, read-only, concurrency-safe, deferred.',
    details: [
      'Read-only and concurrency-safe depend on the input; they are shown for an empty input {}',
      'and as "varies" (null in JSON) when {} is not a valid input for the tool.',
      'With --json: [{ name, family, readOnly, concurrencySafe, deferred, description }].',
    ],
  },
  {
    name: 'call',
    positionals: ['<Tool>', '<json|->'],
    synopsis: 'call <Tool> <json|-> [--json]',
    summary: 'Run one call through the whole pipeline (exit 0 ok, 1 tool error, 2 usage error).',
    details: [
      'The input is a JSON object, or - to read it from stdin.',
      'Prints the result text (errors on stderr); with --json, the tool_result block.',
      `Example: toolshed call Read '{"file_path":"README.md"}'`,
    ],
  },
  {
    name: 'check',
    positionals: ['<Tool>', '<json|->'],
    synopsis: 'check <Tool> <json|-> [--json]',
    summary: 'Show the permission decision for a call without running it or its hooks.',
    details: [
      'Prints "allow|ask|deny: reason (rule "X" from SOURCE)";',
      'with --json: { "behavior", "reason", "rule", "source" }. Exit 0 whatever the decision.',
      `Example: toolshed check Bash '{"command":"rm -rf build"}' --deny 'Bash(rm:*)'`,
    ],
  },
  {
    name: 'run',
    positionals: ['<file|->'],
    synopsis: 'run <file|-> [--json]',
    summary: 'Replay a transcript: a JSON array of turns, each an array of tool_use blocks.',
    details: [
      'All turns share one session, so a Read in turn 1 counts for an Edit in turn 2.',
      'Block ids must be unique across the transcript. Exit 0 when every result is ok, 1 otherwise.',
      'With --json: { "turns": [[tool_result, ...], ...], "metrics": {...} }.',
      `Example: [[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a.ts"}}]]`,
    ],
  },
];

/** Commands of DESIGN.md's CLI table that are not built yet, with their usage line. */
export const PLANNED_COMMANDS: readonly { name: string; synopsis: string; summary: string }[] = [
  { name: 'demo', synopsis: 'demo', summary: 'Replay a bundled agent session on a sample repo.' },
  { name: 'search', synopsis: 'search <query> [--json]', summary: "Show ToolSearch's ranking for a query." },
  { name: 'mcp serve', synopsis: 'mcp serve [--http PORT]', summary: 'Serve the selected families to MCP clients.' },
  { name: 'chat', synopsis: 'chat', summary: 'An agent loop with a real model.' },
  { name: 'bench', synopsis: 'bench [suite] [--quick]', summary: 'Run the benchmark suites.' },
  { name: 'rules lint', synopsis: 'rules lint', summary: 'Check permission rules and settings files.' },
];

const COMMON_FLAGS: readonly [string, string][] = [
  ['--cwd DIR', 'Working directory of the session (default: the current directory).'],
  ['--only LIST', `Families to load, comma-separated: ${FAMILY_NAMES.join(',')} (default: all).`],
  ['--mode MODE', 'Permission mode: default, acceptEdits, plan, bypassPermissions, dontAsk.'],
  ['--allow RULE', 'Allow rule such as "Bash(npm test:*)" (repeatable).'],
  ['--deny RULE', 'Deny rule such as "Read(./.env)" (repeatable).'],
  ['--ask RULE', 'Ask rule: always ask before such a call (repeatable).'],
  ['--settings FILE', 'Claude-Code-shaped settings JSON: { permissions, hooks }. Flags win over it.'],
  ['--mcp-config FILE', 'MCP servers, in the format of .mcp.json.'],
  ['--yes', 'Answer every permission prompt with allow.'],
  ['--json', 'Machine-readable output.'],
  ['-h, --help', 'Show help.'],
  ['--version', 'Show the version.'],
];

function table(rows: readonly (readonly [string, string])[], indent = '  '): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`).join('\n');
}

function flagsText(): string {
  return [
    'Common flags:',
    table(COMMON_FLAGS),
    '',
    'Without a TTY and without --yes, a call that needs approval is denied.',
  ].join('\n');
}

/**
 * The overall help: every command of DESIGN.md's CLI table (the planned ones marked) and the
 * common flags.
 *
 * @returns The text, ending in a newline.
 *
 * @example
 * ```ts
 * io.stdout.write(overallUsage());
 * ```
 */
export function overallUsage(): string {
  const built = COMMANDS.map((c) => [`toolshed ${c.synopsis}`, c.summary] as const);
  const planned = PLANNED_COMMANDS.map((c) => [`toolshed ${c.synopsis}`, `${c.summary} (not yet implemented)`] as const);
  return [
    'Usage: toolshed <command> [arguments] [flags]',
    '',
    'Commands:',
    table([...built, ...planned]),
    '',
    flagsText(),
    '',
    'Run "toolshed <command> --help" for more about a command.',
    '',
  ].join('\n');
}

/**
 * The help of one command: its usage line, what it does, and the common flags.
 *
 * @param name A command of {@linkcode COMMANDS}.
 * @returns The text, ending in a newline; the overall usage for a name that is not a command.
 *
 * @example
 * ```ts
 * commandUsage('call'); // "Usage: toolshed call <Tool> <json|-> [--json] [flags]\n..."
 * ```
 */
export function commandUsage(name: string): string {
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) return overallUsage();
  return [`Usage: toolshed ${spec.synopsis} [flags]`, '', spec.summary, ...spec.details, '', flagsText(), ''].join('\n');
}

/**
 * The short usage shown under a usage error: the command's usage line (or every command's), the
 * flags in one line, and where the full help is.
 *
 * @param name A command of {@linkcode COMMANDS}, or undefined for the overall list.
 * @returns The text, ending in a newline.
 *
 * @example
 * ```ts
 * usageHint('call'); // "Usage: toolshed call <Tool> <json|-> [--json] [flags]\nFlags: --cwd DIR, ..."
 * ```
 */
export function usageHint(name: string | undefined): string {
  const spec = COMMANDS.find((c) => c.name === name);
  const flags = `Flags: ${COMMON_FLAGS.map(([flag]) => flag).join(', ')}.`;
  if (!spec) {
    const lines = COMMANDS.map((c) => `  toolshed ${c.synopsis}`);
    return ['Usage:', ...lines, flags, 'Run "toolshed --help" for every command, including the planned ones.', ''].join('\n');
  }
  return [`Usage: toolshed ${spec.synopsis} [flags]`, flags, `Run "toolshed ${spec.name} --help" for details.`, ''].join('\n');
}

/**
 * The message for a command of DESIGN.md that is not built yet, pointing at what exists.
 *
 * @param name The planned command, such as `demo` or `mcp serve`.
 * @returns One paragraph, ending in a newline.
 *
 * @example
 * ```ts
 * notYetImplemented('demo'); // "toolshed: \"toolshed demo\" is not yet implemented. ..."
 * ```
 */
export function notYetImplemented(name: string): string {
  const available = COMMANDS.map((c) => c.name).join(', ');
  return `toolshed: "toolshed ${name}" is not yet implemented. The commands that work today are ${available}; run "toolshed --help" to see them.\n`;
}
