import { FAMILY_NAMES } from './families.ts';
import { RULES_USAGE } from './_rules_usage.ts';
import { BENCH_USAGE } from './bench_command.ts';

/** One command the CLI runs today. */
export interface CommandSpec {
  /** The command word. */
  name: string;
  /** The positional arguments, in order, as the usage line names them. */
  positionals: readonly string[];
  /** The last positional takes one or more words (the query of `search`). */
  variadic?: boolean;
  /** The command checks its own arguments (`mcp` names the subcommand that is missing). */
  ownArguments?: boolean;
  /** The usage line after `toolshed`. */
  synopsis: string;
  /** One line: what it does. */
  summary: string;
  /** More lines for `toolshed <command> --help`. */
  details: readonly string[];
  /** Command lines to try, shown by the help. */
  examples: readonly string[];
}

/** The commands that are built, in the order the help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'demo',
    positionals: [],
    synopsis: 'demo [--json]',
    summary: 'Replay a bundled agent session on a copy of a sample repo (what `pnpm start` runs).',
    details: [
      'A scripted agent fixes a typo in a temporary copy of apps/cli/demo/sample-repo with the fs, shell, web,',
      'search and MCP families: parallel batches, deferred tools loaded by ToolSearch (an issue-tracker MCP',
      'server over stdio, WebFetch against a docs server on 127.0.0.1), allow and deny rules, and a result',
      'too large to send, persisted with a preview.',
      'Needs no network and no API key. Exit 1 when the session does not go as scripted.',
    ],
    examples: ['toolshed demo', 'toolshed demo --json'],
  },
  {
    name: 'tools',
    positionals: [],
    synopsis: 'tools [--json]',
    summary: 'List the pool: name, family, read-only, concurrency-safe, deferred.',
    details: [
      'Read-only and concurrency-safe depend on the input; they are shown for an empty input {}',
      'and as "varies" (null in JSON) when {} is not a valid input for the tool.',
      'Family notices (a tool that is disabled until configured, a server that failed) go to stderr.',
      'With --json: [{ name, family, readOnly, concurrencySafe, deferred, description }].',
    ],
    examples: ['toolshed tools', 'toolshed tools --only fs,shell --json'],
  },
  {
    name: 'call',
    positionals: ['<Tool>', '<json|->'],
    synopsis: 'call <Tool> <json|-> [--json] [--no-read-first]',
    summary: 'Run one call through the whole pipeline (exit 0 ok, 1 tool error, 2 usage error).',
    details: [
      'The input is a JSON object, or - to read it from stdin.',
      'Prints the result text (errors on stderr); with --json, the tool_result block.',
      'A Bash command that exits non-zero, times out or is killed exits 1; its output is printed.',
      'Edit, Write and NotebookEdit of an existing file Read it first through the same session (you',
      'have seen the file; Read rules still apply), so the edit can succeed. --no-read-first skips that.',
    ],
    examples: [
      `toolshed call Read '{"file_path":"README.md"}'`,
      `echo '{"command":"npm test"}' | toolshed call Bash - --allow 'Bash(npm test:*)'`,
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
      'SOURCE is "cli" for --allow/--deny/--ask and the settings file\'s path for its rules.',
    ],
    examples: [
      `toolshed check Bash '{"command":"rm -rf build"}' --deny 'Bash(rm:*)'`,
      `toolshed check Read '{"file_path":".env"}' --settings ci-settings.json --json`,
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
      `A transcript: [[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a.ts"}}]]`,
    ],
    examples: ['toolshed run transcript.json', 'cat transcript.json | toolshed run - --json --yes'],
  },
  {
    name: 'search',
    positionals: ['<query>'],
    variadic: true,
    synopsis: 'search <query> [--corpus FILE] [--json]',
    summary: "Show ToolSearch's ranking for a query (exit 0 matches, 1 none, 2 usage error).",
    details: [
      "Ranks the session's deferred tools (every tool when none is deferred), or with --corpus FILE",
      'the tools of a JSON file: an array of { name, description, input_schema }, OpenAI function',
      'tools, or a saved request with a "tools" array. Several words may come as several arguments.',
      'With --json: { query, corpus, searched, results: [{ rank, name, score, description }] }.',
    ],
    examples: ['toolshed search "send slack message" --corpus tools.json', 'toolshed search cron schedule --json'],
  },
  {
    name: 'mcp',
    positionals: ['<serve|list>'],
    ownArguments: true,
    synopsis: 'mcp <serve|list> [--http PORT] [--approve deny|elicit|tty] [--json]',
    summary: 'Serve the families to MCP clients (serve), or check the configured servers (list).',
    details: [
      'mcp serve: serves the session over stdio (stdout carries the protocol, messages go to stderr),',
      '  or with --http PORT over Streamable HTTP at http://127.0.0.1:PORT/mcp until Ctrl-C. Over HTTP',
      '  clients send "Authorization: Bearer <token>": the token is printed once and written to',
      '  ~/.toolshed/mcp-serve-PORT.token (0600), or read from --token-file FILE; --no-auth serves',
      '  without one (loopback only, with a warning). Each HTTP client gets its own session.',
      '  --approve deny|elicit|tty: who answers a call that needs approval — nobody (default: the',
      "  denial names the rule to --allow), the client's user (MCP elicitation), or you at this",
      '  terminal; --yes allows every call.',
      'mcp list: connects to every server of --mcp-config (default: .mcp.json in --cwd) and prints',
      '  transport, status and tool count; exit 1 when a server failed, 2 when there is no config.',
      'mcp login SERVER: signs in to a remote server with OAuth (the browser comes back to 127.0.0.1);',
      '  the tokens go to ~/.toolshed/mcp-oauth.json (0600), where sessions find them.',
      "mcp prompt [SERVER [PROMPT [ARG...]]]: lists the servers' prompts (as /mcp__server__prompt with",
      '  their arguments), or gets one and prints its messages; ARGs fill its arguments in order,',
      '  name=value by name. In chat, /mcp__server__prompt ARG... sends the prompt as your message.',
      "mcp serve offers the skills of the agent family (and its MCP servers' prompts) as MCP prompts.",
    ],
    examples: [
      'toolshed mcp serve --only fs,shell --allow Read',
      'toolshed mcp serve --http 8931',
      'toolshed mcp list --mcp-config .mcp.json --json',
      'toolshed mcp login github',
      'toolshed mcp prompt everything args-prompt Paris state=Texas',
    ],
  },
  {
    name: 'chat',
    positionals: [],
    variadic: true,
    synopsis: 'chat [--model ID] [--provider P] [-p PROMPT [--json]]',
    summary: 'Chat with an agent on the selected families: a real model, streamed, with permission prompts.',
    details: [
      'The model: ANTHROPIC_API_KEY (Anthropic; ANTHROPIC_BASE_URL is honoured), or OPENAI_API_KEY and/or',
      'OPENAI_BASE_URL (OpenAI, or an OpenAI-compatible server: llama.cpp, Ollama, vLLM). --provider picks one:',
      'anthropic, openai (Chat Completions) or openai-responses; --model the model id. No key: exit 2.',
      'Interactive: tool calls are shown as they run; a permission prompt offers allow once, always for',
      'the suggested rule, or deny. Ctrl-C aborts the running turn; Ctrl-C at the prompt (or twice) exits;',
      "/exit quits. The session's metrics and the tokens used are printed at the end.",
      '-p/--print PROMPT (also "toolshed -p PROMPT"): one prompt, non-interactive; prints the answer, with',
      '--json the whole run. Without a TTY and without --yes, whatever would ask is denied. --max-turns N.',
    ],
    examples: [
      'toolshed chat',
      'OPENAI_BASE_URL=http://127.0.0.1:8080/v1 toolshed chat --model qwen3',
      'toolshed -p "What does src/main.ts do?" --only fs --json',
    ],
  },
  {
    name: 'rules',
    positionals: ['lint'],
    synopsis: 'rules lint [--json]',
    summary: 'Lint the permission rules of the settings files and flags (exit 1 on a problem).',
    details: [],
    examples: ['toolshed rules lint', 'toolshed rules lint --setting-sources project,claude --json'],
  },
  {
    name: 'bench',
    positionals: [],
    synopsis: 'bench [suite...] [--quick]',
    summary: 'Run the benchmark suites of a checkout; write bench/results/report.md with SVG charts.',
    details: [],
    examples: ['toolshed bench result_persistence --quick', 'toolshed bench --help'],
  },
  {
    name: 'trust',
    positionals: ['[DIR]'],
    ownArguments: true,
    synopsis: 'trust [DIR] [--json]',
    summary: "Trust a project folder's settings files (default: --cwd), so that they apply whole.",
    details: [
      'Until a folder is trusted, its .toolshed/ and .claude/ settings may only tighten: deny and ask',
      'rules apply; allow rules, acceptEdits/bypassPermissions, additionalDirectories and hooks are',
      'ignored with one notice, and its .mcp.json is not used by default. The list of trusted folders',
      "is ~/.toolshed/trusted-projects.json; a trusted folder's subfolders are trusted too.",
    ],
    examples: ['toolshed trust', 'toolshed trust ../cloned-repo'],
  },
];

/** Commands of DESIGN.md's CLI table that are not built yet, with their usage line. */
export const PLANNED_COMMANDS: readonly { name: string; synopsis: string; summary: string; hint?: string }[] = [];

const COMMON_FLAGS: readonly [string, string][] = [
  ['--cwd DIR', 'Working directory of the session (default: the current directory).'],
  ['--only LIST', `Families to load, comma-separated: ${FAMILY_NAMES.join(',')} (default: all).`],
  ['--mode MODE', 'Permission mode: default, acceptEdits, plan, bypassPermissions, dontAsk.'],
  ['--allow RULE', 'Allow rule such as "Bash(npm test:*)" (repeatable; source "cli").'],
  ['--deny RULE', 'Deny rule such as "Read(./.env)" (repeatable).'],
  ['--ask RULE', 'Ask rule: always ask before such a call (repeatable).'],
  [
    '--setting-sources LIST',
    'Settings files to read: user,project,local,claude (default: all four; claude is ~/.claude/settings.json, .claude/settings*.json and .mcp.json; "" for none).',
  ],
  ['--settings FILE', 'A further Claude-Code-shaped settings file, read after the sources (repeatable).'],
  ['--mcp-config FILE', 'MCP servers, in the format of .mcp.json.'],
  ['--yes', 'Answer every permission prompt with allow.'],
  ['--json', 'Machine-readable output.'],
  ['-h, --help', 'Show help.'],
  ['--version', 'Show the version.'],
];

const COMMAND_FLAGS: readonly [string, string][] = [
  ['--http PORT', 'mcp serve: Streamable HTTP on 127.0.0.1:PORT instead of stdio (0 picks a free port).'],
  ['--corpus FILE', 'search: rank the tools of a JSON file instead of the session.'],
];

const SETTINGS_NOTE = [
  'Settings: user is ~/.toolshed/settings.json, project .toolshed/settings.json, local',
  '.toolshed/settings.local.json, claude ~/.claude/settings.json, .claude/settings.json,',
  '.claude/settings.local.json and .mcp.json (one line on stderr names the files read).',
  'Rule lists add up across files and flags (deny beats ask beats allow); --mode beats defaultMode.',
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
    'Flags of one command:',
    table(COMMAND_FLAGS),
    '',
    ...SETTINGS_NOTE,
    'A call that needs approval asks in a terminal: [y] allow once, [a] always (the suggested rules,',
    'saved to .toolshed/settings.local.json), [n] deny. Without a TTY and without --yes, it is denied.',
    'In a terminal, a spinner shows while calls run, and prompts are coloured; NO_COLOR=1, TERM=dumb or',
    'output that is not a terminal keeps it plain.',
  ].join('\n');
}

function examplesText(specs: readonly CommandSpec[]): string {
  return ['Examples:', ...specs.flatMap((c) => c.examples.map((e) => `  ${e}`))].join('\n');
}

/**
 * The overall help: every command of DESIGN.md's CLI table (the planned ones marked), examples,
 * the flags and the exit codes.
 *
 * @returns The text, ending in a newline.
 *
 * @example
 * ```ts
 * import { overallUsage, type CliIo } from '@toolshed/cli';
 * declare const io: CliIo;
 *
 * io.stdout.write(overallUsage());
 * ```
 */
export function overallUsage(): string {
  const built = COMMANDS.map((c) => [`toolshed ${c.synopsis}`, c.summary] as const);
  const planned = PLANNED_COMMANDS.map(
    (c) => [`toolshed ${c.synopsis}`, `${c.summary} (not yet implemented)`] as const,
  );
  return [
    'Usage: toolshed <command> [arguments] [flags]',
    '',
    'Commands:',
    table([...built, ...planned]),
    '',
    examplesText(COMMANDS.map((c) => ({ ...c, examples: c.examples.slice(0, 1) }))),
    '',
    flagsText(),
    '',
    'Exit codes: 0 ok, 1 a tool error (or nothing found, a failed server, a rule problem), 2 a usage error.',
    'Run "toolshed <command> --help" (or "toolshed help <command>") for more about a command.',
    '',
  ].join('\n');
}

/**
 * The help of one command: its usage line, what it does, examples, and the flags. `rules` has
 * flags of its own, so its help is {@linkcode RULES_USAGE}.
 *
 * @param name A command of {@linkcode COMMANDS}.
 * @returns The text, ending in a newline; the overall usage for a name that is not a command.
 *
 * @example
 * ```ts
 * import { commandUsage } from '@toolshed/cli';
 *
 * commandUsage('call'); // "Usage: toolshed call <Tool> <json|-> [--json] [flags]\n..."
 * ```
 */
export function commandUsage(name: string): string {
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) return overallUsage();
  if (spec.name === 'rules') return [RULES_USAGE.trimEnd(), '', examplesText([spec]), ''].join('\n');
  if (spec.name === 'bench') return [BENCH_USAGE.trimEnd(), '', examplesText([spec]), ''].join('\n');
  return [
    `Usage: toolshed ${spec.synopsis} [flags]`,
    '',
    spec.summary,
    ...spec.details,
    '',
    examplesText([spec]),
    '',
    flagsText(),
    '',
  ].join('\n');
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
 * import { usageHint } from '@toolshed/cli';
 *
 * usageHint('call'); // "Usage: toolshed call <Tool> <json|-> [--json] [flags]\nFlags: --cwd DIR, ..."
 * ```
 */
export function usageHint(name: string | undefined): string {
  const spec = COMMANDS.find((c) => c.name === name);
  const flags = `Flags: ${COMMON_FLAGS.map(([flag]) => flag).join(', ')}.`;
  if (!spec) {
    const lines = COMMANDS.map((c) => `  toolshed ${c.synopsis}`);
    return ['Usage:', ...lines, flags, 'Run "toolshed --help" for every command, including the planned ones.', ''].join(
      '\n',
    );
  }
  return [
    `Usage: toolshed ${spec.synopsis} [flags]`,
    flags,
    `Run "toolshed ${spec.name} --help" for details.`,
    '',
  ].join('\n');
}

/**
 * The message for a command of DESIGN.md that is not built yet, pointing at what exists (and,
 * for `bench`, at `pnpm bench`).
 *
 * @param name The planned command, such as `demo` or `bench`.
 * @returns One paragraph, ending in a newline.
 *
 * @example
 * ```ts
 * import { notYetImplemented } from '@toolshed/cli';
 *
 * notYetImplemented('demo'); // "toolshed: \"toolshed demo\" is not yet implemented. ..."
 * ```
 */
export function notYetImplemented(name: string): string {
  const available = COMMANDS.map((c) => c.name).join(', ');
  const hint = PLANNED_COMMANDS.find((c) => c.name === name)?.hint;
  return `toolshed: "toolshed ${name}" is not yet implemented.${hint ? ` ${hint}` : ''} The commands that work today are ${available}; run "toolshed --help" to see them.\n`;
}
