import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createPermissionContext, findPathRule, resolveResources } from '@toolshed/core/internal';
import { deniedPathTest } from './_denied_paths.ts';
import { makeBench, type TestBench } from './_test_session.ts';
import { SEARCH_ENGINES } from './_test_engines.ts';

const DENY = ['Read(.env)', 'Read(./secret/**)', 'Read(**/*.pem)', 'Read(./config/prod.json)'];

describe.each(SEARCH_ENGINES)('Glob and Grep with deny rules, %s engine', (engine) => {
  let bench: TestBench;
  beforeEach(async () => {
    bench = await makeBench({ family: { searchEngine: engine }, permissions: { mode: 'default', deny: DENY } });
    const put = async (name: string, content: string) => {
      await mkdir(path.dirname(path.join(bench.dir, name)), { recursive: true });
      await writeFile(path.join(bench.dir, name), content);
    };
    await put('.env', 'TOKEN=password1\n');
    await put('sub/.env', 'TOKEN=password2\n');
    await put('secret/deep/key.txt', 'password3\n');
    await put('certs/server.pem', 'password4\n');
    await put('config/prod.json', '{"password": 5}\n');
    await put('config/dev.json', '{"password": 6}\n');
    await put('..odd/.env', 'password7\n');
    await put('notes.txt', 'no password here\n');
    await symlink(path.join(bench.dir, 'config'), path.join(bench.dir, 'config-link'));
  });
  afterEach(async () => {
    await bench.cleanup();
  });

  test('Grep leaves out what Read would refuse, in every output mode', async () => {
    const content = await bench.call('Grep', { pattern: 'password', output_mode: 'content' });
    expect(content.text).toBe('config/dev.json:1:{"password": 6}\nnotes.txt:1:no password here');
    const files = await bench.call('Grep', { pattern: 'password' });
    expect(files.text.split('\n').slice(1).sort()).toEqual(['config/dev.json', 'notes.txt']);
    const count = await bench.call('Grep', { pattern: 'password', output_mode: 'count' });
    expect(count.text).toContain('across 2 files');
  });

  test('Glob leaves out what Read would refuse, also below a folder searched through a symlink', async () => {
    const all = await bench.call('Glob', { pattern: '**/*' });
    expect(all.text.split('\n').sort()).toEqual(['config/dev.json', 'notes.txt']);
    // The permission layer allows the linked folder; the rule names a file in its target.
    const viaLink = await bench.call('Grep', { pattern: 'password', path: 'config-link' });
    expect(viaLink.text).toBe('Found 1 file\nconfig-link/dev.json');
  });
});

describe('Glob patterns that leave the searched folder', () => {
  test('an absolute or upward pattern is checked against the rules for the folder it reads', async () => {
    const bench = await makeBench({ permissions: { mode: 'default', deny: ['Read(//etc/**)'] } });
    try {
      for (const pattern of ['/etc/host*', '../../../../../../etc/host*', 'sub/../../../../../../../etc/host*']) {
        const { text, isError } = await bench.call('Glob', { pattern });
        expect(isError).toBe(true);
        expect(text).toContain('denied by rule "Read(//etc/**)"');
      }
    } finally {
      await bench.cleanup();
    }
  });

  test('without a rule, an absolute pattern outside the working directory asks like a Read there', async () => {
    const bench = await makeBench({ permissions: { mode: 'default' } });
    try {
      const { text, isError } = await bench.call('Glob', { pattern: '/etc/host*' });
      expect(isError).toBe(true);
      expect(text).toContain('outside the working directories');
    } finally {
      await bench.cleanup();
    }
  });
});

describe('deniedPathTest', () => {
  test("agrees with the permission layer's own verdict on every path, rule by rule, also for a folder searched through a symlink", async () => {
    const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-deny-')));
    const cwd = path.join(base, 'proj');
    await mkdir(cwd);
    // The same project searched as `base/link`: found paths are below the link, the rules name the target.
    await symlink(cwd, path.join(base, 'link'));
    try {
      const rules = [
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
        'Read(*.tar.gz)',
        'Read(./config/**)',
        'Read(./**)',
        'Read(/config/*.json)',
        'Read(~/x/**)',
        'Read(secret)',
      ];
      const paths = [
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
      ];
      let covered = 0;
      for (const raw of rules) {
        const { context, errors } = createPermissionContext({ deny: [raw] }, cwd);
        expect(errors).toEqual([]);
        const ctx = { cwd, permissions: context };
        for (const root of [cwd, path.join(base, 'link')]) {
          const test = deniedPathTest('Grep', root, ctx)!;
          for (const rel of paths) {
            const guarded = resolveResources([{ path: path.join(root, rel), access: 'read' }], ctx);
            const expected = findPathRule(ctx.permissions.rules.deny, guarded, { toolName: 'Grep', ctx }) !== undefined;
            if (expected) covered++;
            expect([raw, root, rel, test(rel)]).toEqual([raw, root, rel, expected]);
          }
        }
      }
      // The table is not all one answer: some pairs are covered, most are not.
      expect(covered).toBeGreaterThan(100);
      expect(covered).toBeLessThan(900);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
