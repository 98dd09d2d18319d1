import {
  buildTool,
  describeSkillArguments,
  skillArguments,
  skillUsage,
  skillSourcesKey,
  ToolshedError,
  type AnyTool,
  type SkillSource,
  type SkillSources,
  type SourcedSkill,
} from '@toolshed/core';
import { closestNames } from '@toolshed/core/internal';
import { z } from 'zod';
import { loadSkills, type LoadSkillsOptions } from './load_skills.ts';
import { FILE_SKILL_SOURCE, renderSkill } from './skill_source.ts';

declare module '@toolshed/core' {
  interface ToolshedErrorCodes {
    /** No skill has the name asked for. */
    skill_not_found: true;
  }
}

/** Error code of a Skill call that names no known skill. */
export const SKILL_NOT_FOUND = 'skill_not_found' as const;

/** Input of the Skill tool. */
export const skillInput = z.strictObject({
  skill: z.string().min(1).describe("The name of the skill, as listed in this tool's description"),
  args: z.string().optional().describe('Arguments for the skill, if it takes any'),
});

/** Options of {@linkcode createSkillTool}. */
export interface SkillToolOptions extends LoadSkillsOptions {
  /**
   * The session's skill sources for a working directory, for the tool's description (a call
   * finds them in `ctx.services`): the agent family passes those its setup saw. Without it, the
   * description lists only the skill files, and a call still loads any source's skill.
   * @default none
   */
  sourcesFor?: (cwd: string) => SkillSources | undefined;
}

/** How long the description waits for other sources (a slow MCP server) before it leaves their skills out. */
const DESCRIPTION_WAIT_MS = 5_000;

/** Skill sources other than the skill files, which the tool reads itself. */
const notFiles = (source: SkillSource) => source.name !== FILE_SKILL_SOURCE;

/**
 * Makes the Skill tool. Its description lists the project's skills (name and description only,
 * so the request stays small); `Skill({ skill, args })` returns that skill's instructions and its
 * folder, so the model can read the files beside them. Skills are discovered by
 * {@linkcode loadSkills} once per session. `allowed-tools` is shown, never granted: a skill's
 * file cannot widen the session's permissions. The skills of the session's other sources
 * (`SkillSources` under `skillSourcesKey`: an MCP server's prompts, `mcp__<server>__<prompt>`)
 * are listed and loaded too, `args` filling their arguments in order (`name=value` words by name).
 *
 * @param options Home folder, extra folders and skills given in code.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { createSkillTool } from '@toolshed/tool-agent';
 * declare const cwd: string;
 *
 * const session = await createSession({ cwd, tools: [createSkillTool({ skills: [{ name: 'release', description: 'Cut a release', instructions: 'Run pnpm changeset version…' }] })] });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'Skill', input: { skill: 'release' } }]);
 * ```
 */
export function createSkillTool(options: SkillToolOptions = {}): AnyTool {
  const byCwd = new Map<string, ReturnType<typeof loadSkills>>();
  const skillsOf = (cwd: string) => {
    let found = byCwd.get(cwd);
    if (!found) byCwd.set(cwd, (found = loadSkills(cwd, options)));
    return found;
  };
  return buildTool({
    name: 'Skill',
    searchHint: 'run a skill load instructions',
    async description({ cwd }) {
      const { skills } = await skillsOf(cwd);
      const others = (await listWithin(options.sourcesFor?.(cwd), DESCRIPTION_WAIT_MS))?.skills ?? [];
      const list = [
        ...[...skills.values()].map((s) => `- ${s.name}: ${s.description}`),
        ...others.map((s) => `- ${s.name}: ${s.description}${argumentHint(s)} (${s.origin})`),
      ].join('\n');
      return `Loads a skill: instructions for a kind of task, with files beside them. When a task matches a skill below, call Skill with its name before doing the task, then follow the instructions it returns. A skill that takes arguments gets them in args, in order.\n\n${list ? `Available skills:\n${list}` : 'No skills are installed.'}`;
    },
    inputSchema: skillInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    // The model can only load skills the user installed or the integrator gave; loading one runs nothing.
    checkPermissions: () => ({ behavior: 'allow' }),
    // Claude Code's `Skill(name)` and `Skill(prefix:*)` rules (a leading `/` ignored on both
    // sides), so that a deny or ask rule for a skill holds: without this matcher they matched nothing.
    preparePermissionMatcher: ({ skill }) => skillRuleMatcher(skill),
    async call({ skill, args }, ctx) {
      const wanted = skill.replace(/^\//, '');
      const { skills, problems } = await skillsOf(ctx.cwd);
      const found = skills.get(wanted);
      if (found) return { data: renderSkill(found, args) };
      const registry = ctx.services.get(skillSourcesKey);
      const listed = registry ? await registry.list({ signal: ctx.signal, filter: notFiles }) : undefined;
      const other = listed?.skills.find((s) => s.name === wanted);
      if (other) return { data: await loadOther(registry!, other, { args, signal: ctx.signal }) };
      const names = [...skills.keys(), ...(listed?.skills.map((s) => s.name) ?? [])];
      const near = closestNames(wanted, names);
      const broken = problems.filter((p) => p.file.includes(`/${wanted}/`));
      const why = broken.length
        ? ` Its file could not be loaded: ${broken.map((p) => `${p.file} ${p.message}`).join('; ')}.`
        : '';
      const unlisted = listed?.problems.length
        ? ` Some skills could not be listed: ${listed.problems.map((p) => p.message).join('; ')}.`
        : '';
      const guess = near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
      throw new ToolshedError(
        SKILL_NOT_FOUND,
        `No skill named "${skill}".${why}${guess}${unlisted} Skills: ${names.length ? names.join(', ') : 'none'}.`,
      );
    },
  });
}

/**
 * Matches Claude Code's Skill rule specifiers against one skill name: `deploy` is that skill
 * exactly, `review:*` every skill whose name starts with `review` (a plain prefix, as in Claude
 * Code); a leading `/` is dropped from both, and the name is trimmed.
 */
function skillRuleMatcher(skill: string): (ruleContent: string) => boolean {
  const trimmed = skill.trim();
  const name = trimmed.startsWith('/') ? trimmed.slice(1) : trimmed;
  return (ruleContent) => {
    const rule = ruleContent.startsWith('/') ? ruleContent.slice(1) : ruleContent;
    if (rule === name) return true;
    return rule.endsWith(':*') && name.startsWith(rule.slice(0, -2));
  };
}

async function loadOther(
  registry: SkillSources,
  skill: SourcedSkill & { source: string },
  { args, signal }: { args: string | undefined; signal: AbortSignal },
): Promise<string> {
  const declared = skill.arguments ?? [];
  const { values, missing, unused } = skillArguments(args ?? '', declared);
  if (missing.length) {
    throw new Error(
      `Skill "${skill.name}" needs ${missing.map((m) => `"${m}"`).join(' and ')}: give its arguments in args, in order (${skillUsage(declared)}), or as name=value words (${describeSkillArguments(declared)}).`,
    );
  }
  const text = await registry.load(skill.name, { arguments: values, signal, filter: (s) => s.name === skill.source });
  if (text === undefined)
    throw new ToolshedError(SKILL_NOT_FOUND, `Skill "${skill.name}" is no longer offered by ${skill.origin}.`);
  const note = unused.length ? `\n(It takes no arguments; "${unused.join(' ')}" was not used.)` : '';
  return `Skill "${skill.name}" loaded (from ${skill.origin}).${note}\n\n${text}`;
}

/** The other sources' skills, or undefined when they take longer than `ms` (the session must not wait on a slow server). */
async function listWithin(
  sources: SkillSources | undefined,
  ms: number,
): Promise<Awaited<ReturnType<SkillSources['list']>> | undefined> {
  if (!sources) return undefined;
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => (stop.abort(), resolve(undefined)), ms);
  });
  try {
    return await Promise.race([sources.list({ filter: notFiles, signal: stop.signal }), late]);
  } finally {
    clearTimeout(timer);
  }
}

function argumentHint(skill: SourcedSkill): string {
  const declared = skill.arguments ?? [];
  return declared.length ? ` [args: ${skillUsage(declared)}]` : '';
}
