import { describe, expect, test } from 'vitest';
import { PROTECTED_NAME_TABLE, protectedPath } from './protected_paths.ts';

const home = '/home/u';

describe('protectedPath', () => {
  const table: [path: string, name: string | undefined][] = [
    ['/home/u/proj/.toolshed/settings.json', '.toolshed'],
    ['/home/u/proj/.claude/settings.local.json', '.claude'],
    ['/home/u/proj/sub/.claude/commands/x.md', '.claude'],
    ['/home/u/.toolshed/settings.json', '.toolshed'],
    ['/home/u/proj/.mcp.json', '.mcp.json'],
    ['/home/u/proj/.git/config', '.git'],
    ['/home/u/proj/.git/hooks/pre-commit', '.git'],
    ['/home/u/proj/.git/HEAD', '.git'],
    ['/home/u/proj/.git', '.git'],
    ['/home/u/proj/vendor/lib/.git/hooks/post-checkout', '.git'],
    ['/home/u/proj/.git/objects/ab/cdef', undefined],
    ['/home/u/proj/.git/refs/heads/main', '.git'],
    ['/home/u/proj/.git/objects/info/alternates', '.git'],
    ['/home/u/.ssh/authorized_keys', '.ssh'],
    ['/home/u/.ssh/config', '.ssh'],
    ['/home/u/.config/git/config', 'git'],
    ['/home/u/proj/.envrc', '.envrc'],
    ['/home/u/proj/sub/.envrc', '.envrc'],
    ['/home/u/proj/.vscode/tasks.json', 'tasks.json'],
    ['/home/u/proj/.vscode/launch.json', 'launch.json'],
    ['/home/u/proj/package.json', 'package.json'],
    ['/home/u/proj/packages/a/package.json', 'package.json'],
    ['/home/u/proj/node_modules/x/package.json', undefined],
    ['/home/u/proj/.vscode/extensions.json', undefined],
    ['/home/u/proj/src/tasks.json', undefined],
    ['/home/u/.config/other/config', undefined],
    ['/home/u/.bashrc', '.bashrc'],
    ['/home/u/.zshrc', '.zshrc'],
    ['/home/u/.profile', '.profile'],
    ['/home/u/.gitconfig', '.gitconfig'],
    ['/home/u/.bash_profile', '.bash_profile'],
    ['/home/u/proj/.bashrc', undefined],
    ['/home/u/proj/src/a.ts', undefined],
    ['/home/u/proj/.github/workflows/ci.yml', undefined],
    ['/home/u/proj/.gitignore', undefined],
    ['/home/u/proj/my.mcp.json', undefined],
    ['/home/u/proj/.idea/workspace.xml', '.idea'],
    ['/home/u/proj/sub/.idea/runConfigurations/test.xml', '.idea'],
    ['/home/u/proj/.gitmodules', '.gitmodules'],
    ['/home/u/.ripgreprc', '.ripgreprc'],
    ['/home/u/proj/.ripgreprc', '.ripgreprc'],
    ['/home/u/.claude.json', '.claude.json'],
    ['/home/u/proj/src/idea.ts', undefined],
    ['/etc/profile', 'profile'],
    ['/etc/profile.d/evil.sh', 'profile.d'],
    ['/etc/bash.bashrc', 'bash.bashrc'],
    ['/etc/environment', 'environment'],
    ['/etc/zsh/zshrc', 'zsh'],
    ['/etc/gitconfig', 'gitconfig'],
    ['/etc/ld.so.preload', 'ld.so.preload'],
    ['/private/etc/zshrc', 'zshrc'],
    ['/etc/hosts', undefined],
    ['/etc/profiles/x', undefined],
    ['/home/u/proj/etc/profile', undefined],
  ];
  test.each(table)('%j is protected by %j', (path, name) => {
    expect(protectedPath(path, { homeDir: home })?.name).toBe(name);
  });

  test.each([
    '/home/u/proj/.GIT/config',
    '/home/u/proj/.Claude/settings.json',
    '/home/u/.BashRC',
    '/home/u/proj/.MCP.json',
  ])('protects the case variant %j only on a case-insensitive file system', (path) => {
    expect(protectedPath(path, { homeDir: home, caseInsensitive: true })).toBeDefined();
    expect(protectedPath(path, { homeDir: home, caseInsensitive: false })).toBeUndefined();
  });

  test('a file named as a property of every object (constructor, toString) is not a protected file', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(protectedPath(`/p/${name}`, { homeDir: '/home/u' }), name).toBeUndefined();
  });

  test('a dot segment anywhere is found, the first one too, and a relative path is read from its start', () => {
    expect(protectedPath('.claude/settings.json')?.name).toBe('.claude');
    expect(protectedPath('/p/.cache/x/.husky/pre-commit')?.name).toBe('.husky');
    expect(protectedPath('/p/.git/objects/ab/.claude/x')?.name).toBe('.claude');
    expect(protectedPath('/p/.git/objects/info/alternates')?.name).toBe('.git');
    expect(protectedPath('/p/a.b/.c/d')).toBeUndefined();
  });

  test('says what the protected path is', () => {
    expect(protectedPath('/p/.git/hooks/x', { homeDir: home })).toEqual({
      name: '.git',
      what: 'git internals (config, hooks)',
    });
    expect(protectedPath('/home/u/.zshrc', { homeDir: home })?.what).toBe('a shell or git start-up file');
  });
});

describe('PROTECTED_NAME_TABLE', () => {
  const t = PROTECTED_NAME_TABLE;

  test('every name it lists is one protectedPath protects, where the table says', () => {
    for (const dir of t.dirs) expect(protectedPath(`/p/a/${dir}/x`, { homeDir: home })?.name).toBe(dir);
    for (const file of [...t.files, ...t.projectFiles])
      expect(protectedPath(`/p/a/${file}`, { homeDir: home })?.name).toBe(file);
    for (const file of t.projectFiles)
      expect(protectedPath(`/p/node_modules/x/${file}`, { homeDir: home })).toBe(undefined);
    for (const { dir, files } of t.partial) {
      for (const file of files) expect(protectedPath(`/p/${dir}/${file}`, { homeDir: home })?.name).toBe(file);
      expect(protectedPath(`/p/${dir}/extensions.json`, { homeDir: home })).toBe(undefined);
    }
    expect(protectedPath(`/p/${t.gitDir}/refs/heads/main`, { homeDir: home })?.name).toBe(t.gitDir);
    for (const data of t.gitData)
      expect(protectedPath(`/p/${t.gitDir}/${data}/ab/cd`, { homeDir: home })).toBe(undefined);
    for (const file of t.homeFiles) expect(protectedPath(`${home}/${file}`, { homeDir: home })?.name).toBe(file);
    for (const dir of t.homeDirs) expect(protectedPath(`${home}/${dir}/x`, { homeDir: home })).toBeDefined();
    for (const system of t.systemPaths) expect(protectedPath(system, { homeDir: home })).toBeDefined();
  });

  test("the home's logout scripts are protected as its start-up files are (a login shell runs them)", () => {
    expect(protectedPath(`${home}/.bash_logout`, { homeDir: home })?.name).toBe('.bash_logout');
    expect(protectedPath(`${home}/.zlogout`, { homeDir: home })?.name).toBe('.zlogout');
  });
});
