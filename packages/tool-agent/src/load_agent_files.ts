import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PERMISSION_MODES, type PermissionMode } from '@toolshed/core';
import type { LoadedAgent } from './agent_definition.ts';
import { readShortText } from './_read_short_text.ts';

/** A file that could not be loaded as an agent, and how to fix it. */
export interface AgentFileProblem {
  file: string;
  /** The frontmatter key at fault, when one is. */
  key?: string;
  message: string;
}

/** Options of {@linkcode loadAgentFiles}. */
export interface LoadAgentFilesOptions {
  /** The project: `.claude/agents` and `.toolshed/agents` under it are read. */
  cwd: string;
  /** `~`: `~/.claude/agents` and `~/.toolshed/agents` are read. @default os.homedir() */
  homeDir?: string | undefined;
  /** @default ['user', 'project'] */
  sources?: readonly ('user' | 'project')[] | undefined;
}

const KNOWN_KEYS = new Set(['name', 'description', 'tools', 'disallowedTools', 'model', 'permissionMode', 'maxTurns']);
// Claude Code keys Toolshed does not use: loaded, ignored without a warning.
const IGNORED_KEYS = new Set([
  'color',
  'hooks',
  'skills',
  'memory',
  'mcpServers',
  'effort',
  'isolation',
  'background',
  'initialPrompt',
]);

/**
 * The agent folders, in the order they are read (a later definition of a name wins): user
 * `~/.claude/agents`, `~/.toolshed/agents`, then project `.claude/agents`, `.toolshed/agents`.
 *
 * @param options Where the user and project are.
 * @returns The folders.
 *
 * @example
 * ```ts
 * import { agentDirectories } from '@toolshed/tool-agent';
 *
 * agentDirectories({ cwd: '/p', homeDir: '/home/u' })[0]; // '/home/u/.claude/agents'
 * ```
 */
export function agentDirectories(options: LoadAgentFilesOptions): string[] {
  const home = options.homeDir ?? os.homedir();
  const sources = options.sources ?? ['user', 'project'];
  const dirs: string[] = [];
  if (sources.includes('user')) dirs.push(path.join(home, '.claude', 'agents'), path.join(home, '.toolshed', 'agents'));
  if (sources.includes('project'))
    dirs.push(path.join(options.cwd, '.claude', 'agents'), path.join(options.cwd, '.toolshed', 'agents'));
  return [...new Set(dirs)];
}

/**
 * Parses one agent file: Markdown with YAML frontmatter (`name`, `description`, `tools`,
 * `disallowedTools`, `model`, `permissionMode`, `maxTurns`); the body is the prompt.
 *
 * @param text The file's text.
 * @param file Its path, for messages and the agent's `source`.
 * @returns The agent, or the problem (file, key and fix).
 *
 * @example
 * ```ts
 * import { parseAgentFile } from '@toolshed/tool-agent';
 *
 * const parsed = parseAgentFile('---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep\n---\nYou review diffs.', 'reviewer.md');
 * ```
 */
export function parseAgentFile(
  text: string,
  file: string,
): { agent: LoadedAgent; warnings: AgentFileProblem[] } | { problem: AgentFileProblem } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!match)
    return {
      problem: {
        file,
        message: `${file} has no YAML frontmatter: start it with a "---" line, then "name:" and "description:", then "---" and the prompt`,
      },
    };
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (e) {
    return {
      problem: {
        file,
        message: `${file}: the frontmatter is not valid YAML (${(e as Error).message.split('\n')[0]}); fix the YAML between the "---" lines`,
      },
    };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return {
      problem: { file, message: `${file}: the frontmatter must be a mapping of keys (name: …, description: …)` },
    };
  }
  const fm = data as Record<string, unknown>;
  const bad = (key: string, fix: string) => ({ problem: { file, key, message: `${file}: "${key}" ${fix}` } });
  const fallbackName = path.basename(file, path.extname(file));
  const name = fm.name ?? fallbackName;
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/.test(name))
    return bad(
      'name',
      `is ${JSON.stringify(name)}: give a name of letters, digits, "-" and "_" (such as "code-reviewer")`,
    );
  if (typeof fm.description !== 'string' || fm.description.trim() === '')
    return bad('description', 'is missing or empty: say in one sentence when to use this agent');
  const list = (key: string): readonly string[] | undefined | { problem: AgentFileProblem } => {
    const value = fm[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string')
      return value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    return bad(
      key,
      `is ${JSON.stringify(value)}: write tool names as a list or a comma-separated string, such as "Read, Grep, Glob"`,
    );
  };
  const tools = list('tools');
  if (tools && 'problem' in tools) return tools;
  const disallowedTools = list('disallowedTools');
  if (disallowedTools && 'problem' in disallowedTools) return disallowedTools;
  if (fm.model !== undefined && (typeof fm.model !== 'string' || fm.model.trim() === ''))
    return bad('model', `is ${JSON.stringify(fm.model)}: use sonnet, opus, haiku, inherit or a model id`);
  if (fm.permissionMode !== undefined && !PERMISSION_MODES.includes(fm.permissionMode as PermissionMode)) {
    return bad('permissionMode', `is ${JSON.stringify(fm.permissionMode)}: use one of ${PERMISSION_MODES.join(', ')}`);
  }
  if (fm.maxTurns !== undefined && !(Number.isInteger(fm.maxTurns) && (fm.maxTurns as number) > 0))
    return bad('maxTurns', `is ${JSON.stringify(fm.maxTurns)}: use a whole number of turns above 0`);
  const prompt = match[2]!.trim();
  if (!prompt)
    return {
      problem: {
        file,
        message: `${file}: the prompt (the Markdown after the frontmatter) is empty; write the agent's instructions there`,
      },
    };
  const warnings: AgentFileProblem[] = [];
  for (const key of Object.keys(fm)) {
    if (!KNOWN_KEYS.has(key) && !IGNORED_KEYS.has(key))
      warnings.push({
        file,
        key,
        message: `${file}: unknown key "${key}" is ignored; the keys are ${[...KNOWN_KEYS].join(', ')}`,
      });
  }
  const agent: LoadedAgent = { name, description: fm.description.trim(), prompt, source: file };
  if (tools) agent.tools = tools;
  if (disallowedTools) agent.disallowedTools = disallowedTools;
  if (typeof fm.model === 'string') agent.model = fm.model.trim();
  if (fm.permissionMode !== undefined) agent.permissionMode = fm.permissionMode as PermissionMode;
  if (fm.maxTurns !== undefined) agent.maxTurns = fm.maxTurns as number;
  return { agent, warnings };
}

/**
 * Reads the agent files of the user and the project (`*.md` in the folders of
 * {@linkcode agentDirectories}). A malformed file is reported and skipped; the rest still load.
 *
 * @param options Where the user and project are.
 * @returns The agents (a later file of the same name wins) and the problems.
 *
 * @example
 * ```ts
 * import { loadAgentFiles } from '@toolshed/tool-agent';
 *
 * const { agents, problems } = await loadAgentFiles({ cwd: process.cwd() });
 * for (const p of problems) console.warn(p.message);
 * ```
 */
export async function loadAgentFiles(
  options: LoadAgentFilesOptions,
): Promise<{ agents: LoadedAgent[]; problems: AgentFileProblem[] }> {
  const byName = new Map<string, LoadedAgent>();
  const problems: AgentFileProblem[] = [];
  for (const dir of agentDirectories(options)) {
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
    } catch {
      continue; // no such folder
    }
    for (const name of names) {
      const file = path.join(dir, name);
      let text: string;
      try {
        const read = await readAgentText(file);
        if ('problem' in read) {
          problems.push({ file, message: `${file} ${read.problem}; it was skipped` });
          continue;
        }
        text = read.text;
      } catch (e) {
        problems.push({
          file,
          message: `${file} could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        });
        continue;
      }
      const parsed = parseAgentFile(text, file);
      if ('problem' in parsed) problems.push(parsed.problem);
      else {
        problems.push(...parsed.warnings);
        byName.set(parsed.agent.name, parsed.agent);
      }
    }
  }
  return { agents: [...byName.values()], problems };
}

/** Far more than an agent definition: a file past it is skipped, not read. */
const MAX_AGENT_FILE_BYTES = 1024 * 1024;

/**
 * The text of an agent file, or why it is not read: a repository's `.claude/agents/x.md` may be a
 * link to a FIFO or `/dev/zero`, which would hang the session's start.
 */
function readAgentText(file: string): Promise<{ text: string } | { problem: string }> {
  return readShortText(file, {
    maxBytes: MAX_AGENT_FILE_BYTES,
    tooBig: 'an agent definition is a short Markdown file',
  });
}
