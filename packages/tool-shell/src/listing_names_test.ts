// Listers read names and metadata, not contents. With `Read(./.env)` (the first example of
// Claude Code's documentation), `find . -name '*.ts'`, `find .`, `du -sh .`, `ls -R` and `rg
// --files` were denied in every mode, as if they read every file under the folder, while `ls -la`
// (which lists `.env` just the same) was allowed. Each case runs the real program: what is
// allowed prints no secret; what reads a covered file's contents is still held back.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { shellDecider } from './testdata/shell_decider.ts';

const SECRET = 's3cret-listing';
const checks = shellDecider('toolshed-listing-', [], { deny: ['Read(./.env)', 'Read(./keys/**)'] });
const folderRule = shellDecider('toolshed-listing-folder-', [], { deny: ['Read(./keys)'] });
const HAS_RG = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
const treeRules = shellDecider('toolshed-listing-tree-', ['Bash(tree:*)'], { deny: ['Edit(./src/**)'] });
const HAS_TREE = spawnSync('tree', ['--version'], { stdio: 'ignore' }).status === 0;
if (!HAS_TREE)
  console.log('listing_names_test: the real tree runs are skipped, tree is not installed (apt install tree)');
if (!HAS_RG)
  console.log('listing_names_test: the rg --files cases are skipped, ripgrep is not installed (apt install ripgrep)');

function output(dir: string, command: string): string {
  const run = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return `${run.stdout}${run.stderr}`;
}

let dir = '';
beforeAll(async () => {
  dir = path.join(checks.root(), 'p');
  await mkdir(path.join(dir, 'src'), { recursive: true });
  await mkdir(path.join(dir, 'keys'), { recursive: true });
  await writeFile(path.join(dir, 'src/a.ts'), 'export const a = 1;\n');
  await writeFile(path.join(dir, '.env'), `KEY=${SECRET}\n`);
  await writeFile(path.join(dir, 'keys/id'), `${SECRET}\n`);
  await writeFile(path.join(dir, 'names0.txt'), '.env\0');
  execFileSync('cp', [path.join(dir, '.env'), path.join(dir, 'env-copy')]);
});

describe('listing a folder with a covered file in it', () => {
  test.each([
    "find . -name '*.ts'",
    'find .',
    'find . -type f | head',
    'find -L . -name x',
    'du -sh .',
    'du -a',
    'ls -R',
    'ls -Ra src',
    ...(HAS_RG ? ['rg --files', 'rg --files --hidden'] : []),
  ])('%s prints names, no secret, and is allowed', async (command) => {
    expect(output(dir, command)).not.toContain(SECRET);
    expect(await checks.decide(dir, command)).toBe('allow');
  });

  test.each([
    // Contents after all: a name list read from the covered file, a search, commands run on each file.
    ['find . -files0-from .env', 'deny'],
    ['du --files0-from=.env', 'deny'],
    ['grep -r KEY .', 'deny'],
    ...(HAS_RG ? [['rg -uu KEY .', 'deny']] : []),
    ['find . -name .env -exec cat {} +', 'ask'],
    ['find . -type f | xargs cat', 'ask'],
  ])('%s reads what a rule covers: held back (%s) in every mode', async (command, behavior) => {
    if (!command.includes('files0-from')) expect(output(dir, command)).toContain(SECRET);
    await checks.inEveryMode(dir, command, behavior!);
  });

  test('a folder a rule covers itself is still held back when listed by name', async () => {
    for (const decision of await folderRule.inEveryMode(dir, 'find keys', 'deny'))
      expect(decision.rule).toBe('Read(./keys)');
    expect(await folderRule.decide(dir, 'du -s keys', 'bypassPermissions')).toBe('deny');
    expect(await checks.decide(dir, 'ls -R keys', 'bypassPermissions')).toBe('deny');
    expect(await folderRule.decide(dir, 'find src')).toBe('allow');
  });
});

describe('tree -R writes a file in every folder it walks', () => {
  test.each(['tree -R -H . -L 1', 'tree -aR -L 1 -H . .', 'tree -H . -L 1 -R'])(
    '%s is a write of the folders: an Edit rule below holds it back, in every mode',
    async (command) => {
      if (HAS_TREE) {
        const copy = await checks.runInCopy(dir, command);
        expect(output(copy, 'find . -name 00Tree.html').trim()).not.toBe('');
      }
      for (const decision of await treeRules.inEveryMode(dir, command, 'deny'))
        expect(decision.rule).toBe('Edit(./src/**)');
    },
  );

  test('tree without -R only lists: allowed by its rule, a word after -- is a folder', async () => {
    expect(await treeRules.decide(dir, 'tree -a -L 1 -H . .')).toBe('allow');
    expect(await treeRules.decide(dir, 'tree -- -R')).toBe('allow');
  });
});
