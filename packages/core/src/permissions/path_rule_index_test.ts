import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testContext } from './_test_context.ts';
import { createPermissionContext } from './permission_context.ts';
import { findPathRule, type GuardedPath, pathRuleCompiler, resolveResources, ruleCoversPath } from './path_guard.ts';
import { pathRuleCandidates } from './path_rule_index.ts';
import { parseRule } from './rule_parser.ts';
import type { PermissionRule } from './types.ts';

let root: string;
let proj: string;
let home: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-index-')));
  proj = join(root, 'proj');
  home = join(root, 'home');
  await mkdir(join(proj, 'store', 'keys'), { recursive: true });
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(proj, 'a.txt'), 'a');
  await writeFile(join(proj, '.env'), 'K=V');
  await writeFile(join(proj, 'store', 'keys', 'k.pem'), 'k');
  await writeFile(join(home, '.ssh', 'id_rsa'), 'k');
  await symlink(join(proj, 'store'), join(proj, 'private'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A context with deny rules from a settings file, as a session has them (frozen lists). */
function contextWith(deny: string[], allow: string[] = []) {
  const { context, errors } = createPermissionContext({ deny, allow }, proj, { source: 'options', homeDir: home });
  expect(errors).toEqual([]);
  return testContext({ cwd: proj, permissions: context });
}

/** Rules about other folders and other tools: none of them can cover a path of the project's `private` folder. */
function unrelated(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    i % 4 === 0
      ? `Read(./private/area${i}/**)`
      : i % 4 === 1
        ? `Read(//srv/data${i}/**)`
        : i % 4 === 2
          ? `Edit(./private/keys/**)`
          : `Bash(rm -rf /tmp/x${i})`,
  );
}

function read(path: string, ctx: ReturnType<typeof contextWith>): GuardedPath[] {
  return resolveResources([{ path, access: 'read' }], ctx);
}

describe('findPathRule with an index of rules by tool and root', () => {
  test('matches the same number of rules whatever the number of rules about other folders and tools', () => {
    const counts = [0, 10, 1000].map((extra) => {
      const ctx = contextWith([...unrelated(extra), 'Read(./private/keys/**)']);
      const steps = { count: 0 };
      const found = findPathRule(ctx.permissions.rules.deny, read('private/keys/k.pem', ctx), {
        toolName: 'Read',
        ctx,
        steps,
      });
      expect(found?.rule.raw).toBe('Read(./private/keys/**)');
      return steps.count;
    });
    expect(counts).toEqual([1, 1, 1]);
  });

  test('matches no rule at all for a path below none of the rules’ roots', () => {
    const ctx = contextWith(unrelated(1000));
    const steps = { count: 0 };
    expect(
      findPathRule(ctx.permissions.rules.deny, read('a.txt', ctx), { toolName: 'Read', ctx, steps }),
    ).toBeUndefined();
    expect(steps.count).toBe(0);
  });

  test('finds a rule reached through a symlinked root, by the path as written and by the real path', () => {
    const ctx = contextWith([...unrelated(100), 'Read(./private/**)']);
    for (const path of ['private/keys/k.pem', 'store/keys/k.pem', join(proj, 'store')]) {
      expect(findPathRule(ctx.permissions.rules.deny, read(path, ctx), { toolName: 'Read', ctx })?.rule.raw).toBe(
        'Read(./private/**)',
      );
    }
  });

  test('agrees with matching every rule, for every anchor, tool and path form', () => {
    const deny = [
      ...unrelated(40),
      'Read(.env)',
      'Read(*.pem)',
      'Read(//**)',
      `Read(/${'store'}/keys/*.pem)`,
      'Read(~/.ssh/**)',
      'Grep(./store/**)',
      'Edit(./a.txt)',
      'Write(./private/**)',
      'Read(./private)',
      'Read(**/k.pem)',
    ];
    const paths = [
      'a.txt',
      '.env',
      'private/keys/k.pem',
      'store/keys/k.pem',
      'store',
      'private',
      '~/.ssh/id_rsa',
      '/srv/data1/x',
      '/etc/passwd',
      'missing/dir/file',
    ];
    for (const variant of deny.map((_, i) => deny.slice(i))) {
      const ctx = contextWith(variant);
      const rules = ctx.permissions.rules.deny;
      for (const tool of ['Read', 'Grep', 'Glob', 'Edit', 'Write', 'Bash']) {
        for (const access of ['read', 'write'] as const) {
          for (const path of paths) {
            const guarded = resolveResources([{ path, access }], ctx);
            const everyRule = rules.find((rule) => ruleCoversPath(rule, guarded[0]!, { toolName: tool, ctx }));
            expect(findPathRule(rules, guarded, { toolName: tool, ctx })?.rule, `${tool} ${access} ${path}`).toBe(
              everyRule,
            );
          }
        }
      }
    }
  });

  test('finds a rule added to a list it indexed before (a list not frozen)', () => {
    const ctx = contextWith([]);
    const rules: PermissionRule[] = [parseRule('Read(//srv/**)', { behavior: 'deny', source: 'options' })];
    const paths = read('.env', ctx);
    expect(findPathRule(rules, paths, { toolName: 'Read', ctx })).toBeUndefined();
    rules.push(parseRule('Read(./.env)', { behavior: 'deny', source: 'options' }));
    expect(findPathRule(rules, paths, { toolName: 'Read', ctx })?.rule.raw).toBe('Read(./.env)');
    (rules[0] as { ruleContent: string }).ruleContent = './**';
    expect(findPathRule(rules, paths, { toolName: 'Read', ctx })?.rule.raw).toBe('Read(//srv/**)');
  });

  test('follows a symlink made on a rule root’s way after the rules were indexed', async () => {
    const dir = join(proj, 'later');
    const ctx = contextWith([...unrelated(20), 'Read(./later/**)']);
    const target = join(home, '.ssh', 'id_rsa');
    expect(findPathRule(ctx.permissions.rules.deny, read(target, ctx), { toolName: 'Read', ctx })).toBeUndefined();
    await symlink(join(home, '.ssh'), dir);
    try {
      await new Promise((resolve) => setImmediate(resolve)); // the root cache looks again on the next turn
      expect(findPathRule(ctx.permissions.rules.deny, read(target, ctx), { toolName: 'Read', ctx })?.rule.raw).toBe(
        'Read(./later/**)',
      );
    } finally {
      await rm(dir);
    }
  });

  test('keeps the first rule in list order when several cover the path', () => {
    const ctx = contextWith(['Read(**/k.pem)', 'Read(./private/**)', 'Read(//**)']);
    expect(
      findPathRule(ctx.permissions.rules.deny, read('private/keys/k.pem', ctx), { toolName: 'Read', ctx })?.rule.raw,
    ).toBe('Read(**/k.pem)');
  });

  test('allow rules cover only through every real form (realOnly), as before', () => {
    const ctx = contextWith([], ['Read(./private/**)']);
    // The rule's root is a link: its real root (./store) covers the real path of either form.
    expect(
      findPathRule(ctx.permissions.rules.allow, read('private/keys/k.pem', ctx), {
        toolName: 'Read',
        ctx,
        realOnly: true,
      }),
    ).toBeDefined();
    expect(
      findPathRule(ctx.permissions.rules.allow, read('store/keys/k.pem', ctx), {
        toolName: 'Read',
        ctx,
        realOnly: true,
      }),
    ).toBeDefined();
    expect(
      findPathRule(ctx.permissions.rules.allow, read('a.txt', ctx), { toolName: 'Read', ctx, realOnly: true }),
    ).toBeUndefined();
  });
});

describe('pathRuleCandidates', () => {
  test('gives the rules rooted at the path or one of its folders, for the access’s family and the tool', () => {
    const ctx = contextWith([]);
    const rules = ['Read(//srv/**)', 'Read(./a.txt)', 'Edit(./a.txt)', 'Grep(./**)', 'Read(~/.ssh/**)'].map((r) =>
      parseRule(r, { behavior: 'deny', source: 'options' }),
    );
    const compile = pathRuleCompiler(ctx);
    const bases = { compile, key: 'k', caseInsensitive: false, workingDirectories: () => [proj] };
    expect(pathRuleCandidates(rules, [join(proj, 'a.txt')], { toolName: 'Read', access: 'read', bases })).toEqual([1]);
    expect(pathRuleCandidates(rules, [join(proj, 'a.txt')], { toolName: 'Grep', access: 'read', bases })).toEqual([
      1, 3,
    ]);
    expect(pathRuleCandidates(rules, [join(proj, 'a.txt')], { toolName: 'Write', access: 'write', bases })).toEqual([
      2,
    ]);
    expect(pathRuleCandidates(rules, ['/srv/x/y'], { toolName: 'Read', access: 'read', bases })).toEqual([0]);
    expect(
      pathRuleCandidates(rules, [join(home, '.ssh', 'id_rsa')], { toolName: 'Read', access: 'read', bases }),
    ).toEqual([4]);
    expect(pathRuleCandidates(rules, ['/etc/passwd'], { toolName: 'Read', access: 'read', bases })).toEqual([]);
  });
});
