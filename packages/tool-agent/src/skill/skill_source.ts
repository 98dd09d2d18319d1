import type { SkillSource } from '@toolshed/core';
import { loadSkills, type LoadSkillsOptions, type Skill } from './load_skills.ts';

/** The name of the skill source of `SKILL.md` files (the Skill tool reads those itself). */
export const FILE_SKILL_SOURCE = 'skills';

/** The one argument a file skill takes: the words after its name, as `ARGUMENTS:` (or `$ARGUMENTS`). */
const ARGS = { name: 'args', description: 'Arguments for the skill, if it takes any', required: false } as const;

/**
 * A project's skills (`SKILL.md` folders and skills given in code, found by
 * {@linkcode loadSkills} once) as a skill source: what a served session offers MCP clients as
 * prompts. Each takes one optional argument, `args`.
 *
 * @param cwd The project folder.
 * @param options Home folder, extra folders and skills given in code.
 * @returns The source.
 *
 * @example
 * ```ts
 * import { SkillSources } from '@toolshed/core';
 * import { fileSkillSource } from '@toolshed/tool-agent';
 *
 * const sources = new SkillSources();
 * sources.add(fileSkillSource('/repo'));
 * const text = await sources.load('release', { arguments: { args: 'v2.0.0' } });
 * ```
 */
export function fileSkillSource(cwd: string, options: LoadSkillsOptions = {}): SkillSource {
  let loaded: ReturnType<typeof loadSkills> | undefined;
  const skills = async () => (await (loaded ??= loadSkills(cwd, options))).skills;
  return {
    name: FILE_SKILL_SOURCE,
    async list() {
      return [...(await skills()).values()].map((s) => ({
        name: s.name,
        description: s.description,
        arguments: [ARGS],
        origin: s.source,
      }));
    },
    async load(name, { arguments: args = {} } = {}) {
      const skill = (await skills()).get(name);
      return skill && renderSkill(skill, args['args']);
    },
  };
}

/**
 * What loading a skill returns: its folder, the tools it says it uses, the instructions with
 * `$ARGUMENTS` replaced by the arguments (or the arguments after them, as `ARGUMENTS: …`).
 *
 * @param skill The skill.
 * @param args The words given after its name.
 * @returns The text the model reads.
 *
 * @example
 * ```ts
 * import { renderSkill } from './skill_source.ts';
 * import type { Skill } from './load_skills.ts';
 * declare const skill: Skill;
 *
 * renderSkill(skill, 'v2.0.0');
 * ```
 */
export function renderSkill(skill: Skill, args: string | undefined): string {
  const lines = [`Skill "${skill.name}" loaded.`];
  if (skill.dir) lines.push(`Base folder of this skill: ${skill.dir} (read the files it mentions from there).`);
  if (skill.allowedTools.length) lines.push(`Tools this skill uses: ${skill.allowedTools.join(', ')}.`);
  const placeholder = skill.instructions.includes('$ARGUMENTS');
  lines.push('', placeholder ? skill.instructions.replaceAll('$ARGUMENTS', args ?? '') : skill.instructions);
  if (args && !placeholder) lines.push('', `ARGUMENTS: ${args}`);
  return lines.join('\n');
}
