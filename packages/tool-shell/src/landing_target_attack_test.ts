// Eighth attack, second part: a target directory the guard did not see as one. `cp -t DIR` puts
// each source in DIR, and the guard declares where each lands; but it knew `-t` only as the first
// letter of its word and `--target-directory` only in full, while GNU getopt also takes it in a
// bundle (`cp -rt. payload/.`, `install -Dt DIR`, `ln -st DIR`) and abbreviated (`cp --target
// DIR`, `--t=DIR`). Then DIR was a plain write of the folder, and what lands in it was not judged:
// each command below was run in a copy of the project (bash 5, GNU coreutils 9) and wrote the file
// named beside it, which is protected or under `Edit(./dest/prod.json)`; the guard allowed it.
import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { shellDecider } from './testdata/shell_decider.ts';

const RULES = ['Bash(cp:*)', 'Bash(install:*)', 'Bash(ln:*)', 'Bash(mv:*)'];
const { root, inEveryMode, runInCopy } = shellDecider('toolshed-landing-target-', RULES, {
  deny: ['Edit(./dest/prod.json)'],
});
const locked = shellDecider('toolshed-landing-locked-', RULES, { deny: ['Edit(./locked/**)'] });
const anyProd = shellDecider('toolshed-landing-prod-', RULES, { deny: ['Edit(**/prod.json)'] });

let dir = '';
beforeAll(async () => {
  dir = path.join(root(), 'p');
  const files: Record<string, string> = {
    'payload/.husky/pre-commit': 'touch pwned\n',
    'stuff/prod.json': '{"db":"prod"}\n',
    'conf/tasks.json': '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n',
    'dest/.keep': '',
    'dest/prod': 'old\n',
    'sub/.keep': '',
    'locked/prod.json': '{"db":"prod"}\n',
    '.vscode/.keep': '',
    '.husky/.keep': '',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
});

describe('a target directory given in a bundle or abbreviated', () => {
  test.each([
    // DIR is `.`, taken in whole: the reason names the folder and what is protected in it.
    ['cp -rt. payload/.', '.husky/pre-commit', 'ask'],
    ['cp -rtdest stuff/.', 'dest/prod.json', 'deny'],
    ['cp --target dest stuff/prod.json', 'dest/prod.json', 'deny'],
    ['cp --t=dest stuff/prod.json', 'dest/prod.json', 'deny'],
    ['cp --target .vscode conf/tasks.json', '.vscode/tasks.json', 'ask'],
    ['install -Dt dest stuff/prod.json', 'dest/prod.json', 'deny'],
    ['install -Dt .vscode conf/tasks.json', '.vscode/tasks.json', 'ask'],
    ['ln -st dest ../stuff/prod.json', 'dest/prod.json', 'deny'],
    ['mv -ft dest stuff/prod.json', 'dest/prod.json', 'deny'],
  ])('%s writes %s: %s, in every mode', async (command, written, expected) => {
    const copy = await runInCopy(dir, command);
    expect(existsSync(path.join(copy, written)), `${command} wrote ${written}`).toBe(true);
    for (const decision of await inEveryMode(dir, command, expected))
      expect(decision.reason).toContain(written.startsWith('.husky') ? 'git hooks' : path.join(dir, written));
  });
});

describe('a backup asked for with an abbreviated --backup', () => {
  // `--ba` is `--backup`, kept as DEST + SIMPLE_BACKUP_SUFFIX; the guard knew only `--backup…`.
  test.each([
    ['SIMPLE_BACKUP_SUFFIX=.json cp --ba stuff/prod.json dest/prod', 'dest/prod.json'],
    ['export SIMPLE_BACKUP_SUFFIX=.json; mv --b stuff/prod.json dest/prod', 'dest/prod.json'],
  ])('%s writes %s: it asks, in every mode', async (command, written) => {
    const copy = await runInCopy(dir, command);
    expect(existsSync(path.join(copy, written)), `${command} wrote ${written}`).toBe(true);
    for (const decision of await inEveryMode(dir, command, 'ask'))
      expect(decision.reason).toContain('SIMPLE_BACKUP_SUFFIX');
  });
});

describe('a hard link or a folder asked for with an abbreviated option', () => {
  test('cp --li makes a hard link of locked/prod.json, through which a later write changes it: denied', async () => {
    const command = 'cp --li locked/prod.json x';
    const copy = await runInCopy(dir, command);
    expect(statSync(path.join(copy, 'x')).ino).toBe(statSync(path.join(copy, 'locked/prod.json')).ino);
    for (const decision of await locked.inEveryMode(dir, command, 'deny'))
      expect(decision.reason).toContain('Edit(./locked/**)');
  });

  test('install --di .husky/pre-commit makes that folder: it asks, in every mode', async () => {
    const command = 'install --di .husky/pre-commit';
    const copy = await runInCopy(dir, command);
    expect(statSync(path.join(copy, '.husky/pre-commit')).isDirectory()).toBe(true);
    for (const decision of await inEveryMode(dir, command, 'ask'))
      expect(decision.reason).toContain('.husky/pre-commit');
  });
});

describe('a relative symbolic link (ln -sr), whose source is read from the folder the command runs in', () => {
  // Without -r a relative source is read from the link's folder; with -r (--relative) from the
  // command's, and ln writes the link relative to its folder. The guard read it the first way.
  test.each(['ln -sr stuff sub/link', 'ln --relative --symbolic stuff sub/link', 'ln -s --rel stuff sub/link'])(
    '%s puts prod.json at sub/link/prod.json: denied, in every mode',
    async (command) => {
      const copy = await runInCopy(dir, command);
      expect(existsSync(path.join(copy, 'sub/link/prod.json')), `${command} linked stuff`).toBe(true);
      for (const decision of await anyProd.inEveryMode(dir, command, 'deny')) {
        // Both forms are judged (sub/link made, or an existing folder sub/link/stuff): the first found is named.
        expect(decision.reason).toMatch(/sub\/link\/(stuff\/)?prod\.json, which the rule covers/);
      }
    },
  );
});
