import { existsSync } from 'node:fs';
import path from 'node:path';
import { withoutClaudeOnlyMcp } from './_mcp_claude_only.ts';
import { withSettingsEnv } from './_mcp_settings_env.ts';
import { selectMcpjsonServers } from './_mcpjson_selection.ts';
import { isProjectTrusted, loadSettings } from '@toolshed/core';
import type { CommonArgs } from './args.ts';
import { readMcpConfigFile } from './mcp_config_file.ts';
import { quoted } from './_printable.ts';

/** What {@linkcode readProjectFiles} found: the MCP configuration to use and what to tell the user. */
export interface ProjectFiles {
  /** The MCP configuration for the `mcp` family; undefined when there is none. */
  mcpConfig?: Record<string, unknown>;
  /** The file it came from, as messages name it. */
  mcpConfigFile?: string;
  /** What `${VAR}` in `mcpConfig` expands from: the process's environment, then the settings' `env`. */
  mcpEnv?: Record<string, string | undefined>;
  /** The settings and MCP files that exist and were read, absolute, lowest precedence first. */
  read: string[];
  /** Warnings for stderr: servers of `.mcp.json` that were not started, and why. */
  notices: string[];
}

/**
 * Finds the files a command reads besides its flags: the settings files of `--setting-sources`
 * (and `--settings`) that exist, and the MCP configuration — `--mcp-config FILE` whole, or else,
 * when the `claude` source is read, the project's `.mcp.json` as Claude Code reads it:
 *
 * - from a project folder that is not trusted (`toolshed trust DIR`), none of its servers start
 *   (they are commands the repository chose), with one notice naming them;
 * - once trusted, every server starts except those in `disabledMcpjsonServers`; when
 *   `enabledMcpjsonServers` is set (and `enableAllProjectMcpServers` is not true), only those.
 *
 * @param args The parsed common flags.
 * @param homeDir Whose settings and trust list.
 * @returns The MCP configuration, the files read and the notices.
 * @throws {UsageError} When the MCP file is not JSON, not an object or has no `mcpServers`.
 *
 * @example
 * ```ts
 * import type { CliIo, CommonArgs } from '@toolshed/cli';
 * import { readFilesLine, readProjectFiles } from './project_files.ts';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 * declare const homeDir: string;
 *
 * const project = await readProjectFiles(args, homeDir);
 * io.stderr.write(`toolshed: ${readFilesLine(project.read, { cwd: args.cwd, homeDir })}\n`);
 * ```
 */
export async function readProjectFiles(args: CommonArgs, homeDir: string): Promise<ProjectFiles> {
  const settingsFiles = args.settings.map((file) => path.resolve(process.cwd(), file));
  const settings = await loadSettings({ cwd: args.cwd, homeDir, sources: args.settingSources, files: settingsFiles });
  const out: ProjectFiles = { read: settings.files.filter((f) => f.exists).map((f) => f.path), notices: [] };
  const wantsMcp = args.families.includes('mcp');
  if (args.mcpConfig !== undefined) {
    if (!wantsMcp) return out;
    const claudeOnly = withoutClaudeOnlyMcp(await readMcpConfigFile(args.mcpConfig, process.cwd()), args.mcpConfig);
    out.notices.push(...claudeOnly.notices);
    const given = withSettingsEnv(claudeOnly.config, settings.env);
    out.mcpConfig = given.config;
    out.mcpEnv = given.expandFrom;
    out.mcpConfigFile = args.mcpConfig;
    out.read.push(path.resolve(process.cwd(), args.mcpConfig));
    return out;
  }
  const file = path.join(args.cwd, '.mcp.json');
  if (!wantsMcp || !args.settingSources.includes('claude') || !existsSync(file)) return out;
  const read = await readMcpConfigFile(file, args.cwd, { label: '.mcp.json', inProject: true });
  out.read.push(file);
  const names = Object.keys(read['mcpServers'] as Record<string, unknown>);
  if (names.length === 0) return out;
  if (!(await isProjectTrusted(args.cwd, { homeDir }))) {
    out.notices.push(
      `The servers of ${file} (${names.map(quoted).join(', ')}) were not started: the project folder is not trusted, and they are commands the repository chose. ` +
        `Run "toolshed trust ${args.cwd}" to start them by default, or name the file once with --mcp-config ${file}.`,
    );
    return out;
  }
  const claudeOnly = withoutClaudeOnlyMcp(read, '.mcp.json');
  const config = claudeOnly.config;
  const servers = config['mcpServers'] as Record<string, unknown>;
  out.notices.push(...claudeOnly.notices);
  const { kept, left } = selectMcpjsonServers(servers, settings.mcpjsonServers);
  if (left.length) {
    const named = left.map((l) => `${quoted(l.name)} (${l.why})`).join(', ');
    out.notices.push(`Servers of ${file} not started, as the settings say: ${named}.`);
  }
  const applied = withSettingsEnv({ ...config, mcpServers: kept }, settings.env);
  out.mcpConfig = applied.config;
  out.mcpEnv = applied.expandFrom;
  out.mcpConfigFile = file;
  return out;
}

/**
 * The one line that says which files a command read, with paths under the project or the home
 * folder shortened (`.claude/settings.json`, `~/.claude/settings.json`).
 *
 * @param files Absolute paths.
 * @param options The project folder (`cwd`) and the home folder (`homeDir`).
 * @returns For example `read .claude/settings.json, ~/.claude/settings.json, .mcp.json`, or
 *   `read no settings or MCP file` when there are none.
 *
 * @example
 * ```ts
 * import { readFilesLine } from './project_files.ts';
 *
 * readFilesLine(['/p/.claude/settings.json', '/h/.claude/settings.json'], { cwd: '/p', homeDir: '/h' });
 * // 'read .claude/settings.json, ~/.claude/settings.json'
 * ```
 */
export function readFilesLine(files: readonly string[], { cwd, homeDir }: { cwd: string; homeDir: string }): string {
  if (files.length === 0) return 'read no settings or MCP file';
  const short = (file: string) => {
    const inProject = path.relative(path.resolve(cwd), file);
    if (!inProject.startsWith('..') && !path.isAbsolute(inProject)) return inProject;
    const inHome = path.relative(path.resolve(homeDir), file);
    if (!inHome.startsWith('..') && !path.isAbsolute(inHome)) return `~/${inHome}`;
    return file;
  };
  return `read ${[...new Set(files.map(short))].join(', ')}`;
}
