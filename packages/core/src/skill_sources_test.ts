import { describe, expect, test } from 'vitest';
import { createServices } from './services.ts';
import { skillArguments, SkillSources, skillSourcesKey, skillSourcesOf, type SkillSource } from './skill_sources.ts';

const declared = [{ name: 'owner', required: true }, { name: 'repo', required: true }, { name: 'focus' }];

describe('skillArguments', () => {
  test('fills the arguments in order, the last one taking the rest; quotes keep spaces', () => {
    expect(skillArguments('acme "big repo" error handling', declared)).toEqual({
      values: { owner: 'acme', repo: 'big repo', focus: 'error handling' },
      missing: [],
      unused: [],
    });
  });

  test('name=value words set that argument wherever they stand; the others fill the rest', () => {
    expect(skillArguments("repo=tools acme focus='the tests'", declared).values).toEqual({
      owner: 'acme',
      repo: 'tools',
      focus: 'the tests',
    });
    // A word with "=" that names no argument is a value like any other.
    expect(skillArguments('a=b c', declared).values).toEqual({ owner: 'a=b', repo: 'c' });
  });

  test('names the required arguments still missing, and the words a skill without arguments does not take', () => {
    expect(skillArguments('', declared)).toEqual({ values: {}, missing: ['owner', 'repo'], unused: [] });
    expect(skillArguments('acme', declared).missing).toEqual(['repo']);
    expect(skillArguments('stray words', [])).toEqual({ values: {}, missing: [], unused: ['stray', 'words'] });
  });
});

describe('SkillSources', () => {
  const source = (name: string, skills: string[], fail?: string): SkillSource => ({
    name,
    list: async () => {
      if (fail) throw new Error(fail);
      return skills.map((s) => ({ name: s, description: `${s} of ${name}`, origin: name }));
    },
    load: async (skill) => (skills.includes(skill) ? `${skill} from ${name}` : undefined),
  });

  test('lists every source, the earlier winning a clash; a failing source is a problem and the others still list', async () => {
    const sources = new SkillSources();
    sources.add(source('a', ['one', 'two']));
    const removeB = sources.add(source('b', ['two', 'three']));
    sources.add(source('broken', [], 'server down'));
    const { skills, problems } = await sources.list();
    expect(skills.map((s) => `${s.name}:${s.source}`)).toEqual(['one:a', 'two:a', 'three:b']);
    expect(problems).toEqual([{ source: 'broken', message: 'server down' }]);
    expect(await sources.load('three')).toBe('three from b');
    expect(await sources.load('three', { filter: (s) => s.name === 'a' })).toBeUndefined();
    removeB();
    expect(await sources.load('three')).toBeUndefined();
  });

  test('skillSourcesOf makes the registry once and finds the one an integrator gave', () => {
    const services = createServices();
    const made = skillSourcesOf({ services });
    expect(skillSourcesOf({ services })).toBe(made);
    const given = new SkillSources();
    expect(skillSourcesOf({ services: createServices([[skillSourcesKey, given]]) })).toBe(given);
  });
});
