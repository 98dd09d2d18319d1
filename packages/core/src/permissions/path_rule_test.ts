import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compilePathRule, matchPathRule, parsePathSpecifier, type PathRuleBases } from './path_rule.ts';

// Paths that do not exist on disk resolve lexically, which keeps this table about the grammar.
const bases: PathRuleBases = {
  cwd: '/nonexistent-ts/proj',
  homeDir: '/nonexistent-ts/home',
  root: '/nonexistent-ts/settings-root',
  workingDirectories: ['/nonexistent-ts/proj', '/nonexistent-ts/shared'],
};

describe('parsePathSpecifier', () => {
  const table: [content: string, anchor: string, pattern: string][] = [
    ['//etc/**', 'absolute', 'etc/**'],
    ['//', 'absolute', ''],
    ['~/.ssh/**', 'home', '.ssh/**'],
    ['~', 'home', ''],
    ['/src/**', 'settings', 'src/**'],
    ['./src/*.ts', 'cwd', 'src/*.ts'],
    ['.', 'cwd', ''],
    ['src/lib/', 'cwd', 'src/lib'],
    ['../other/x', 'cwd', '../other/x'],
    ['.env', 'anywhere', '.env'],
    ['*.pem', 'anywhere', '*.pem'],
    ['secrets/', 'anywhere', 'secrets'],
  ];
  test.each(table)('%j is anchored %s with pattern %j', (content, anchor, pattern) => {
    expect(parsePathSpecifier(content)).toEqual({ anchor, pattern });
  });

  test('rejects a negated pattern and says to use another list', () => {
    expect(() => parsePathSpecifier('!./src/**')).toThrow(
      'Path pattern "!./src/**" is negated: permission rules have no "!" patterns; put "./src/**" in another list',
    );
  });
});

const P = '/nonexistent-ts/proj';

describe('matchPathRule', () => {
  const table: [content: string, path: string, matches: boolean][] = [
    // cwd-relative, with * within a segment and ** across segments
    ['./src/**', `${P}/src/a/b/c.ts`, true],
    ['./src/**', `${P}/src`, true],
    ['./src/**', `${P}/srcx/a.ts`, false],
    ['./src/*.ts', `${P}/src/a.ts`, true],
    ['./src/*.ts', `${P}/src/lib/a.ts`, false],
    ['./src/**/*.ts', `${P}/src/lib/a.ts`, true],
    ['./src/**/*.ts', `${P}/src/a.ts`, true],
    ['src/**', `${P}/src/x`, true],
    ['./.env', `${P}/.env`, true],
    ['./.env', `${P}/sub/.env`, false],
    // a pattern that names a directory covers everything in it, as in a .gitignore
    ['./secrets', `${P}/secrets/key.pem`, true],
    ['./secrets/', `${P}/secrets/deep/key.pem`, true],
    ['./*.ts', `${P}/dir.ts/inner.txt`, true],
    // a bare name matches at any depth of every working directory, and only there
    ['.env', `${P}/.env`, true],
    ['.env', `${P}/a/b/.env`, true],
    ['.env', '/nonexistent-ts/shared/x/.env', true],
    ['.env', '/elsewhere/.env', false],
    ['*.pem', `${P}/keys/server.pem`, true],
    ['*.pem', `${P}/keys/server.pem.bak`, false],
    // the prefix trap: proj-evil is not inside proj
    ['//nonexistent-ts/proj/**', '/nonexistent-ts/proj-evil/x', false],
    ['//nonexistent-ts/proj', '/nonexistent-ts/proj-evil', false],
    ['./**', '/nonexistent-ts/proj-evil/a', false],
    // absolute, home and settings-relative anchors
    ['//etc/**', '/etc/passwd', true],
    ['//etc/passwd', '/etc/passwd', true],
    ['//etc/**', '/etc2/passwd', false],
    ['//', '/anything/at/all', true],
    ['~/.ssh/**', '/nonexistent-ts/home/.ssh/id_rsa', true],
    ['~/.ssh/**', `${P}/.ssh/id_rsa`, false],
    ['/config/**', '/nonexistent-ts/settings-root/config/a.json', true],
    ['/config/**', `${P}/config/a.json`, false],
    // ".." inside a pattern is collapsed before matching
    ['./src/../docs/**', `${P}/docs/a.md`, true],
    ['../shared/**', '/nonexistent-ts/shared/a', true],
    // character classes and braces
    ['./src/[ab].ts', `${P}/src/a.ts`, true],
    ['./src/*.{ts,js}', `${P}/src/a.js`, true],
    // case matters unless the bases say otherwise
    ['./Secret.txt', `${P}/secret.txt`, false],
  ];
  test.each(table)('%j covers %j: %s', (content, path, matches) => {
    expect(matchPathRule(content, path, bases)).toBe(matches);
  });

  test('judges a path with "..", "." or "//" in it as the path it resolves to', () => {
    expect(matchPathRule('./.env', `${P}/src/../.env`, bases)).toBe(true);
    expect(matchPathRule('./src/*.ts', `${P}/src//./a.ts`, bases)).toBe(true);
    expect(matchPathRule('./src/**', `${P}/src/../docs/a.md`, bases)).toBe(false);
    expect(matchPathRule('./src/**', `${P}/src/`, bases)).toBe(true);
  });

  test.each([
    ['./Secret.txt', '/nonexistent-ts/proj/secret.txt'],
    ['./SRC/**', '/nonexistent-ts/proj/src/a.ts'],
    ['*.PEM', '/nonexistent-ts/proj/k/a.pem'],
    ['//NONEXISTENT-TS/proj/**', '/nonexistent-ts/Proj/x'],
  ])('on a case-insensitive file system %j covers %j', (content, path) => {
    expect(matchPathRule(content, path, { ...bases, caseInsensitive: true })).toBe(true);
    expect(matchPathRule(content, path, bases)).toBe(false);
  });
});

describe('compilePathRule', () => {
  const contents = [
    './src/**',
    './src/*.ts',
    './src/**/*.ts',
    './.env',
    './secrets',
    '.env',
    '*.pem',
    '//etc/**',
    '//',
    '~/.ssh/**',
    '/config/**',
    './**',
    './*.ts',
    './src/[ab].ts',
    'secrets/',
    './a/*/b',
  ];
  const paths = [
    `${P}/src/a/b/c.ts`,
    `${P}/src`,
    `${P}/src/a.ts`,
    `${P}/.env`,
    `${P}/a/b/.env`,
    `${P}/secrets/deep/key.pem`,
    '/etc/passwd',
    '/',
    '/nonexistent-ts/home/.ssh/id_rsa',
    '/nonexistent-ts/settings-root/config/a.json',
    `${P}/dir.ts/inner.txt`,
    `${P}/a/x/b/c`,
    `${P}/secrets`,
    `${P}`,
  ];

  test('gives the verdict of matchPathRule on every path', () => {
    for (const content of contents) {
      const rule = compilePathRule(content, bases);
      for (const path of paths)
        expect([content, path, rule.covers(path)]).toEqual([content, path, matchPathRule(content, path, bases)]);
    }
  });

  test('covers a path exactly when it covers the path as a whole or covers its folder', () => {
    for (const caseInsensitive of [false, true]) {
      for (const content of contents) {
        const rule = compilePathRule(content, { ...bases, caseInsensitive });
        for (const path of paths.filter((p) => p !== '/')) {
          expect([content, path, rule.covers(path)]).toEqual([
            content,
            path,
            rule.coversWhole(path) || rule.covers(dirname(path)),
          ]);
        }
      }
    }
  });

  test("resolves the rule's folder through symlinks on each compile, so a link made later is followed", async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-path-rule-')));
    try {
      const linkBases: PathRuleBases = { cwd: join(dir, 'proj'), workingDirectories: [join(dir, 'proj')] };
      await mkdir(join(dir, 'proj'));
      await mkdir(join(dir, 'elsewhere'));
      const before = compilePathRule('./secrets/**', linkBases);
      expect(matchPathRule('./secrets/**', join(dir, 'elsewhere/key'), linkBases)).toBe(false);
      await symlink(join(dir, 'elsewhere'), join(dir, 'proj/secrets'));
      expect(matchPathRule('./secrets/**', join(dir, 'elsewhere/key'), linkBases)).toBe(true);
      expect(compilePathRule('./secrets/**', linkBases).covers(join(dir, 'elsewhere/key'))).toBe(true);
      // A compiled rule keeps what it resolved: build one per check.
      expect(before.covers(join(dir, 'elsewhere/key'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
