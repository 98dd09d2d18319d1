import {
  describeSkillArguments,
  skillUsage,
  type PermissionContext,
  type PermissionRule,
  type SkillSource,
  type SourcedSkill,
} from '@toolshed/core';
import { describeError, ruleMatchesTool } from '@toolshed/core/internal';
import type { McpConnection, McpPromptInfo } from './_server_connection.ts';
import { promptText } from './_prompt_text.ts';
import { mcpToolName } from './tool_name.ts';

/** The name of the skill source the mcp family registers. */
export const MCP_SKILL_SOURCE = 'mcp';

interface Found {
  connection: McpConnection;
  prompt: McpPromptInfo;
}

/**
 * The prompts of the connected servers as skills named `mcp__<server>__<prompt>` (Claude Code's
 * `/mcp__<server>__<prompt>` commands): listed with their arguments, loaded with `prompts/get`,
 * their arguments completed where the server offers completion. A server whose prompts cannot be
 * listed is left out of a listing; loading one of its prompts says why it failed.
 *
 * Loading a prompt is a `GetMcpPrompt` call that the Skill tool (which allows every load) makes
 * for the model, so the rules that `GetMcpPrompt` goes through hold here too: a deny rule for
 * `GetMcpPrompt` or for the skill's own name (`mcp__github__pr_review`) leaves the prompt out
 * of the listing and refuses to load it; an ask rule refuses to load it too (a skill cannot ask),
 * pointing to `GetMcpPrompt`, which asks.
 *
 * @param servers The connected servers that offer prompts, looked up at each use.
 * @param options The session's permission context, read at each use. @default no rules
 * @returns The source, for the session's `SkillSources`.
 *
 * @example
 * ```ts
 * import { skillSourcesOf, type FamilySetupApi } from '@toolshed/core';
 * import type { McpConnection } from './_server_connection.ts';
 * import { mcpPromptSkills } from './_prompt_skills.ts';
 * declare const api: FamilySetupApi;
 * declare const connections: McpConnection[];
 *
 * api.onClose(skillSourcesOf(api).add(mcpPromptSkills(() => connections.filter((c) => c.hasPrompts))));
 * ```
 */
export function mcpPromptSkills(
  servers: () => readonly McpConnection[],
  options: { permissions?: () => PermissionContext } = {},
): SkillSource {
  const ruleFor = (behavior: 'deny' | 'ask', name: string) => {
    const rules = options.permissions?.().rules[behavior] ?? [];
    return rules.find(
      (rule) =>
        rule.ruleContent === undefined &&
        (ruleMatchesTool(rule, GET_PROMPT) || ruleMatchesTool(rule, { name, aliases: [] })),
    );
  };
  const listAll = async (signal: AbortSignal | undefined, strict: boolean) => {
    const found = new Map<string, Found>();
    // Names that two prompts share (server "a" with "b__c", server "a__b" with "c"): neither is
    // offered, so that no server can take another's name, whichever answers first.
    const shared = new Map<string, Found[]>();
    const failures: string[] = [];
    const lists = await Promise.all(
      servers().map(async (connection) => {
        try {
          return { connection, prompts: await connection.cachedPrompts(signal ?? new AbortController().signal) };
        } catch (e) {
          failures.push(`MCP server "${connection.name}": ${describeError(e)}`);
          return { connection, prompts: [] };
        }
      }),
    );
    for (const { connection, prompts } of lists) {
      for (const prompt of prompts) {
        const name = mcpToolName(connection.name, prompt.name);
        const earlier = shared.get(name) ?? (found.has(name) ? [found.get(name)!] : undefined);
        if (earlier) {
          shared.set(name, [...earlier, { connection, prompt }]);
          found.delete(name);
        } else found.set(name, { connection, prompt });
      }
    }
    if (strict && found.size === 0 && failures.length) throw new Error(failures.join('; '));
    return { found, failures, shared };
  };
  return {
    name: MCP_SKILL_SOURCE,
    async list(options = {}) {
      const { found } = await listAll(options.signal, true);
      return [...found.entries()]
        .filter(([name]) => !ruleFor('deny', name))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(
          ([name, { connection, prompt }]): SourcedSkill => ({
            name,
            description:
              prompt.description ?? prompt.title ?? `Prompt "${prompt.name}" of MCP server "${connection.name}"`,
            ...(prompt.arguments?.length ? { arguments: prompt.arguments } : {}),
            origin: `MCP server "${connection.name}"`,
          }),
        );
    },
    async load(name, options = {}) {
      if (!name.startsWith('mcp__')) return undefined;
      const { found, failures, shared } = await listAll(options.signal, false);
      const hit = found.get(name);
      const clash = shared.get(name);
      if (clash)
        throw new Error(
          `${clash.length === 2 ? 'Two' : clash.length} prompts are named "${name}": ${clash.map(({ connection, prompt }) => `prompt "${prompt.name}" of MCP server "${connection.name}"`).join(' and ')}; get the one you mean with GetMcpPrompt.`,
        );
      if (!hit) {
        if (failures.length && servers().some((c) => name.startsWith(mcpToolName(c.name, ''))))
          throw new Error(`The prompts of ${failures.join('; ')}`);
        return undefined;
      }
      const { connection, prompt } = hit;
      const denied = ruleFor('deny', name);
      if (denied) throw new Error(`${whose(hit)} is not loaded: ${ruleText(denied)} forbids it.`);
      const asked = ruleFor('ask', name);
      if (asked)
        throw new Error(
          `${whose(hit)} is not loaded as a skill: ${ruleText(asked)} wants a person to approve it, and loading a skill asks no one. Get it with GetMcpPrompt({ server: ${JSON.stringify(connection.name)}, name: ${JSON.stringify(prompt.name)} }), which asks.`,
        );
      const args = options.arguments ?? {};
      const declared = prompt.arguments ?? [];
      const missing = declared.filter((a) => a.required && args[a.name] === undefined);
      if (missing.length)
        throw new Error(
          missingMessage(
            name,
            hit,
            missing.map((a) => a.name),
          ),
        );
      const given = Object.fromEntries(
        declared.filter((a) => args[a.name] !== undefined).map((a) => [a.name, args[a.name]!]),
      );
      const result = await connection.getPrompt(prompt.name, given, options.signal ?? new AbortController().signal);
      const shown = Object.entries(given).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
      return `Prompt "${prompt.name}" of MCP server "${connection.name}"${shown.length ? ` (${shown.join(', ')})` : ''}:\n\n${promptText(result)}`;
    },
    async complete({ skill, argument, value, context, signal }) {
      const { found } = await listAll(signal, false);
      const hit = found.get(skill);
      if (!hit?.connection.hasCompletions) return [];
      const answer = await hit.connection.complete(
        {
          ref: { type: 'ref/prompt', name: hit.prompt.name },
          argument: { name: argument, value },
          ...(context && Object.keys(context).length ? { context: { arguments: { ...context } } } : {}),
        },
        signal ?? new AbortController().signal,
      );
      return answer.values;
    },
  };
}

const GET_PROMPT = { name: 'GetMcpPrompt', aliases: [] };

function whose({ connection, prompt }: Found): string {
  return `The prompt "${prompt.name}" of MCP server "${connection.name}"`;
}

function ruleText(rule: PermissionRule): string {
  return `${rule.behavior} rule "${rule.raw}" from ${rule.source}`;
}

function missingMessage(name: string, { connection, prompt }: Found, missing: string[]): string {
  const declared = prompt.arguments ?? [];
  const usage = skillUsage(declared);
  const list = describeSkillArguments(declared);
  return `The prompt "${prompt.name}" of MCP server "${connection.name}" needs ${missing.map((m) => `"${m}"`).join(' and ')}. Its arguments, in order: ${list}. Give them after the name: ${name} ${usage}`;
}
