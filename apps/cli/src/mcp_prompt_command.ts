import {
  describeSkillArguments,
  SkillSources,
  skillArguments,
  skillSourcesKey,
  skillUsage,
  type SourcedSkill,
} from '@toolshed/core';
import { closestNames, describeError } from '@toolshed/core/internal';
import { mcpServerSegment, mcpToolName } from '@toolshed/mcp-bridge';
import type { CommandInvocation } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { loadFamilies } from './families.ts';
import { readFilesLine, readProjectFiles } from './project_files.ts';
import { createCliSession, settingsOptions } from './session_from_args.ts';
import { UsageError } from './usage_error.ts';
import { escapeUnprintable, printableMessage } from './_printable.ts';

type Listed = SourcedSkill & { source: string };

/**
 * `toolshed mcp prompt [SERVER [PROMPT [ARG…]]]`: the prompts of the MCP servers (`--mcp-config`,
 * or the trusted project's `.mcp.json`), as Claude Code offers them as `/mcp__<server>__<prompt>`
 * commands. Without a prompt it lists them (every server's, or one server's) with their
 * arguments; with one it gets it and prints its messages. `ARG`s fill the prompt's arguments in
 * order (the last one takes the rest), `name=value` sets one by name. `PROMPT` may also be given
 * whole as `mcp__<server>__<prompt>`. A server or prompt name that is not known gets a "did you mean".
 *
 * @param words The positionals after `prompt`.
 * @param options The common flags (`--cwd`, `--mcp-config`, `--json`, settings) and the CLI's streams.
 * @returns 0 ok; 1 the server failed or answered with an error.
 * @throws {UsageError} For an unknown server or prompt, a missing required argument, or no MCP configuration.
 *
 * @example
 * ```ts
 * import type { CliIo, CommonArgs } from '@toolshed/cli';
 * import { mcpPromptCommand } from './mcp_prompt_command.ts';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await mcpPromptCommand(['everything', 'args-prompt', 'Paris'], { args, io }); // [user] What's weather in Paris?
 * ```
 */
export async function mcpPromptCommand(
  words: readonly string[],
  { args, io }: { args: CommandInvocation['args']; io: CliIo },
): Promise<number> {
  const settings = settingsOptions(args, io);
  const project = await readProjectFiles(args, settings.homeDir);
  if (project.read.length > 0)
    io.stderr.write(`toolshed: ${readFilesLine(project.read, { cwd: args.cwd, homeDir: settings.homeDir })}\n`);
  for (const notice of project.notices) io.stderr.write(`toolshed: warn: ${printableMessage(notice)}\n`);
  const servers = Object.keys((project.mcpConfig?.['mcpServers'] as Record<string, unknown> | undefined) ?? {});
  if (!project.mcpConfig || servers.length === 0)
    throw new UsageError(
      `No MCP servers to get prompts from: give --mcp-config FILE, or put a .mcp.json in ${args.cwd} (and run "toolshed trust" there).`,
      { showUsage: false },
    );
  const { families } = await loadFamilies(['mcp'], {
    mcpConfig: project.mcpConfig,
    ...(project.mcpConfigFile ? { mcpConfigFile: project.mcpConfigFile } : {}),
    homeDir: settings.homeDir,
  });
  const skills = new SkillSources();
  const session = await createCliSession({
    cwd: args.cwd,
    families,
    ...settings,
    services: [[skillSourcesKey, skills]],
    ...(io.signal ? { signal: io.signal } : {}),
  });
  try {
    // A server that failed says so; what a server says of its tools (info) is not for this command.
    for (const notice of session.notices())
      if (notice.level !== 'info') io.stderr.write(`toolshed: ${notice.level}: ${printableMessage(notice.message)}\n`);
    const { skills: listed, problems } = await skills.list();
    for (const p of problems) io.stderr.write(`toolshed: error: ${printableMessage(p.message)}\n`);
    const prompts = listed.filter((s) => s.source === 'mcp');
    return await run(words, { servers, prompts, skills, args, io });
  } finally {
    await session
      .close()
      .catch((e: unknown) => io.stderr.write(`toolshed: warn: ${printableMessage(describeError(e))}\n`));
  }
}

interface RunParts {
  servers: readonly string[];
  prompts: readonly Listed[];
  skills: SkillSources;
  args: CommandInvocation['args'];
  io: CliIo;
}

async function run(words: readonly string[], parts: RunParts): Promise<number> {
  const { servers, prompts } = parts;
  const [first, second, ...rest] = words;
  if (first === undefined) return list(prompts, parts);
  // `mcp prompt mcp__everything__args-prompt Paris`: the name Claude Code's command has.
  const whole = first.startsWith('mcp__') ? prompts.find((p) => p.name === first) : undefined;
  if (whole) return await get(whole, second === undefined ? rest : [second, ...rest], parts);
  const server = servers.find((s) => s === first);
  if (!server) {
    const near = closestNames(first, [...servers, ...prompts.map((p) => p.name)], { max: 2 });
    throw new UsageError(
      `No MCP server named "${first}".${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''} Servers: ${servers.join(', ')}.`,
      { command: 'mcp' },
    );
  }
  const own = prompts.filter((p) => p.name.startsWith(`mcp__${mcpServerSegment(server)}__`));
  if (second === undefined) return list(own, parts, server);
  const name = mcpToolName(server, second);
  const found = own.find((p) => p.name === name);
  if (!found) {
    const names = own.map((p) => promptName(p, server));
    const near = closestNames(second, names, { max: 2 });
    throw new UsageError(
      own.length === 0
        ? `MCP server "${server}" offers no prompts (or it did not start: see the messages above; "toolshed mcp list" shows its status).`
        : `MCP server "${server}" has no prompt "${second}".${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''} Its prompts: ${names.join(', ')}.`,
      { command: 'mcp' },
    );
  }
  return await get(found, rest, parts);
}

function promptName(p: Listed, server: string): string {
  return p.name.slice(`mcp__${mcpServerSegment(server)}__`.length);
}

function usage(p: Listed): string {
  return skillUsage(p.arguments ?? []);
}

function list(prompts: readonly Listed[], { io, args }: RunParts, server?: string): number {
  if (args.json) {
    io.stdout.write(`${JSON.stringify(prompts, null, 2)}\n`);
    return 0;
  }
  if (prompts.length === 0) {
    io.stdout.write(server ? `MCP server "${server}" offers no prompts.\n` : 'No MCP server offers prompts.\n');
    return 0;
  }
  // A server's own words (descriptions, argument names) are shown with their escape codes escaped.
  const rows = prompts.map((p) => [
    escapeUnprintable(`/${p.name}${usage(p) ? ` ${usage(p)}` : ''}`),
    escapeUnprintable(p.description),
  ]);
  const width = Math.max(...rows.map((r) => r[0]!.length));
  io.stdout.write(`${rows.map(([a, b]) => `${a!.padEnd(width)}  ${b}`.trimEnd()).join('\n')}\n`);
  return 0;
}

async function get(prompt: Listed, words: readonly string[], { skills, io, args }: RunParts): Promise<number> {
  // The shell already split the words; quoted again, so that one with spaces stays one argument.
  const text = words.map((w) => (w.includes("'") ? JSON.stringify(w) : `'${w}'`)).join(' ');
  const declared = prompt.arguments ?? [];
  const { values, missing, unused } = skillArguments(text, declared);
  const command = `toolshed mcp prompt ${prompt.name}${usage(prompt) ? ` ${usage(prompt)}` : ''}`;
  if (missing.length)
    throw new UsageError(
      `The prompt ${prompt.name} needs ${missing.map((m) => `"${m}"`).join(' and ')}: ${command} (or name=value). Its arguments: ${describeSkillArguments(declared)}.`,
      { command: 'mcp', showUsage: false },
    );
  if (unused.length)
    throw new UsageError(
      `The prompt ${prompt.name} takes no arguments; unexpected ${unused.map((u) => `"${u}"`).join(' ')}.`,
      {
        command: 'mcp',
        showUsage: false,
      },
    );
  let loaded: string | undefined;
  try {
    loaded = await skills.load(prompt.name, { arguments: values, filter: (s) => s.name === 'mcp' });
  } catch (e) {
    io.stderr.write(`toolshed: ${printableMessage(describeError(e))}\n`);
    return 1;
  }
  if (loaded === undefined) {
    io.stderr.write(`toolshed: the prompt ${prompt.name} is no longer offered by its server.\n`);
    return 1;
  }
  if (args.json)
    io.stdout.write(`${JSON.stringify({ name: prompt.name, arguments: values, text: loaded }, null, 2)}\n`);
  else io.stdout.write(`${loaded.replace(/\n*$/, '')}\n`);
  return 0;
}
