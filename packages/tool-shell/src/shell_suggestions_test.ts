import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSession, type PermissionDecision, type Session } from '@toolshed/core';
import { loadBashParser } from './bash_parser.ts';
import { shellTools } from './family.ts';
import { shellRuleSuggestions } from './shell_suggestions.ts';

let root: string;
let project: string;
let seq = 0;

beforeAll(async () => {
  await loadBashParser();
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-suggest-')));
  project = path.join(root, 'project');
  await mkdir(path.join(project, 'src'), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function explain(command: string, allow: string[] = []): Promise<PermissionDecision> {
  const session: Session = await createSession({
    cwd: project,
    families: [shellTools()],
    permissions: { mode: 'default', allow },
    stateDir: path.join(root, 'state', String(++seq)),
  });
  try {
    return await session.explain('Bash', { command });
  } finally {
    await session.close();
  }
}

describe('shellRuleSuggestions', () => {
  test('the cases from the issue get one narrow rule per part that needs one', async () => {
    expect(shellRuleSuggestions('npm run build && npm test')).toEqual(['Bash(npm run build:*)', 'Bash(npm test:*)']);
    expect(shellRuleSuggestions('cd src && npm test')).toEqual(['Bash(npm test:*)']);
    expect(shellRuleSuggestions('FOO=1 npm test')).toEqual(['Bash(FOO=1 npm test:*)']);
    expect(shellRuleSuggestions('npm test && rm -rf build')).toEqual(['Bash(npm test:*)', 'Bash(rm -rf build)']);
  });

  test('a destructive command outside the current folder gets no rule at all', async () => {
    for (const command of [
      'npm test && rm -rf /',
      'rm -rf ~/projects',
      'rm -rf ../other',
      'rm -rf $DIR',
      'git status; rm /etc/passwd',
    ]) {
      expect(shellRuleSuggestions(command), command).toEqual([]);
    }
    const decision = await explain('npm test && rm -rf /');
    expect(decision.behavior).toBe('ask');
    expect(decision.suggestions).toEqual([]);
    expect(decision.reason).not.toContain('Edit(//)');
  });

  test('attack: a destructive part after a cd out of the current folder gets no rule (issue 15)', async () => {
    for (const command of [
      'cd ../out && rm f',
      'cd /tmp && rm -rf x',
      'cd && rm x',
      'cd ~ && rm x',
      'cd - && rm x',
      'cd "$D" && rm x',
      'pushd .. && rm x',
      'cd src; cd ../.. ; rm -rf build',
    ]) {
      expect(shellRuleSuggestions(command), command).toEqual([]);
    }
    expect(shellRuleSuggestions('cd src && rm -rf dist')).toEqual(['Bash(rm -rf dist)']);
    expect(shellRuleSuggestions('cd .. && npm test')).toEqual(['Bash(npm test:*)']);
    await mkdir(path.join(root, 'out'), { recursive: true });
    const decision = await explain('cd ../out && rm f');
    expect(decision.behavior).toBe('ask');
    expect(decision.suggestions).toEqual([]);
    expect(decision.reason).toContain('a person must approve it');
  });

  test('the decision carries the suggestions for a call whose paths the guard cannot know', async () => {
    const decision = await explain('cd src && npm test');
    expect(decision).toMatchObject({ behavior: 'ask', suggestions: ['Bash(npm test:*)'] });
  });

  // Property: over every combination of a safe part and a risky part, adding all the suggested
  // rules allows the call, and the same call with a different risky part still asks.
  const safe = ['npm test', 'npm run build', 'cd src', 'FOO=1 npm test', 'git status', 'make -j4', 'ls -la'];
  const risky = [
    'rm -rf build',
    'npm publish',
    'git push origin main',
    'curl -o out.txt http://127.0.0.1:1/x',
    'touch new.txt',
  ];
  const siblings: Record<string, string> = {
    'rm -rf build': 'rm -rf src',
    'npm publish': 'npm unpublish',
    'git push origin main': 'git push --force origin main',
    'curl -o out.txt http://127.0.0.1:1/x': 'curl http://127.0.0.1:1/x | sh',
    'touch new.txt': 'touch new.txt && chmod +x new.txt',
  };
  const joins = [' && ', '; ', ' || '];
  const cases = safe.flatMap((s, i) =>
    risky.map((r, j) => ({ safe: s, risky: r, join: joins[(i + j) % joins.length]! })),
  );

  test.each(cases)(
    'adding the suggestions for "$safe$join$risky" allows it and not its sibling',
    async ({ safe, risky, join }) => {
      const command = `${safe}${join}${risky}`;
      const before = await explain(command);
      expect(before.behavior, command).toBe('ask');
      const rules = before.suggestions ?? [];
      expect(rules.length, command).toBeGreaterThan(0);
      expect(
        rules.every((r) => !r.startsWith('Edit(') && !r.startsWith('Read(')),
        `${command}: ${rules.join(' ')}`,
      ).toBe(true);
      expect((await explain(command, rules)).behavior, `${command} with ${rules.join(' ')}`).toBe('allow');
      const sibling = `${safe}${join}${siblings[risky]}`;
      expect((await explain(sibling, rules)).behavior, `${sibling} with ${rules.join(' ')}`).toBe('ask');
    },
  );
});

// Property: a call that reaches outside the working directories gets rules that, added, allow it —
// the path rule and the command's own rule together — or none at all; never a rule that leaves it asking.
describe('suggestions for calls that reach outside the working directories', () => {
  const outside = () => path.join(root, 'outside');
  beforeAll(async () => {
    await mkdir(path.join(root, 'outside', 'x'), { recursive: true });
    await mkdir(path.join(root, 'outside', 'y'), { recursive: true });
  });
  const cases = [
    { command: (o: string) => `cp a.txt ${o}/x/`, sibling: (o: string) => `cp a.txt ${o}/y/`, offered: false },
    { command: (o: string) => `cat ${o}/x/notes.txt`, sibling: (o: string) => `cat ${o}/y/notes.txt`, offered: true },
    { command: (o: string) => `ls ${o}/x`, sibling: (o: string) => `ls ${o}/y`, offered: true },
    { command: (o: string) => `touch ${o}/x/new.txt`, sibling: (o: string) => `touch ${o}/y/new.txt`, offered: true },
    { command: (o: string) => `mkdir ${o}/x/sub`, sibling: (o: string) => `mkdir ${o}/y/sub`, offered: true },
    {
      command: (o: string) => `echo hi > ${o}/x/out.txt`,
      sibling: (o: string) => `echo hi > ${o}/y/out.txt`,
      offered: true,
    },
    {
      command: (o: string) => `npm test && cp dist/a.js ${o}/x/`,
      sibling: (o: string) => `npm test && cp dist/a.js ${o}/y/`,
      // A copy into a folder outside writes over whatever is in it: no rule is narrow enough.
      offered: false,
    },
  ];
  test.each(cases.map((c, i) => ({ ...c, i })))(
    'case $i: the suggested rules allow the call, or there are none',
    async ({ command, sibling, offered }) => {
      const call = command(outside());
      const before = await explain(call);
      expect(before.behavior, call).toBe('ask');
      const rules = before.suggestions ?? [];
      if (!offered) {
        expect(rules, call).toEqual([]);
        expect(before.reason, call).toContain('a person must approve it');
        return;
      }
      expect(rules.length, call).toBeGreaterThan(0);
      expect((await explain(call, rules)).behavior, `${call} with ${rules.join(' ')}`).toBe('allow');
      const other = sibling(outside());
      expect((await explain(other, rules)).behavior, `${other} with ${rules.join(' ')}`).toBe('ask');
    },
  );
});
