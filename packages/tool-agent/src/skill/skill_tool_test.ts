import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  contentToText,
  createSession,
  defineFamily,
  SkillSources,
  skillSourcesKey,
  type Session,
  type SkillSource,
} from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { loadSkills } from './load_skills.ts';
import { createSkillTool } from './skill_tool.ts';
import { agentTools } from '../family.ts';

let root: string;
let home: string;
let project: string;
let session: Session | undefined;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolshed-skill-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  await mkdir(project, { recursive: true });
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  await rm(root, { recursive: true, force: true });
});

async function skill(base: string, folder: string, text: string): Promise<void> {
  await mkdir(path.join(base, folder), { recursive: true });
  await writeFile(path.join(base, folder, 'SKILL.md'), text);
}

describe('loadSkills', () => {
  test('finds skills in the user and project folders, the project winning, and reports a broken file with the fix', async () => {
    await skill(
      path.join(home, '.claude', 'skills'),
      'pdf',
      '---\nname: pdf\ndescription: Fill PDF forms\n---\nUser version',
    );
    await skill(
      path.join(project, '.claude', 'skills'),
      'pdf',
      '---\nname: pdf\ndescription: Fill PDF forms the project way\nallowed-tools: Read, Bash\n---\nProject version',
    );
    await skill(
      path.join(project, '.toolshed', 'skills'),
      'release',
      '---\ndescription: Cut a release\n---\n1. pnpm changeset version',
    );
    await skill(path.join(project, '.toolshed', 'skills'), 'broken', '---\nname: Broken Skill\ndescription: x\n---\n');
    await skill(path.join(project, '.toolshed', 'skills'), 'nofront', 'just text');
    await skill(path.join(project, '.toolshed', 'skills'), 'nodesc', '---\nname: nodesc\n---\nbody');
    const { skills, problems } = await loadSkills(project, { homeDir: home });
    expect([...skills.keys()].sort()).toEqual(['pdf', 'release']);
    expect(skills.get('pdf')).toMatchObject({
      description: 'Fill PDF forms the project way',
      instructions: 'Project version',
      allowedTools: ['Read', 'Bash'],
    });
    expect(skills.get('release')!.dir).toBe(path.join(project, '.toolshed', 'skills', 'release'));
    expect(problems.map((p) => `${path.basename(path.dirname(p.file))}: ${p.message}`).sort()).toEqual([
      'broken: key "name" is "Broken Skill"; it must be lowercase letters, digits and "-", such as "broken"',
      'nodesc: key "description" is missing or empty; say in one sentence what the skill does and when to use it',
      'nofront: has no YAML frontmatter; start the file with "---", the lines "name: …" and "description: …", then "---"',
    ]);
  });
});

describe('loadSkills: files that are not a short regular file', () => {
  test('a huge SKILL.md is reported as too big without being read; a FIFO or a device is reported, not waited on', async () => {
    const skills = path.join(project, '.claude', 'skills');
    await skill(skills, 'fine', '---\nname: fine\ndescription: Still loads\n---\nok');
    // 600 MB that take no disk: read whole, the session's start waited on it and held it in memory.
    await mkdir(path.join(skills, 'huge'), { recursive: true });
    await writeFile(path.join(skills, 'huge', 'SKILL.md'), '---\nname: huge\ndescription: x\n---\n');
    await truncate(path.join(skills, 'huge', 'SKILL.md'), 600 * 1024 ** 2);
    await mkdir(path.join(skills, 'zero'), { recursive: true });
    await symlink('/dev/zero', path.join(skills, 'zero', 'SKILL.md'));
    await mkdir(path.join(skills, 'fifo'), { recursive: true });
    execFileSync('mkfifo', [path.join(skills, 'fifo', 'SKILL.md')]);
    const { skills: found, problems } = await loadSkills(project, { homeDir: home });
    expect([...found.keys()]).toEqual(['fine']);
    expect(problems.map((p) => `${path.basename(path.dirname(p.file))}: ${p.message}`).sort()).toEqual([
      'fifo: is not a regular file (a FIFO, a device or a socket is never read)',
      'huge: is over 1 MB (629145600 bytes): a SKILL.md is instructions for the model; put long material in files beside it, which the skill names',
      'zero: is not a regular file (a FIFO, a device or a socket is never read)',
    ]);
  });
});

describe('the Skill tool', () => {
  test('passes the conformance check', async () => {
    expect(await checkFamily(defineFamily({ name: 'skills', version: '0.0.0', tools: [createSkillTool()] }))).toEqual(
      [],
    );
  });

  test('its description lists the skills by name and description only; a call returns the instructions, the folder and the arguments', async () => {
    await skill(
      path.join(project, '.claude', 'skills'),
      'release',
      '---\nname: release\ndescription: Cut a release of the packages\n---\nSECRET-LONG-BODY: run pnpm changeset version, then read checklist.md',
    );
    session = await createSession({
      cwd: project,
      tools: [
        createSkillTool({
          homeDir: home,
          skills: [{ name: 'greet', description: 'Say hello', instructions: 'Say hello to $ARGS' }],
        }),
      ],
    });
    const [definition] = session.toolsFor('anthropic');
    expect(definition!.description).toContain('- release: Cut a release of the packages');
    expect(definition!.description).toContain('- greet: Say hello');
    expect(definition!.description).not.toContain('SECRET-LONG-BODY');
    const [result] = await session.run([
      { type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'release', args: 'v2.0.0' } },
    ]);
    const text = contentToText(result!.content);
    expect(result!.is_error).toBeFalsy();
    expect(text).toContain(`Base folder of this skill: ${path.join(project, '.claude', 'skills', 'release')}`);
    expect(text).toContain('SECRET-LONG-BODY: run pnpm changeset version');
    expect(text).toContain('ARGUMENTS: v2.0.0');
  });

  test('an unknown skill is an error with a did-you-mean and the list; a broken one says why it did not load', async () => {
    await skill(
      path.join(project, '.toolshed', 'skills'),
      'release',
      '---\nname: release\ndescription: Cut a release\n---\nx',
    );
    await skill(
      path.join(project, '.toolshed', 'skills'),
      'deploy',
      '---\nname: deploy\ndescription: [unclosed\n---\nx',
    );
    session = await createSession({ cwd: project, tools: [createSkillTool({ homeDir: home })] });
    const [typo] = await session.run([{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'relase' } }]);
    expect(typo!.is_error).toBe(true);
    expect(contentToText(typo!.content)).toContain('No skill named "relase". Did you mean "release"? Skills: release.');
    const [broken] = await session.run([{ type: 'tool_use', id: 's2', name: 'Skill', input: { skill: 'deploy' } }]);
    expect(contentToText(broken!.content)).toContain('Its file could not be loaded');
    expect(contentToText(broken!.content)).toContain('not valid YAML');
  });
});

describe('skills of other sources (an MCP server prompts)', () => {
  const loads: { name: string; arguments: Record<string, string> | undefined }[] = [];
  const mcp: SkillSource = {
    name: 'mcp',
    list: async () => [
      {
        name: 'mcp__github__pr_review',
        description: 'Review a pull request',
        arguments: [{ name: 'pr', required: true }, { name: 'focus' }],
        origin: 'MCP server "github"',
      },
      { name: 'mcp__github__triage', description: 'Triage the issues', origin: 'MCP server "github"' },
    ],
    load: async (name, options) => {
      loads.push({ name, arguments: options?.arguments ? { ...options.arguments } : undefined });
      return name.startsWith('mcp__github__') ? `[user] ${name} ${JSON.stringify(options?.arguments)}` : undefined;
    },
  };

  test('are listed in the description with their arguments and loaded with args mapped in order; a missing one is named', async () => {
    const sources = new SkillSources();
    sources.add(mcp);
    session = await createSession({
      cwd: project,
      homeDir: home,
      families: [agentTools({ homeDir: home, agentFiles: [] })],
      services: [[skillSourcesKey, sources]],
    });
    const skillTool = session.toolsFor('anthropic').find((t) => t.name === 'Skill')!;
    expect(skillTool.description).toContain(
      '- mcp__github__pr_review: Review a pull request [args: <pr> [focus]] (MCP server "github")',
    );
    const [loaded] = await session.run([
      {
        type: 'tool_use',
        id: 'm1',
        name: 'Skill',
        input: { skill: 'mcp__github__pr_review', args: '456 "error handling"' },
      },
    ]);
    expect(loaded!.is_error).toBeFalsy();
    expect(contentToText(loaded!.content)).toBe(
      'Skill "mcp__github__pr_review" loaded (from MCP server "github").\n\n[user] mcp__github__pr_review {"pr":"456","focus":"error handling"}',
    );
    const [missing] = await session.run([
      { type: 'tool_use', id: 'm2', name: 'Skill', input: { skill: 'mcp__github__pr_review' } },
    ]);
    expect(missing!.is_error).toBe(true);
    expect(contentToText(missing!.content)).toBe(
      'Skill failed: Skill "mcp__github__pr_review" needs "pr": give its arguments in args, in order (<pr> [focus]), or as name=value words (pr (required); focus).',
    );
    const [typo] = await session.run([
      { type: 'tool_use', id: 'm3', name: 'Skill', input: { skill: 'mcp__github__triag' } },
    ]);
    expect(contentToText(typo!.content)).toContain('Did you mean "mcp__github__triage"');
    expect(loads.map((l) => l.name)).toEqual(['mcp__github__pr_review']);
  });

  test('a source that does not answer is left out of the description (after a bounded wait) instead of holding the session', async () => {
    let aborted = false;
    const sources = new SkillSources();
    sources.add({
      name: 'mcp',
      list: ({ signal } = {}) =>
        new Promise((_, reject) =>
          signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
      load: async () => undefined,
    });
    session = await createSession({
      cwd: project,
      homeDir: home,
      families: [agentTools({ homeDir: home, agentFiles: [] })],
      services: [[skillSourcesKey, sources]],
    });
    const skillTool = session.toolsFor('anthropic').find((t) => t.name === 'Skill')!;
    expect(skillTool.description).toContain('No skills are installed.');
    expect(aborted).toBe(true);
  }, 20_000);

  test('the agent family registers the skill files as a source, with one optional argument, args', async () => {
    await skill(
      path.join(project, '.claude', 'skills'),
      'release',
      '---\nname: release\ndescription: Cut a release\n---\nRelease version $ARGUMENTS now.',
    );
    const sources = new SkillSources();
    session = await createSession({
      cwd: project,
      homeDir: home,
      families: [agentTools({ homeDir: home, agentFiles: [] })],
      services: [[skillSourcesKey, sources]],
    });
    const { skills } = await sources.list();
    expect(skills).toEqual([
      {
        name: 'release',
        description: 'Cut a release',
        arguments: [{ name: 'args', description: 'Arguments for the skill, if it takes any', required: false }],
        origin: path.join(project, '.claude', 'skills', 'release', 'SKILL.md'),
        source: 'skills',
      },
    ]);
    expect(await sources.load('release', { arguments: { args: 'v2.0.0' } })).toContain('Release version v2.0.0 now.');
    // The Skill tool reads the files itself: the skill is listed once.
    const skillTool = session.toolsFor('anthropic').find((t) => t.name === 'Skill')!;
    expect(skillTool.description.match(/- release:/g)).toHaveLength(1);
  });
});
