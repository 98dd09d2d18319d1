// Eighth attack, third part: what one part of a command makes, another part goes through. The
// guard resolves every path as the files are when it decides, but `ln -s .git/hooks d && cp x
// d/pre-commit` makes `d` a link first, so the copy lands in .git/hooks; `cp -r vlink d` and `mv
// vlink d` carry an existing link to a new name; and a folder filled by an earlier part (`mkdir s
// && cp f s/prod.json && cp -r s/. dest`) lands what the guard did not see in it. Each command
// below was run in a copy of the project (bash 5, GNU coreutils 9) and wrote the protected or
// Edit-denied file named beside it; the guard allowed it under `Bash(ln:*)`, `Bash(cp:*)`… in
// every mode.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { shellDecider } from './testdata/shell_decider.ts';

const RULES = ['ln', 'cp', 'mv', 'mkdir', 'echo', 'cat', 'git checkout'].map((p) => `Bash(${p}:*)`);
const { root, explain, inEveryMode, runInCopy } = shellDecider('toolshed-same-command-links-', RULES, {
  deny: ['Edit(./dest/prod.json)', 'Edit(./config/**)'],
});

let dir = '';
beforeAll(async () => {
  dir = path.join(root(), 'p');
  const files: Record<string, string> = {
    '.git/hooks/.keep': '',
    '.vscode/.keep': '',
    'src/a.ts': 'touch pwned\n',
    'conf/tasks.json': '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n',
    'stuff/prod.json': '{"db":"prod"}\n',
    'dest/.keep': '',
    'config/prod.json': '{"db":"prod"}\n',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await symlink('.vscode', path.join(dir, 'vlink'));
});

describe('a path through a link, or a folder, that another part of the command makes', () => {
  test.each([
    ['ln -s .git/hooks d && cp src/a.ts d/pre-commit', '.git/hooks/pre-commit'],
    ['ln -s .vscode d && cp conf/tasks.json d/', '.vscode/tasks.json'],
    ["ln -s .git/hooks/pre-commit d && echo 'touch pwned' > d", '.git/hooks/pre-commit'],
    ['cp -r vlink d && cp conf/tasks.json d/tasks.json', '.vscode/tasks.json'],
    ['mv vlink d && cp conf/tasks.json d/', '.vscode/tasks.json'],
    ['ln -s config d && cp src/a.ts d/prod.json', 'config/prod.json'],
    ['mkdir -p s && cp stuff/prod.json s/x.json && mv s/x.json s/prod.json && cp -r s/. dest', 'dest/prod.json'],
  ])('%s writes %s: it asks, in every mode', async (command, written) => {
    const copy = await runInCopy(dir, command);
    const wrote = path.join(copy, written);
    expect(existsSync(wrote) && readFileSync(wrote, 'utf8') !== '', `${command} wrote ${written}`).toBe(true);
    await inEveryMode(dir, command, 'ask');
  });
});

// Ninth attack: `cp -s` makes each landing a link to its (absolute) source, as `ln -s` does; the
// guard took it for a copy that carries only the links its sources hold.
describe('a folder of links cp -s makes, which another part writes through', () => {
  test.each([
    ['cp -rs DIR/.git/hooks d && cp src/a.ts d/.keep', '.git/hooks/.keep'],
    ['mkdir d && cp --symbolic-link DIR/.vscode/.keep d && cp src/a.ts d/.keep', '.vscode/.keep'],
  ])('%s writes %s: it asks, in every mode', async (template, written) => {
    const copy = await runInCopy(dir, template.replaceAll('DIR', `${dir}-run`));
    expect(readFileSync(path.join(copy, written), 'utf8'), `${template} wrote ${written}`).toBe('touch pwned\n');
    const command = template.replaceAll('DIR', dir);
    await inEveryMode(dir, command, 'ask');
  });
});

describe('what an earlier part makes without a link is still judged where it is', () => {
  test.each([
    'mkdir -p build && cp src/a.ts build/a.ts',
    'cp src/a.ts out.ts && cat out.ts',
    'mkdir -p build/x && echo hi > build/x/y.txt',
    'cp -r src build && cp src/a.ts build/b.ts',
  ])('%s is allowed by its rules, in bypassPermissions', async (command) => {
    const decision = await explain(dir, command, 'bypassPermissions');
    expect(decision.behavior, decision.reason).toBe('allow');
  });
});
