import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { gitConfiguredPaths, gitPathsByFolder, hooksPathIn } from './git_hooks_path.ts';

const gitHooksFolders = (dirs: string[], home: string) => gitConfiguredPaths(dirs, home).hooks;
const gitConfigFiles = (dirs: string[], home: string) => gitConfiguredPaths(dirs, home).configs;

const GIT = spawnSync('git', ['--version']).status === 0;
if (!GIT) console.log('[skip] the checks against git itself: git is not installed');

describe('hooksPathIn', () => {
  test.each([
    ['[core]\n\thooksPath = .githooks\n', '.githooks'],
    ['[Core]\n\tHOOKSPATH=.githooks', '.githooks'],
    ['[core] hooksPath = x', 'x'],
    ['[core]\n\thooksPath = "a b/#c" # a comment\n', 'a b/#c'],
    ['[core]\n\thooksPath = a ; note\n', 'a'],
    ['[core]\n\thooksPath = first\n[user]\n\tname = x\n[core]\n\thooksPath = second\n', 'second'],
    ['[alias]\n\thooksPath = no\n', undefined],
    ['[core]\n\tbare = false\n', undefined],
    ['[core]\n\thooksPath =\n', undefined],
    ['[core]\n\thooksPath = "with \\"quote\\""\n', 'with "quote"'],
    // Found by an attack: each read differently from git before.
    ['[core]\n\thooksPath = my\\\nhooks\n', 'myhooks'],
    ['[core]\n\thooksPath = my\\\r\nhooks\r\n', 'myhooks'],
    ['[core]\n\thooksPath = a\n[core "x"]\n\thooksPath = b\n', 'a'],
    ['[core]\n\thooksPath = "h\\b"\n', 'h\b'],
  ])('%j gives %j', (text, expected) => {
    expect(hooksPathIn(text)).toBe(expected);
  });

  test.skipIf(!GIT)('reads what git itself reads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolshed-hookspath-'));
    try {
      const file = join(dir, 'config');
      for (const value of ['.githooks', 'a b/#c', 'semi;colon', 'back\\slash', ' padded ', 'h\b', 'tab\there']) {
        writeFileSync(file, '');
        expect(spawnSync('git', ['config', '--file', file, 'core.hooksPath', value]).status).toBe(0);
        const git = spawnSync('git', ['config', '--file', file, '--get', 'core.hooksPath'], { encoding: 'utf8' });
        expect(hooksPathIn(`${readText(file)}`), value).toBe(git.stdout.replace(/\n$/, ''));
      }
      // Texts written by hand, as git reads them.
      for (const text of [
        '[core]\n\thooksPath = my\\\nhooks\n',
        '[core]\n\thooksPath = a\n[core "x"]\n\thooksPath = b\n',
        '[core]\n\thooksPath = "h\\b"\n',
        '[core] hooksPath = x ; note\n',
      ]) {
        writeFileSync(file, text);
        const git = spawnSync('git', ['config', '--file', file, '--get', 'core.hooksPath'], { encoding: 'utf8' });
        expect(hooksPathIn(text), JSON.stringify(text)).toBe(git.stdout.replace(/\n$/, ''));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('gitConfiguredPaths', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolshed-hooks-')));
  const home = join(root, 'home');
  mkdirSync(home);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A repository at `name` whose .git/config holds `config`. */
  const repo = (name: string, config: string) => {
    const top = join(root, name);
    mkdirSync(join(top, '.git'), { recursive: true });
    mkdirSync(join(top, 'src'), { recursive: true });
    writeFileSync(join(top, '.git', 'config'), config);
    return top;
  };

  test('a relative hooksPath is taken from the top of the working tree, from a folder below it too', () => {
    const top = repo('relative', '[core]\n\thooksPath = .githooks\n');
    expect(gitHooksFolders([top], home)).toEqual([join(top, '.githooks')]);
    expect(gitHooksFolders([join(top, 'src')], home)).toEqual([join(top, '.githooks')]);
  });

  test('none where no config sets it', () => {
    const top = repo('unset', '[core]\n\tbare = false\n');
    expect(gitHooksFolders([top], home)).toEqual([]);
  });

  test('the global config counts, the repository’s wins; ~/ is the home directory', () => {
    const top = repo('global', '');
    writeFileSync(join(home, '.gitconfig'), '[core]\n\thooksPath = ~/hooks\n');
    try {
      expect(gitHooksFolders([top], home)).toEqual([join(home, 'hooks')]);
      writeFileSync(join(top, '.git', 'config'), '[core]\n\thooksPath = /abs/hooks\n');
      expect(gitHooksFolders([top], home)).toEqual(['/abs/hooks']);
    } finally {
      rmSync(join(home, '.gitconfig'));
    }
  });

  test('an included file is followed where it is included, and named as git configuration', () => {
    const top = repo('included', '[core]\n\thooksPath = own\n[include]\n\tpath = ../tools/git.cfg\n');
    mkdirSync(join(top, 'tools'));
    writeFileSync(join(top, 'tools', 'git.cfg'), '[core]\n\thooksPath = tools/hooks\n');
    const config = join(top, '.git', 'config');
    const gitSays = () =>
      spawnSync('git', ['config', '--file', config, '--includes', '--get', 'core.hooksPath'], {
        encoding: 'utf8',
      }).stdout.trim();
    expect(gitHooksFolders([top], home)).toEqual([join(top, 'tools', 'hooks')]);
    if (GIT) expect(gitSays()).toBe('tools/hooks');
    expect(gitConfigFiles([top], home)).toContain(join(top, 'tools', 'git.cfg'));
    // Set again after the include: the later one wins.
    writeFileSync(join(top, '.git', 'config'), '[include]\n\tpath = ../tools/git.cfg\n[core]\n\thooksPath = own\n');
    expect(gitHooksFolders([top], home)).toEqual([join(top, 'own')]);
    if (GIT) expect(gitSays()).toBe('own');
  });

  test('an includeIf is followed whatever its condition, and a change of the included file is seen', () => {
    const top = repo('include-if', '[includeIf "gitdir:~/work/"]\n\tpath = ~/work.cfg\n');
    expect(gitHooksFolders([top], home)).toEqual([]);
    expect(gitConfigFiles([top], home)).toContain(join(home, 'work.cfg'));
    writeFileSync(join(home, 'work.cfg'), '[core]\n\thooksPath = ~/work-hooks\n');
    try {
      expect(gitHooksFolders([top], home)).toEqual([join(home, 'work-hooks')]);
    } finally {
      rmSync(join(home, 'work.cfg'));
    }
  });

  test('the user config the environment points to is read and named (GIT_CONFIG_GLOBAL, XDG_CONFIG_HOME)', () => {
    const top = repo('moved-global', '');
    const global = join(root, 'elsewhere.cfg');
    writeFileSync(global, '[core]\n\thooksPath = /moved/hooks\n');
    const xdg = join(root, 'xdg');
    mkdirSync(join(xdg, 'git'), { recursive: true });
    writeFileSync(join(xdg, 'git', 'config'), '[core]\n\thooksPath = /xdg/hooks\n');
    try {
      process.env.GIT_CONFIG_GLOBAL = global;
      expect(gitHooksFolders([top], home)).toEqual(['/moved/hooks']);
      expect(gitConfigFiles([top], home)).toContain(global);
      delete process.env.GIT_CONFIG_GLOBAL;
      process.env.XDG_CONFIG_HOME = xdg;
      expect(gitHooksFolders([top], home)).toEqual(['/xdg/hooks']);
      expect(gitConfigFiles([top], home)).toContain(join(xdg, 'git', 'config'));
    } finally {
      delete process.env.GIT_CONFIG_GLOBAL;
      delete process.env.XDG_CONFIG_HOME;
    }
    expect(gitHooksFolders([top], home)).toEqual([]);
  });

  test('a change of the config is seen on the next call', () => {
    const top = repo('changed', '');
    expect(gitHooksFolders([top], home)).toEqual([]);
    writeFileSync(join(top, '.git', 'config'), '[core]\n\thooksPath = hooks-now\n');
    expect(gitHooksFolders([top], home)).toEqual([join(top, 'hooks-now')]);
  });

  test.skipIf(!GIT)('a worktree reads the shared config, and its hooks path is taken from its own top', () => {
    const main = join(root, 'main');
    mkdirSync(main);
    const git = (...args: string[]) => spawnSync('git', ['-C', main, ...args], { encoding: 'utf8' });
    expect(git('init', '-q').status).toBe(0);
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x');
    expect(git('config', 'core.hooksPath', '.husky/_').status).toBe(0);
    const tree = join(root, 'tree');
    expect(git('worktree', 'add', '-q', tree).status).toBe(0);
    expect(gitHooksFolders([tree], home)).toEqual([join(tree, '.husky', '_')]);
  });

  test('gitPathsByFolder finds the repository a folder is in (a nested one too), once per folder', () => {
    const outer = repo('outer', '[core]\n\thooksPath = outer-hooks\n');
    const inner = join(outer, 'vendor', 'lib');
    mkdirSync(join(inner, '.git'), { recursive: true });
    mkdirSync(join(inner, 'src', 'deep'), { recursive: true });
    writeFileSync(join(inner, '.git', 'config'), '[core]\n\thooksPath = inner-hooks\n');
    const pathsOf = gitPathsByFolder(home);
    expect(pathsOf(join(outer, 'src'))?.hooks).toEqual([join(outer, 'outer-hooks')]);
    expect(pathsOf(join(inner, 'src', 'deep'))?.hooks).toEqual([join(inner, 'inner-hooks')]);
    // A folder not made yet is in the repository of the folders above it.
    expect(pathsOf(join(inner, 'not-yet', 'x'))?.hooks).toEqual([join(inner, 'inner-hooks')]);
    // The same reading while nothing changed: the same object.
    expect(pathsOf(join(inner, 'src'))).toBe(pathsOf(join(inner, 'src', 'deep')));
  });
});

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
