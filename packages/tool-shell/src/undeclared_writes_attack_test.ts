// Seventh attack, second part: programs whose writes the guard did not declare. tar, unzip,
// patch, rsync, curl and wget had no table: "the files they open" was an unknown READ, which
// `Bash(tar:*)` (or bypassPermissions) allows where no Read deny rule is, though each writes
// where an archive, a patch or a URL says. Others had a table that missed a write: `sed -i SUFFIX`
// writes a backup named from the suffix, `cp -b -S SUFFIX` too, `install -d` makes every folder
// it names, and `dd "$A"` may be `of=…`. Each command below was run in a copy of the project
// (bash 5, GNU coreutils, tar, unzip, patch, curl) and wrote the protected file named beside it;
// the guard allowed it in every mode.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { shellDecider } from './testdata/shell_decider.ts';

const PROGRAMS = ['tar', 'unzip', 'patch', 'rsync', 'curl', 'wget', 'dd', 'sed', 'install', 'cp', 'mv', 'tee'];
const RULES = PROGRAMS.map((p) => `Bash(${p}:*)`);
const { root, decide, inEveryMode, runInCopy } = shellDecider('toolshed-undeclared-', RULES);

const has = (program: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

let dir = '';
beforeAll(async () => {
  dir = path.join(root(), 'p');
  const files: Record<string, string> = {
    'payload/.husky/pre-commit': 'touch pwned\n',
    'src/a.ts': 'a\n',
    'sub/pre-commit': 'touch pwned\n',
    'pre-commit': 'touch pwned\n',
    '.vscode/tasks': '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n',
    '.husky/.keep': '',
    '.vscode/task': '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n',
    'other.txt': 'o\n',
    'evil.diff': '--- /dev/null\n+++ .husky/pre-commit\n@@ -0,0 +1 @@\n+touch pwned\n',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  if (has('tar')) execFileSync('tar', ['-cf', 'evil.tar', '-C', 'payload', '.husky'], { cwd: dir });
  if (has('zip')) execFileSync('zip', ['-qr', '../evil.zip', '.husky'], { cwd: path.join(dir, 'payload') });
});

const CASES: [string, string, string][] = [
  ['tar', 'tar -xf evil.tar', '.husky/pre-commit'],
  ['tar', 'tar xf evil.tar', '.husky/pre-commit'],
  ['tar', 'tar -cf .husky/pre-commit sub', '.husky/pre-commit'],
  ['tar', 'tar -tf evil.tar --index-file=.husky/pre-commit', '.husky/pre-commit'],
  ['unzip', 'unzip -q evil.zip', '.husky/pre-commit'],
  ['patch', 'patch -p0 -i evil.diff', '.husky/pre-commit'],
  ['patch', 'patch -p0 < evil.diff', '.husky/pre-commit'],
  ['curl', 'curl -s -o .husky/pre-commit file://DIR/sub/pre-commit', '.husky/pre-commit'],
  ['curl', 'curl -s --output-dir .husky -O file://DIR/sub/pre-commit', '.husky/pre-commit'],
  ['curl', 'curl -sO file://DIR/sub/pre-commit --output-dir .husky', '.husky/pre-commit'],
  // curl 8.3 and later (not run here: 7.88 prints the format as it is).
  ['curl', "curl -s -o /dev/null -w '%output{.husky/pre-commit}x' https://example.com/", ''],
  ['curl', 'curl -s -w @fmt.txt https://example.com/', ''],
  ['wget', 'wget -q -P .husky http://127.0.0.1:9/pre-commit', ''],
  ['wget', 'wget -q http://127.0.0.1:9/pre-commit', ''],
  ['rsync', 'rsync -a payload/ .', ''],
  ['dd', 'A=of=.husky/pre-commit; dd if=sub/pre-commit "$A"', '.husky/pre-commit'],
  // GNU sed: a suffix with `*` names the backup (each `*` the file as written, from the command's folder).
  ['sed', "sed -i'.husky/*' s/a/a/ pre-commit", '.husky/pre-commit'],
  ['sed', 'sed -i.json s/a/a/ .vscode/tasks', '.vscode/tasks.json'],
  ['sed', 'sed --in-place=.json s/a/a/ .vscode/tasks', '.vscode/tasks.json'],
  ['sed', 'sed -si.json s/a/a/ .vscode/tasks', '.vscode/tasks.json'],
  ['cp', 'cp -b -S s.json other.txt .vscode/task', '.vscode/tasks.json'],
  ['cp', 'cp --backup --suffix=s.json other.txt .vscode/task', '.vscode/tasks.json'],
  ['cp', 'cp -bSs.json other.txt .vscode/task', '.vscode/tasks.json'],
  ['cp', 'mv -S s.json other.txt .vscode/task', '.vscode/tasks.json'],
  ['cp', 'cp -b other.txt .vscode/task', ''],
  ['install', 'install -d .husky/pre-commit src', '.husky/pre-commit'],
];

describe('a program whose writes the guard did not declare', () => {
  test.each(CASES)('(%s) %s writes %s: it asks, in every mode', async (program, template, written) => {
    const command = template.replaceAll('DIR', `${dir}-run`);
    if (written !== '' && has(program)) {
      const copy = await runInCopy(dir, command);
      expect(existsSync(path.join(copy, written)), `${command} wrote ${written}`).toBe(true);
    }
    const asked = template.replaceAll('DIR', dir);
    await inEveryMode(dir, asked, 'ask');
  });
});

describe('what these programs read or print only is not asked about', () => {
  test.each([
    'tar -tf evil.tar',
    'tar tvzf evil.tar',
    'unzip -l evil.zip',
    'unzip -p evil.zip .husky/pre-commit',
    'curl -s https://example.com/x',
    'curl -sSL -H "Accept: x" https://example.com/x',
    "curl -s -o /dev/null -w '%{http_code}' https://example.com/x",
    'curl -s -o out.json https://example.com/x',
    'wget -qO- https://example.com/x',
    'wget -q -O - https://example.com/x',
    'sed -i s/a/b/ src/a.ts',
    'sed -i.bak s/a/b/ src/a.ts',
    'cp -b -S .orig other.txt src/b.txt',
    'install -d build/out',
  ])('%s is allowed by its rule, in bypassPermissions', async (command) => {
    expect(await decide(dir, command, 'bypassPermissions')).toBe('allow');
  });
});
