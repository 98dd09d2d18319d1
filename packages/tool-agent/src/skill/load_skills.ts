import { lstat, readdir, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readShortText } from '../_read_short_text.ts';

/** A skill: instructions the model loads on demand, with the folder of files beside them. */
export interface Skill {
  name: string;
  description: string;
  /** The tools the skill says it uses (`allowed-tools`); shown to the model, never a permission. */
  allowedTools: string[];
  /** The instructions: SKILL.md without its frontmatter, or the text given in code. */
  instructions: string;
  /** The skill's folder, where the files it mentions are; undefined for a skill given in code without one. */
  dir: string | undefined;
  /** Where it came from: the SKILL.md path, or "options". */
  source: string;
}

/** A skill given in code, in `agentTools({ skills })`. */
export interface SkillDefinition {
  name: string;
  description: string;
  instructions: string;
  allowedTools?: string[];
  dir?: string;
}

/** A SKILL.md that could not be loaded; the others still load. */
export interface SkillProblem {
  file: string;
  message: string;
}

/** Options of {@linkcode loadSkills}. */
export interface LoadSkillsOptions {
  /** The user's home, for `~/.claude/skills` and `~/.toolshed/skills`. @default os.homedir() */
  homeDir?: string;
  /** Skills given in code; they win over files of the same name. */
  skills?: readonly SkillDefinition[];
  /** More folders of skill folders, searched after the project's. */
  skillDirs?: readonly string[];
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Far more than a skill's instructions (a quarter of a million tokens): a file past it is reported, not read. */
const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/**
 * Finds the skills of a project: folders holding a `SKILL.md` (YAML frontmatter `name`,
 * `description`, optional `allowed-tools`, then the instructions) under `~/.claude/skills`,
 * `~/.toolshed/skills`, `<project>/.claude/skills`, `<project>/.toolshed/skills` and
 * `skillDirs`, later places winning on a name clash, then the skills given in code. A malformed
 * file is reported with what to fix and skipped.
 *
 * @param cwd The project folder.
 * @param options Home folder, extra folders and skills given in code.
 * @returns The skills by name, and the problems.
 *
 * @example
 * ```ts
 * import { loadSkills } from '@toolshed/tool-agent';
 *
 * const { skills, problems } = await loadSkills('/repo');
 * for (const p of problems) console.warn(`${p.file}: ${p.message}`);
 * ```
 */
export async function loadSkills(
  cwd: string,
  options: LoadSkillsOptions = {},
): Promise<{ skills: Map<string, Skill>; problems: SkillProblem[] }> {
  const home = options.homeDir ?? os.homedir();
  const roots = [
    path.join(home, '.claude', 'skills'),
    path.join(home, '.toolshed', 'skills'),
    path.join(cwd, '.claude', 'skills'),
    path.join(cwd, '.toolshed', 'skills'),
    ...(options.skillDirs ?? []).map((d) => path.resolve(cwd, d)),
  ];
  const skills = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  const seenRoots = new Set<string>();
  for (const root of roots) {
    const real = await realpath(root).catch(() => undefined);
    if (real === undefined || seenRoots.has(real)) continue;
    seenRoots.add(real);
    let entries: string[];
    try {
      entries = (await readdir(root)).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      const file = path.join(root, entry, 'SKILL.md');
      // A folder without a SKILL.md is not a skill; one whose SKILL.md is not a short regular file is reported.
      if (
        !(await lstat(file).then(
          () => true,
          () => false,
        ))
      )
        continue;
      const loaded = await readSkillFile(file, entry);
      if ('message' in loaded) problems.push(loaded);
      else skills.set(loaded.name, loaded);
    }
  }
  for (const def of options.skills ?? []) {
    if (!NAME.test(def.name)) {
      problems.push({
        file: 'options',
        message: `skill name ${JSON.stringify(def.name)} must be lowercase letters, digits and "-", such as "release-notes"`,
      });
      continue;
    }
    skills.set(def.name, {
      name: def.name,
      description: def.description,
      allowedTools: def.allowedTools ?? [],
      instructions: def.instructions,
      dir: def.dir,
      source: 'options',
    });
  }
  return { skills, problems };
}

async function readSkillFile(file: string, folderName: string): Promise<Skill | SkillProblem> {
  let text: string;
  try {
    const read = await readShortText(file, {
      maxBytes: MAX_SKILL_FILE_BYTES,
      tooBig: 'a SKILL.md is instructions for the model; put long material in files beside it, which the skill names',
    });
    if ('problem' in read) return { file, message: read.problem };
    text = read.text;
  } catch (e) {
    return { file, message: `could not be read: ${(e as Error).message}` };
  }
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match)
    return {
      file,
      message:
        'has no YAML frontmatter; start the file with "---", the lines "name: …" and "description: …", then "---"',
    };
  let front: unknown;
  try {
    front = parseYaml(match[1]!);
  } catch (e) {
    return { file, message: `has frontmatter that is not valid YAML (${(e as Error).message.split('\n')[0]})` };
  }
  if (typeof front !== 'object' || front === null || Array.isArray(front))
    return { file, message: 'has frontmatter that is not a mapping of keys; write "name: …" and "description: …"' };
  const fields = front as Record<string, unknown>;
  const name = fields['name'] ?? folderName;
  if (typeof name !== 'string' || !NAME.test(name)) {
    return {
      file,
      message: `key "name" is ${JSON.stringify(name)}; it must be lowercase letters, digits and "-", such as "${folderName.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}"`,
    };
  }
  const description = fields['description'];
  if (typeof description !== 'string' || description.trim() === '')
    return {
      file,
      message: 'key "description" is missing or empty; say in one sentence what the skill does and when to use it',
    };
  const tools = fields['allowed-tools'];
  let allowedTools: string[] = [];
  if (typeof tools === 'string') allowedTools = tools.split(/[,\s]+/).filter(Boolean);
  else if (Array.isArray(tools) && tools.every((t) => typeof t === 'string')) allowedTools = tools;
  else if (tools !== undefined)
    return {
      file,
      message: `key "allowed-tools" is ${JSON.stringify(tools)}; write a list of tool names, such as "Read, Grep"`,
    };
  return {
    name,
    description: description.trim(),
    allowedTools,
    instructions: match[2]!.trim(),
    dir: path.dirname(file),
    source: file,
  };
}
