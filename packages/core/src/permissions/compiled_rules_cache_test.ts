import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseRule } from './rule_parser.ts';
import { compileSessionPathRule } from './compiled_rules_cache.ts';
import { clearRootCache } from './real_path_cache.ts';

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-rootcache-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('compileSessionPathRule', () => {
  test('a rule is compiled once across checks, and again when its root changes or the bases do', async () => {
    clearRootCache();
    const proj = join(base, 'proj4');
    const target = join(base, 'target4');
    for (const d of [proj, target]) await mkdir(d, { recursive: true });
    const rule = parseRule('Read(./vault/**)', { behavior: 'deny', source: 'options' });
    const bases = { cwd: proj, homeDir: base, workingDirectories: [proj] };
    const first = compileSessionPathRule(rule, bases);
    await nextTurn();
    expect(compileSessionPathRule(rule, bases)).toBe(first);
    expect(first.covers(join(target, 'k'))).toBe(false);
    await symlink(target, join(proj, 'vault'));
    await nextTurn();
    const relinked = compileSessionPathRule(rule, bases);
    expect(relinked).not.toBe(first);
    expect(relinked.covers(join(target, 'k'))).toBe(true);
    // Another cwd, or the same text in a new rule object (settings read again): compiled afresh.
    expect(compileSessionPathRule(rule, { ...bases, cwd: target })).not.toBe(relinked);
    expect(
      compileSessionPathRule(parseRule('Read(./vault/**)', { behavior: 'deny', source: 'options' }), bases),
    ).not.toBe(relinked);
  });

  test('a bare-name rule follows the working directories it is checked against', () => {
    const rule = parseRule('Read(.env)', { behavior: 'deny', source: 'options' });
    const a = compileSessionPathRule(rule, { cwd: '/a', workingDirectories: ['/a'] });
    expect(a.covers('/b/.env')).toBe(false);
    expect(compileSessionPathRule(rule, { cwd: '/a', workingDirectories: ['/a', '/b'] }).covers('/b/.env')).toBe(true);
  });
});
