// Seventh attack, third part: hard links. A hard link is the same file under another name: with
// deny `Read(./secret.env)`, a link made where the guard does not see it (before the session, by
// a program the user allowed, by a person) let `cat x` read secret.env, allowed as a read-only
// call in every mode; with deny `Edit(./config/prod.json)`, `ln config/prod.json x` was allowed by
// `Bash(ln:*)` and `echo evil > x` then rewrote config/prod.json (bash 5, GNU coreutils).
import { linkSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';

const RULES = ['Bash(ln:*)', 'Bash(cp:*)', 'Bash(cat:*)', 'Bash(echo:*)'];
const DENY = ['Read(./secret.env)', 'Edit(./config/prod.json)'];
const exact = shellDecider('toolshed-hard-link-', RULES, { deny: DENY });
const glob = shellDecider('toolshed-hard-link-glob-', RULES, { deny: ['Read(**/.env)'] });

let dir = '';
beforeAll(async () => {
  dir = path.join(exact.root(), 'p');
  await mkdir(path.join(dir, 'config'), { recursive: true });
  await writeFile(path.join(dir, 'secret.env'), 'TOKEN=s3cret\n');
  await writeFile(path.join(dir, 'config/prod.json'), '{"db":"prod"}\n');
  await writeFile(path.join(dir, 'a.txt'), 'a\n');
  // Links made before the session: one to each protected file, and two names of an ordinary file.
  linkSync(path.join(dir, 'secret.env'), path.join(dir, 'notes.txt'));
  linkSync(path.join(dir, 'config/prod.json'), path.join(dir, 'settings.json'));
  linkSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
});

describe('making a hard link is a read and a write of the file linked', () => {
  test.each([
    ['ln secret.env x', 'Read(./secret.env)'],
    ['ln -P secret.env x', 'Read(./secret.env)'],
    ['cp -l secret.env x', 'Read(./secret.env)'],
    ['cp --link secret.env x', 'Read(./secret.env)'],
    ['ln config/prod.json x', 'Edit(./config/prod.json)'],
    ['cp -al config out', 'Edit(./config/prod.json)'],
    ['ln -t config2 config/prod.json', 'Edit(./config/prod.json)'],
  ])('%s is denied by %s, in every mode', async (command, rule) => {
    for (const mode of MODES) {
      const decision = await exact.explain(dir, command, mode);
      expect(decision.behavior, `${command} (${mode}): ${decision.reason}`).toBe('deny');
      expect(decision.rule).toBe(rule);
    }
  });

  test('a symbolic link is not a hard link: it writes only the link', async () => {
    const decision = await exact.explain(dir, 'ln -s config/prod.json x', 'bypassPermissions');
    expect(decision.behavior, decision.reason).toBe('allow');
  });
});

describe('a file with another name that a rule covers is that file', () => {
  test('cat of a hard link to a denied file is denied, naming the other name, in every mode', async () => {
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('TOKEN=s3cret\n');
    for (const mode of MODES) {
      const decision = await exact.explain(dir, 'cat notes.txt', mode);
      expect(decision.behavior, `${mode}: ${decision.reason}`).toBe('deny');
      expect(decision.rule).toBe('Read(./secret.env)');
      expect(decision.reason).toContain(`opens a hard link to ${dir}/secret.env`);
    }
  });

  test('a write through a hard link to a file an Edit rule denies is denied', async () => {
    for (const command of ['echo evil > settings.json', 'cp a.txt settings.json'])
      expect(await exact.explain(dir, command, 'bypassPermissions'), command).toMatchObject({
        behavior: 'deny',
        rule: 'Edit(./config/prod.json)',
      });
  });

  test('two names of a file no rule covers are read and written as before', async () => {
    expect(await exact.decide(dir, 'cat b.txt', 'default')).toBe('allow');
    expect(await exact.decide(dir, 'echo x > b.txt', 'bypassPermissions')).toBe('allow');
  });
});

test('a glob rule is asked for the files it covers: a hard link to any of them is that file', async () => {
  // Read(**/.env) covers files below the working directory: walked, none is the same file as b.txt.
  expect(await glob.decide(dir, 'cat b.txt', 'bypassPermissions')).toBe('allow');
  const other = path.join(glob.root(), 'q');
  await mkdir(path.join(other, 'sub'), { recursive: true });
  await writeFile(path.join(other, 'sub/.env'), 'TOKEN=x\n');
  linkSync(path.join(other, 'sub/.env'), path.join(other, 'readme.txt'));
  for (const mode of MODES) {
    const decision = await glob.explain(other, 'cat readme.txt', mode);
    expect(decision.behavior, `${mode}: ${decision.reason}`).toBe('deny');
    expect(decision.reason).toContain(`opens a hard link to ${other}/sub/.env`);
  }
});
