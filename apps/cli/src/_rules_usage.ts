// Apart from rules_command.ts so that `toolshed --help` shows it without loading core.
/** The help text of `toolshed rules`. */
export const RULES_USAGE = [
  'Usage: toolshed rules lint [--cwd DIR] [--setting-sources LIST] [--settings FILE] [--mcp-config FILE] [--allow RULE] [--deny RULE] [--ask RULE] [--only LIST] [--json]',
  '',
  'Checks the permission rules of the settings files (and of --allow/--deny/--ask) and exits 1 when',
  'it finds a problem: a rule naming a tool that is not in the pool, a malformed specifier, an allow',
  'rule a deny rule always shadows, a Bash rule with a shell operator (&&, ||, ;, |) that can never',
  'match, a path rule that points outside every working directory, or a settings file that does not',
  'load (bad JSON, unknown key, bad mode). Warnings do not fail: a prefix without a word boundary, a',
  'rule for a Claude Code tool this pool lacks (Task, TodoWrite, …), a tool name in the wrong case, a',
  'backslash in a path rule. Rules for the tools of the MCP servers in .mcp.json (or --mcp-config)',
  'count as existing; the servers are not started.',
  '',
  'Flags:',
  '  --setting-sources LIST  Settings files to read: user,project,local,claude (default: all four).',
  '  --settings FILE         A further settings file, read after the sources (repeatable).',
  '  --mcp-config FILE       The MCP servers whose tools rules may name (default: .mcp.json in --cwd).',
  '  --only LIST             Families whose tools count as existing (default: all).',
  '  --json                  Print { files, findings, problems, warnings } as JSON.',
  '',
].join('\n');
