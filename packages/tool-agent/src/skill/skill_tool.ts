import { buildTool, ToolshedError, type AnyTool } from '@toolshed/core';
import { closestNames } from '@toolshed/core/internal';
import { z } from 'zod';
import { loadSkills, type LoadSkillsOptions, type Skill } from './load_skills.ts';

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

/**
 * Makes the Skill tool. Its description lists the project's skills (name and description only,
 * so the request stays small); `Skill({ skill, args })` returns that skill's instructions and its
 * folder, so the model can read the files beside them. Skills are discovered by
 * {@linkcode loadSkills} once per session. `allowed-tools` is shown, never granted: a skill's
 * file cannot widen the session's permissions.
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
export function createSkillTool(options: LoadSkillsOptions = {}): AnyTool {
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
      const list = [...skills.values()].map((s) => `- ${s.name}: ${s.description}`).join('\n');
      return `Loads a skill: instructions for a kind of task, with files beside them. When a task matches a skill below, call Skill with its name before doing the task, then follow the instructions it returns.\n\n${list ? `Available skills:\n${list}` : 'No skills are installed.'}`;
    },
    inputSchema: skillInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    // The model can only load skills the user installed or the integrator gave; loading one runs nothing.
    checkPermissions: () => ({ behavior: 'allow' }),
    async call({ skill, args }, ctx) {
      const { skills, problems } = await skillsOf(ctx.cwd);
      const found = skills.get(skill.replace(/^\//, ''));
      if (!found) {
        const names = [...skills.keys()];
        const near = closestNames(skill, names);
        const broken = problems.filter((p) => p.file.includes(`/${skill}/`));
        const why = broken.length
          ? ` Its file could not be loaded: ${broken.map((p) => `${p.file} ${p.message}`).join('; ')}.`
          : '';
        const guess = near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
        throw new ToolshedError(
          SKILL_NOT_FOUND,
          `No skill named "${skill}".${why}${guess} Skills: ${names.length ? names.join(', ') : 'none'}.`,
        );
      }
      return { data: renderSkill(found, args) };
    },
  });
}

function renderSkill(skill: Skill, args: string | undefined): string {
  const lines = [`Skill "${skill.name}" loaded.`];
  if (skill.dir) lines.push(`Base folder of this skill: ${skill.dir} (read the files it mentions from there).`);
  if (skill.allowedTools.length) lines.push(`Tools this skill uses: ${skill.allowedTools.join(', ')}.`);
  lines.push('', skill.instructions);
  if (args) lines.push('', `ARGUMENTS: ${args}`);
  return lines.join('\n');
}
