// Seventh attack, third part: hard links. A hard link is the same file under another name: with
// deny `Edit(./config/prod.json)`, `ln config/prod.json x` was allowed by `Bash(ln:*)` and
// `echo evil > x` then rewrote config/prod.json (bash 5, GNU coreutils). A link made where the
// guard does not see it (before the session) is a documented limit (core README, path guard).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { shellDecider } from './testdata/shell_decider.ts';

const RULES = ['Bash(ln:*)', 'Bash(cp:*)', 'Bash(cat:*)', 'Bash(echo:*)'];
const DENY = ['Read(./secret.env)', 'Edit(./config/prod.json)'];
const exact = shellDecider('toolshed-hard-link-', RULES, { deny: DENY });

let dir = '';
beforeAll(async () => {
  dir = path.join(exact.root(), 'p');
  await mkdir(path.join(dir, 'config'), { recursive: true });
  await writeFile(path.join(dir, 'secret.env'), 'TOKEN=s3cret\n');
  await writeFile(path.join(dir, 'config/prod.json'), '{"db":"prod"}\n');
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
    for (const decision of await exact.inEveryMode(dir, command, 'deny')) expect(decision.rule).toBe(rule);
  });

  test('a symbolic link is not a hard link: it writes only the link', async () => {
    const decision = await exact.explain(dir, 'ln -s config/prod.json x', 'bypassPermissions');
    expect(decision.behavior, decision.reason).toBe('allow');
  });
});
