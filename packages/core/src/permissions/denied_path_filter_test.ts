import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deniedPathFilter } from './denied_path_filter.ts';
import { findPathRule, resolveResources } from './path_guard.ts';
import { createPermissionContext } from './permission_context.ts';

const RULES = [
  'Read(.env)',
  'Read(.env*)',
  'Read(*.pem)',
  'Read(**/*.pem)',
  'Read(./secret/**)',
  'Read(./secret)',
  'Read(./config/prod.json)',
  'Read(**/id_?sa)',
  'Read(./a/*/b.txt)',
  'Read(**/*.{key,pem})',
  'Read(./**/.git*)',
  'Read(//etc/**)',
  'Grep(./logs/**)',
  'Glob(./logs/**)',
  'Read(*.tar.gz)',
  'Read(./config/**)',
  'Read(./**)',
  'Read(/config/*.json)',
  'Read(~/x/**)',
  'Read(secret)',
  'Read(./Config/PROD.json)',
  'Read(./ext/**)',
  'Read(./sub/[ab]/*)',
  'Read(./linked/deep)',
  'Read(./real-dir/**)',
  'Read(//)',
  'Read(./sub/**/**)',
  'Edit(./.env)',
  'Read(./real-dir/*)',
  'Read(real-dir)',
];

/** Paths below cwd (and a few elsewhere): files, folders, names that only almost match. */
const PATHS = [
  '.env',
  '.env.local',
  'sub/.env',
  'sub/x.env',
  'a.pem',
  'deep/er/b.pem',
  'b.pem.txt',
  'secret',
  'secret/k',
  'secret/d/k',
  'secrets/k',
  'config/prod.json',
  'config/prod.json.bak',
  'Config/PROD.json',
  'config-link/prod.json',
  'config-link/dev.json',
  'id_rsa',
  'x/id_dsa',
  'id_rsa.pub',
  'a/z/b.txt',
  'a/z/y/b.txt',
  'k.key',
  'q/.gitignore',
  'logs/app.log',
  'x.tar.gz',
  'xtar.gz',
  '..odd/.env',
  'pem',
  '.pem',
  'config',
  'logs',
  'config/dev.json',
  'deep/secret/x',
  'ext/file.txt',
  'ext/inner/.env',
  'linked/deep/x',
  'linked/other',
  'sub/a/x',
  'sub/c/x',
  'sub',
  'missing/dir/.env',
  'real-dir/k',
  'sub/../.env',
  './secret/k',
];

let base: string;
let cwd: string;
let home: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-denied-')));
  cwd = join(base, 'proj');
  home = join(base, 'home');
  outside = join(base, 'outside');
  for (const dir of [
    'config',
    'secret/d',
    'sub/a',
    'sub/c',
    'logs',
    'deep/er',
    'a/z/y',
    'q',
    '..odd',
    'x',
    'real-dir/deep',
  ])
    await mkdir(join(cwd, dir), { recursive: true });
  await mkdir(join(outside, 'inner'), { recursive: true });
  await mkdir(join(home, 'x'), { recursive: true });
  for (const file of ['.env', 'config/prod.json', 'config/dev.json', 'secret/k', 'logs/app.log'])
    await writeFile(join(cwd, file), 'x');
  await writeFile(join(outside, 'file.txt'), 'x');
  // A folder reached through links, inside the project and out of it.
  await symlink(join(cwd, 'config'), join(cwd, 'config-link'));
  await symlink(outside, join(cwd, 'ext'));
  await symlink(join(cwd, 'real-dir'), join(cwd, 'linked'));
  // The home's folder `x` reached from the project.
  await symlink(join(home, 'x'), join(cwd, 'home-x'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The path guard's verdict for a read of `path` by `toolName`: the rule the filter must agree with. */
function guardVerdict(toolName: string, path: string, ctx: ReturnType<typeof contextFor>): string | undefined {
  const guarded = resolveResources([{ path, access: 'read' }], ctx);
  return findPathRule(ctx.permissions.rules.deny, guarded, { toolName, ctx })?.rule.raw;
}

function contextFor(deny: string[], caseInsensitivePaths: boolean) {
  const { context, errors } = createPermissionContext({ deny }, cwd, {
    source: 'options',
    root: join(base, 'settings-root'),
    homeDir: home,
    caseInsensitivePaths,
  });
  expect(errors).toEqual([]);
  return { cwd, permissions: context };
}

describe('deniedPathFilter', () => {
  test.each([false, true])(
    "gives the path guard's verdict for every rule and path (case-insensitive: %s)",
    (caseInsensitive) => {
      const paths = [
        ...PATHS.map((p) => join(cwd, p)),
        '/etc/passwd',
        '/etc2/x',
        join(home, 'x/y'),
        join(cwd, 'home-x/y'),
        `${cwd}/sub/../.env`,
      ];
      for (const tool of ['Glob', 'Grep', 'Read']) {
        for (const raw of RULES) {
          const ctx = contextFor([raw], caseInsensitive);
          const denied = deniedPathFilter(tool, ctx);
          for (const path of paths) {
            expect([tool, raw, path, denied?.(path)?.raw]).toEqual([tool, raw, path, guardVerdict(tool, path, ctx)]);
          }
        }
      }
    },
  );

  test.each([false, true])(
    "gives the path guard's verdict with every rule at once, looked up by root past 16 rules (case-insensitive: %s)",
    (caseInsensitive) => {
      const paths = [
        ...PATHS.map((p) => join(cwd, p)),
        '/etc/passwd',
        join(home, 'x/y'),
        join(cwd, 'home-x/y'),
        join(cwd, 'linked/deep'),
      ];
      // Unrelated rules first and between (other folders), then every rule: forwards and backwards.
      const padding = Array.from({ length: 40 }, (_, i) =>
        i % 2 ? `Read(//srv/d${i}/**)` : `Read(./elsewhere${i}/*)`,
      );
      for (const order of [RULES, [...RULES].reverse()]) {
        const ctx = contextFor([...padding.slice(0, 20), ...order, ...padding.slice(20)], caseInsensitive);
        for (const tool of ['Glob', 'Grep']) {
          const denied = deniedPathFilter(tool, ctx)!;
          for (const path of paths)
            expect([tool, path, denied(path)?.raw]).toEqual([tool, path, guardVerdict(tool, path, ctx)]);
        }
      }
    },
  );

  test('names the first rule in list order that covers a path, as the guard does, also when a later rule covers its folder', () => {
    const ctx = contextFor(
      ['Read(./secret/k)', 'Read(./config/**)', 'Read(**/*.json)', 'Read(./secret/**)', 'Read(.env)'],
      false,
    );
    const denied = deniedPathFilter('Grep', ctx)!;
    // Folders first, so that their verdicts are cached before the files are judged.
    for (const path of [
      'secret',
      'config',
      'secret/k',
      'config/prod.json',
      'config-link/prod.json',
      'x/a.json',
      '.env',
      'notes.txt',
    ]) {
      const abs = join(cwd, path);
      expect([path, denied(abs)?.raw]).toEqual([path, guardVerdict('Grep', abs, ctx)]);
    }
    expect(denied(join(cwd, 'secret/k'))?.raw).toBe('Read(./secret/k)');
    expect(denied(join(cwd, 'config-link/prod.json'))?.raw).toBe('Read(./config/**)');
  });

  test("covers a file found below a folder reached through a symlink by a rule on the link's target", () => {
    const denied = deniedPathFilter('Glob', contextFor(['Read(./config/prod.json)', 'Read(./real-dir/**)'], false))!;
    expect(denied(join(cwd, 'config-link/prod.json'))?.raw).toBe('Read(./config/prod.json)');
    expect(denied(join(cwd, 'config-link/dev.json'))).toBeUndefined();
    expect(denied(join(cwd, 'linked/deep/x'))?.raw).toBe('Read(./real-dir/**)');
  });

  test('applies Read rules to Glob and Grep, a rule naming one search tool to that tool only, and no Edit rule', () => {
    const ctx = contextFor(['Grep(./logs/**)', 'Edit(./.env)'], false);
    expect(deniedPathFilter('Grep', ctx)?.(join(cwd, 'logs/app.log'))?.raw).toBe('Grep(./logs/**)');
    expect(deniedPathFilter('Glob', ctx)).toBeUndefined();
    expect(deniedPathFilter('Glob', contextFor(['Read(./logs/**)'], false))?.(join(cwd, 'logs/app.log'))?.raw).toBe(
      'Read(./logs/**)',
    );
  });

  test('is undefined when no deny rule applies, so a search need not check its files', () => {
    expect(deniedPathFilter('Glob', contextFor([], false))).toBeUndefined();
    expect(deniedPathFilter('Glob', contextFor(['Read', 'Edit(./x)', 'Bash(cat:*)'], false))).toBeUndefined();
  });

  test('leaves out what an ask rule covers too: a search cannot stop to ask about each file', () => {
    const { context } = createPermissionContext({ ask: ['Read(./secret/**)'], deny: ['Read(./logs/**)'] }, cwd);
    const filter = deniedPathFilter('Grep', { cwd, permissions: context })!;
    expect(filter).toBeDefined();
    expect(filter(join(cwd, 'secret/k'))?.raw).toBe('Read(./secret/**)');
    expect(filter(join(cwd, 'logs/app.log'))?.raw).toBe('Read(./logs/**)');
    expect(filter(join(cwd, 'config/dev.json'))).toBeUndefined();
  });

  test('takes a relative or unnormalized path from cwd', () => {
    const denied = deniedPathFilter('Glob', contextFor(['Read(./secret/**)'], false))!;
    expect(denied('secret/k')?.raw).toBe('Read(./secret/**)');
    expect(denied(`${cwd}/x/../secret//k`)?.raw).toBe('Read(./secret/**)');
    expect(denied(`${cwd}/secret/../x/k`)).toBeUndefined();
  });

  test('matches nothing with a malformed rule but still applies the others', () => {
    const { context } = createPermissionContext({}, cwd);
    const bad = { toolName: 'Read', ruleContent: '!./x', behavior: 'deny' as const, source: 'test', raw: 'Read(!./x)' };
    const good = {
      toolName: 'Read',
      ruleContent: './secret/**',
      behavior: 'deny' as const,
      source: 'test',
      raw: 'Read(./secret/**)',
    };
    const denied = deniedPathFilter('Glob', {
      cwd,
      permissions: { ...context, rules: { ...context.rules, deny: [bad, good] } },
    })!;
    expect(denied(join(cwd, 'x'))).toBeUndefined();
    expect(denied(join(cwd, 'secret/k'))?.raw).toBe('Read(./secret/**)');
  });

  test('leaves out a path below a folder whose symlinks loop, which Read would refuse too', async () => {
    const loopDir = await mkdtemp(join(base, 'loop-'));
    await symlink(join(loopDir, 'a'), join(loopDir, 'b'));
    await symlink(join(loopDir, 'b'), join(loopDir, 'a'));
    const ctx = contextFor(['Read(./nothing-here)', 'Read(./secret/**)'], false);
    const denied = deniedPathFilter('Glob', ctx)!;
    expect(denied(join(loopDir, 'a/file'))?.raw).toBe('Read(./nothing-here)');
    expect(() => resolveResources([{ path: join(loopDir, 'a/file'), access: 'read' }], ctx)).toThrow('symlinks loop');
    expect(denied(join(cwd, 'notes.txt'))).toBeUndefined();
  });

  test('follows a symlink made after an earlier filter was built', async () => {
    const ctx = contextFor(['Read(./late/**)'], false);
    const target = join(outside, 'late-target');
    await mkdir(target);
    expect(deniedPathFilter('Glob', ctx)!(join(target, 'k'))).toBeUndefined();
    await symlink(target, join(cwd, 'late'));
    expect(deniedPathFilter('Glob', ctx)!(join(target, 'k'))?.raw).toBe('Read(./late/**)');
  });
});
