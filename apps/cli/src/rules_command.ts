import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  createSession,
  type FamilySettingsDef,
  type LintFinding,
  lintSettings,
  type RuleLayer,
  type SettingSource,
  type SettingsLintReport,
} from '@toolshed/core';
import { describeError, parseSettingSources } from '@toolshed/core/internal';
import type { CliIo } from './cli_io.ts';
import { DEFAULT_SETTING_SOURCES } from './default_setting_sources.ts';
import { FAMILY_SETTINGS_KEYS, loadFamilies, parseFamilyList } from './families.ts';
import { readMcpConfigFile } from './mcp_config_file.ts';
import { UsageError } from './usage_error.ts';
import { RULES_USAGE } from './_rules_usage.ts';
import { levelWord } from './_style.ts';

export { RULES_USAGE };

const OPTIONS = {
  cwd: { type: 'string' },
  'setting-sources': { type: 'string' },
  settings: { type: 'string', multiple: true },
  'mcp-config': { type: 'string' },
  allow: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  ask: { type: 'string', multiple: true },
  only: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `toolshed rules lint`: lints the permission rules of the settings files a session would read
 * (Toolshed's and Claude Code's by default; `--setting-sources` chooses)
 * and of the rule flags, against the pool of the selected families. Prints one line per
 * finding, then a summary; `--json` prints the report.
 *
 * @param argv The arguments after `toolshed rules` (`lint` first).
 * @param io The CLI's streams (`extraTools` joins the pool in tests).
 * @returns 0 when nothing is wrong (warnings allowed), 1 when a rule or settings file has a problem.
 * @throws {UsageError} For a missing or unknown subcommand, an unknown flag, an unknown setting
 *   source or family.
 *
 * @example
 * ```ts
 * import { rulesCommand, type CliIo } from '@toolshed/cli';
 * declare const io: CliIo;
 *
 * process.exitCode = await rulesCommand(['lint', '--setting-sources', 'project,claude'], io);
 * ```
 */
export async function rulesCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${describeError(e)}\n\n${RULES_USAGE}`, { showUsage: false });
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(RULES_USAGE);
    return 0;
  }
  const [sub, ...rest] = positionals;
  if (sub !== 'lint') {
    const what = sub === undefined ? 'needs a subcommand' : `has no subcommand "${sub}"`;
    throw new UsageError(`"toolshed rules" ${what}: the one subcommand is "lint".\n\n${RULES_USAGE}`, {
      showUsage: false,
    });
  }
  if (rest.length > 0)
    throw new UsageError(
      `"toolshed rules lint" takes no arguments, got ${rest.map((r) => `"${r}"`).join(' ')}.\n\n${RULES_USAGE}`,
      { showUsage: false },
    );

  const cwd = path.resolve(values.cwd ?? '.');
  let sources: SettingSource[];
  try {
    sources =
      values['setting-sources'] === undefined
        ? [...DEFAULT_SETTING_SOURCES]
        : parseSettingSources(values['setting-sources']);
  } catch (e) {
    throw new UsageError(`${describeError(e)} (in --setting-sources).`, { showUsage: false });
  }
  const { toolNames, familySettings } = await poolNames(parseFamilyList(values.only ?? []), io);
  const mcpServerNames = await configuredServers(values['mcp-config'], cwd, sources);
  const flags: RuleLayer = { source: 'cli', allow: values.allow ?? [], deny: values.deny ?? [], ask: values.ask ?? [] };
  const report = await lintSettings({
    cwd,
    sources,
    files: (values.settings ?? []).map((f) => path.resolve(f)),
    layers: [flags],
    toolNames,
    mcpServerNames,
    familySettings,
    otherFamilyKeys: FAMILY_SETTINGS_KEYS.filter((key) => !familySettings.some((def) => def.key === key)),
    // The CLI's environment decides where the user settings are (tests give a temporary HOME).
    homeDir: (io.env ?? process.env)['HOME'] || undefined,
  });
  const failed = report.problems.length > 0 || report.findings.some((f) => f.severity === 'error');
  if (values.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return failed ? 1 : 0;
  }
  for (const warning of report.warnings) io.stderr.write(`toolshed: ${levelWord('warn', io)}: ${warning}\n`);
  io.stdout.write(formatReport(report));
  return failed ? 1 : 0;
}

/**
 * The text form of a lint report: the settings problems, then one line per finding, then a
 * summary line naming the files that were read.
 *
 * @param report What `lintSettings` returned.
 * @returns The text, ending in a newline.
 *
 * @example
 * ```ts
 * import { formatReport, type CliIo } from '@toolshed/cli';
 * import { lintSettings } from '@toolshed/core';
 * declare const io: CliIo;
 * declare const cwd: string;
 *
 * io.stdout.write(formatReport(await lintSettings({ cwd, sources: ['project'] })));
 * ```
 */
export function formatReport(report: SettingsLintReport): string {
  const lines: string[] = [];
  for (const problem of report.problems) lines.push(`error [settings] ${problem}`);
  for (const finding of report.findings) lines.push(formatFinding(finding));
  const read = report.files.filter((f) => f.exists).map((f) => f.path);
  const errors = report.problems.length + report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.length + report.problems.length - errors;
  const from = read.length ? `settings files: ${read.join(', ')}` : 'no settings file found';
  lines.push(
    errors + warnings === 0
      ? `No problems found (${from}).`
      : `${count(errors, 'error')}, ${count(warnings, 'warning')} (${from}).`,
  );
  return `${lines.join('\n')}\n`;
}

function formatFinding(finding: LintFinding): string {
  return `${finding.severity} [${finding.kind}] ${finding.source}: ${finding.message}`;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The server names of the MCP configuration the other commands would read: `--mcp-config`, or `.mcp.json` with the `claude` source. */
async function configuredServers(
  file: string | undefined,
  cwd: string,
  sources: readonly SettingSource[],
): Promise<string[]> {
  if (file !== undefined) return Object.keys((await readMcpConfigFile(file, process.cwd()))['mcpServers'] as object);
  const project = path.join(cwd, '.mcp.json');
  if (!sources.includes('claude') || !existsSync(project)) return [];
  return Object.keys(
    (await readMcpConfigFile(project, cwd, { label: '.mcp.json', inProject: true }))['mcpServers'] as object,
  );
}

/** The names and aliases of the tools of the selected families (and the test hook's tools). */
async function poolNames(
  families: Parameters<typeof loadFamilies>[0],
  io: CliIo,
): Promise<{ toolNames: string[] | undefined; familySettings: FamilySettingsDef[] }> {
  const loaded = await loadFamilies(families);
  for (const warning of loaded.warnings) io.stderr.write(`toolshed: ${levelWord('warn', io)}: ${warning}\n`);
  const familySettings = loaded.families.flatMap((f) => (f.settings ? [f.settings] : []));
  const session = await createSession({ cwd: process.cwd(), families: loaded.families, tools: io.extraTools ?? [] });
  try {
    const names = new Set<string>();
    for (const entry of session.catalog()) {
      names.add(entry.name);
      for (const alias of entry.tool?.aliases ?? []) names.add(alias);
    }
    if (loaded.warnings.length > 0) {
      io.stderr.write(
        `toolshed: ${levelWord('warn', io)}: some families did not load, so rules naming unknown tools are not checked.\n`,
      );
      return { toolNames: undefined, familySettings };
    }
    return { toolNames: [...names], familySettings };
  } finally {
    await session.close();
  }
}
