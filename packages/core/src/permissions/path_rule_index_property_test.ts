import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { testContext } from './_test_context.ts';
import { ruleUnderFolder } from './folder_access.ts';
import { findPathRule, pathRuleApplies, resolveResources, ruleCoversPath } from './path_guard.ts';
import { folderRuleCandidates, pathRulesFor } from './path_rule_index.ts';
import { pathRuleChecker } from './path_guard.ts';
import { createPermissionContext, mergePermissionContexts } from './permission_context.ts';
import type { PermissionRule } from './types.ts';

// Attack on the rule index: for generated rules (every root form: `//`, `~`, `./`, `../`,
// settings-relative `/`, bare names, `**` roots, case variants, links on the way) and generated
// paths, the index must find the same first rule as the scan over every rule it replaced.
let root: string;
let proj: string;
let home: string;
let settingsRoot: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-index-prop-')));
  proj = join(root, 'Proj');
  home = join(root, 'home');
  settingsRoot = join(root, 'team');
  await mkdir(join(proj, 'src', 'Deep'), { recursive: true });
  await mkdir(join(root, 'outside', 'keys'), { recursive: true });
  await mkdir(join(home, '.ssh'), { recursive: true });
  await mkdir(join(settingsRoot, 'conf'), { recursive: true });
  await writeFile(join(proj, 'src', 'Deep', '.env'), 'x');
  await writeFile(join(root, 'outside', 'keys', 'id'), 'x');
  await writeFile(join(home, '.ssh', 'id_rsa'), 'x');
  await symlink(join(root, 'outside'), join(proj, 'link'));
  await symlink(join(proj, 'link'), join(proj, 'link2')); // a chain
  await symlink(join(home, '.ssh'), join(settingsRoot, 'ssh'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = ['Read', 'Edit', 'Write', 'Glob', 'Grep', 'NotebookEdit', 'MultiEdit'];
const CALLERS = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'NotebookEdit', 'Custom'];
function specs(): string[] {
  return [
    '.env',
    '**/.env',
    '**',
    '*.env',
    './src/**',
    './SRC/**',
    './src/deep/.env',
    './link/**',
    './link2/keys/**',
    './link/keys/id',
    '../outside/**',
    '/conf/**',
    '/ssh/**',
    '/**',
    `/${proj}/src/**`,
    `/${proj.toUpperCase()}/src/**`,
    `/${root}/outside/**`,
    `/${root}/**/id`,
    `/${root}/*/keys/**`,
    '//**',
    '~/.ssh/**',
    '~/.SSH/id_rsa',
    '~/**',
    `/${home}/.ssh`,
    'src/**',
    'Deep/.env',
    './src/*/.env',
    './nothing/yet/**',
  ];
}
function paths(): string[] {
  return [
    join(proj, 'src', 'Deep', '.env'),
    join(proj, 'SRC', 'deep', '.ENV'),
    join(proj, 'src'),
    join(proj, 'link', 'keys', 'id'),
    join(proj, 'link2', 'keys'),
    'link/keys/id',
    '../outside/keys/id',
    join(root, 'outside', 'keys', 'id'),
    join(home, '.ssh', 'id_rsa'),
    '~/.ssh/id_rsa',
    join(settingsRoot, 'conf', 'a.json'),
    join(settingsRoot, 'ssh', 'id_rsa'),
    proj,
    root,
    '/',
    join(proj, 'nothing', 'yet', 'new.txt'),
  ];
}

function contextFor(random: () => number, caseInsensitivePaths: boolean) {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const rule = () => `${pick(TOOLS)}(${pick(specs())})`;
  const n = 1 + Math.floor(random() * 30);
  const layer = (count: number) => ({
    deny: Array.from({ length: count }, rule),
    ask: Array.from({ length: Math.floor(count / 2) }, rule),
  });
  const base = createPermissionContext(layer(n), proj, { homeDir: home, caseInsensitivePaths }).context;
  // A settings file elsewhere: its `/x` rules are rooted at its own folder.
  const team = createPermissionContext(layer(Math.floor(random() * 10)), proj, {
    homeDir: home,
    caseInsensitivePaths,
    root: settingsRoot,
    source: join(settingsRoot, 'settings.json'),
  }).context;
  return testContext({ cwd: proj, permissions: { ...mergePermissionContexts(base, team), caseInsensitivePaths } });
}

const first = (rules: readonly PermissionRule[], hit: (r: PermissionRule) => boolean) => rules.find(hit)?.raw;

test('the index finds the first deny/ask rule the old scan finds, for files and folders (600 generated cases)', () => {
  const random = rng(20261203);
  const misses: string[] = [];
  for (let round = 0; round < 600; round++) {
    const nocase = random() < 0.4;
    const ctx = contextFor(random, nocase);
    const toolName = CALLERS[Math.floor(random() * CALLERS.length)]!;
    const access = random() < 0.5 ? 'read' : 'write';
    const kind = random() < 0.3 ? 'folder' : 'file';
    const declared = paths()[Math.floor(random() * paths().length)]!;
    const [path] = resolveResources([{ path: declared, access, ...(kind === 'folder' ? { kind } : {}) }], ctx);
    for (const list of ['deny', 'ask'] as const) {
      const rules = ctx.permissions.rules[list];
      const scanned = first(rules, (r) => ruleCoversPath(r, path!, { toolName, ctx }));
      const indexed = findPathRule(rules, [path!], { toolName, ctx })?.rule.raw;
      if (scanned !== indexed)
        misses.push(`${list} ${toolName} ${access} ${declared} nocase=${nocase}: scan ${scanned}, index ${indexed}`);
      // pathRulesFor: every rule that applies to the tool is listed.
      const listed = new Set(pathRulesFor(rules, { toolName, access }));
      rules.forEach((r, i) => {
        if (r.ruleContent !== undefined && pathRuleApplies(r, { toolName, access }) && !listed.has(i))
          misses.push(`pathRulesFor ${toolName} ${access} missed ${r.raw}`);
      });
      if (kind === 'folder') {
        const { bases } = pathRuleChecker(ctx);
        const candidates = new Set(
          folderRuleCandidates(rules, [path!.lexical, ...path!.real], { toolName, access, bases }),
        );
        rules.forEach((r, i) => {
          const verdict = ruleUnderFolder(r, path!, { toolName, ctx });
          if (verdict !== false && !candidates.has(i))
            misses.push(
              `folder ${toolName} ${access} ${declared} nocase=${nocase}: ${r.raw} (${verdict}) not a candidate`,
            );
        });
      }
    }
  }
  expect([...new Set(misses)]).toEqual([]);
});
