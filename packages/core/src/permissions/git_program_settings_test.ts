import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gitConfigSettings } from './git_hooks_path.ts';
import { gitProgramSettings } from './git_program_settings.ts';

let root = '';
let project = '';

/** `git init` at `dir`, then the config text appended. */
async function repository(dir: string, config = ''): Promise<string> {
  await mkdir(dir, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: dir, stdio: 'ignore' });
  await writeFile(path.join(dir, '.git', 'config'), config, { flag: 'a' });
  return path.join(dir, '.git');
}

const keys = (folder: string, home = root) =>
  gitProgramSettings(folder, { workingDirectories: [project], home }).found.map((s) => `${s.key}=${s.value}`);

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-gitprog-')));
  project = path.join(root, 'project');
  await repository(project, '[diff]\n\texternal = ./own-tool\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('gitProgramSettings', () => {
  test('the working directory’s own repository is the user’s: its config is not looked at', () => {
    expect(keys(project)).toEqual([]);
    expect(keys(path.join(project, 'src'))).toEqual([]);
  });

  test('a nested repository’s program settings are found, with the repository and file', async () => {
    const gitDir = await repository(
      path.join(project, 'nested'),
      '[core]\n\tfsmonitor = ./x.sh\n[diff "t"]\n\ttextconv = cat\n',
    );
    const found = gitProgramSettings(path.join(project, 'nested'), { workingDirectories: [project] }).found;
    expect(found).toEqual([
      { repository: gitDir, file: path.join(gitDir, 'config'), key: 'core.fsmonitor', value: './x.sh' },
      { repository: gitDir, file: path.join(gitDir, 'config'), key: 'diff.t.textconv', value: 'cat' },
    ]);
  });

  test('a setting that turns the program off is not one, nor is an everyday clone’s config', async () => {
    await repository(path.join(project, 'off'), '[core]\n\tfsmonitor = false\n[diff]\n\texternal =\n');
    expect(keys(path.join(project, 'off'))).toEqual([]);
  });

  test('the old `[section.name]` form and a key on the header line are read', async () => {
    await repository(path.join(project, 'old'), '[filter.x]\n\tclean = ./c\n[gpg] program = ./g\n');
    expect(keys(path.join(project, 'old'))).toEqual(['filter.x.clean=./c', 'gpg.program=./g']);
  });

  test('includes are followed (relative, `~/`, any includeIf), a missing one passed over', async () => {
    await writeFile(path.join(root, 'home.cfg'), '[core]\n\tpager = ./p\n');
    await writeFile(path.join(project, 'shared.cfg'), '[credential]\n\thelper = ./h\n');
    await repository(
      path.join(project, 'inc'),
      '[include]\n\tpath = ../../shared.cfg\n\tpath = missing.cfg\n[includeIf "onbranch:x"]\n\tpath = ~/home.cfg\n',
    );
    expect(keys(path.join(project, 'inc'))).toEqual(['credential.helper=./h', 'core.pager=./p']);
  });

  test('a config that includes itself, or has a line the parser cannot read, is unreadable', async () => {
    await repository(path.join(project, 'loop'), '[include]\n\tpath = config\n');
    expect(gitProgramSettings(path.join(project, 'loop'), { workingDirectories: [project] }).unreadable).not.toEqual(
      [],
    );
    await repository(path.join(project, 'odd'), '[core]\n\t"fsmonitor" = ./x\n');
    const odd = gitProgramSettings(path.join(project, 'odd'), { workingDirectories: [project] });
    expect(odd.unreadable[0]).toContain('"fsmonitor" = ./x');
  });

  test('an empty `.git` folder git passes over leads to the repository above', async () => {
    await repository(path.join(project, 'outer'), '[core]\n\tfsmonitor = ./x\n');
    await mkdir(path.join(project, 'outer', 'in', '.git'), { recursive: true });
    expect(keys(path.join(project, 'outer', 'in'))).toEqual(['core.fsmonitor=./x']);
  });

  test('a repository git surely takes hides the ones above it', async () => {
    await repository(path.join(project, 'outer', 'clean'));
    expect(keys(path.join(project, 'outer', 'clean'))).toEqual([]);
  });

  test('a `.git` file is followed to its git folder, and `commondir` to the shared config', async () => {
    const main = await repository(path.join(root, 'elsewhere'), '[diff]\n\texternal = ./d\n');
    await mkdir(path.join(main, 'worktrees', 'w'), { recursive: true });
    await writeFile(path.join(main, 'worktrees', 'w', 'commondir'), '../..\n');
    await mkdir(path.join(project, 'wt'), { recursive: true });
    await writeFile(path.join(project, 'wt', '.git'), `gitdir: ${path.join(main, 'worktrees', 'w')}\n`);
    expect(keys(path.join(project, 'wt'))).toEqual(['diff.external=./d']);
  });

  test('the repositories of the submodules the index lists are looked into, from the own repository too', async () => {
    const top = path.join(root, 'embedding');
    await repository(top);
    await repository(path.join(top, 'sub'), '[diff]\n\texternal = ./d\n');
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x'], {
      cwd: path.join(top, 'sub'),
      stdio: 'ignore',
    });
    execFileSync('git', ['add', 'sub'], { cwd: top, stdio: 'ignore' });
    expect(gitProgramSettings(top, { workingDirectories: [top] }).found.map((s) => s.key)).toEqual(['diff.external']);
    // An index the guard cannot read hides the submodules: unreadable.
    await writeFile(path.join(top, '.git', 'index'), 'not an index');
    expect(gitProgramSettings(top, { workingDirectories: [top] }).unreadable[0]).toContain('index');
  });

  test('a bare repository is looked at as git may take it', async () => {
    execFileSync('git', ['init', '-q', '--bare', path.join(project, 'b.git')], { stdio: 'ignore' });
    await writeFile(path.join(project, 'b.git', 'config'), '[core]\n\tfsmonitor = ./x\n', { flag: 'a' });
    expect(keys(path.join(project, 'b.git'))).toEqual(['core.fsmonitor=./x']);
  });
});

describe('gitConfigSettings', () => {
  test('names the subsection, quotes and escapes undone', () => {
    expect(gitConfigSettings('[diff "a\\"b"]\n\tcommand = x\n')).toEqual([
      { section: 'diff', subsection: true, name: 'a"b', key: 'command', value: 'x' },
    ]);
  });

  test('puts a line it cannot read aside, not comments or blank lines', () => {
    const unread: string[] = [];
    gitConfigSettings('# c\n; c\n\n[core]\n= x\n', unread);
    expect(unread).toEqual(['= x']);
  });
});
