import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool } from '../tool.ts';
import { testContext } from './_test_context.ts';
import { decidePermission } from './decide_permission.ts';
import { createPermissionContext } from './permission_context.ts';
import { matchWildcardSpecifier } from './rule_matching.ts';
import type { HookPermissionDecision, PermissionDecision, PermissionMode, PermissionOptions } from './types.ts';

const SETTINGS = '/p/.toolshed/settings.json';

/** A file tool with one path: what tool-fs's tools declare. */
function fileTool(name: string, access: 'read' | 'write'): AnyTool {
  return buildTool({
    name,
    description: `${name} a file`,
    inputSchema: z.object({ file_path: z.string() }),
    isReadOnly: () => access === 'read',
    resources: ({ file_path }) => [{ path: file_path, access }],
    permissionSuggestions: ({ file_path }) => [`${name}(${file_path})`],
    async call() {
      return { data: '' };
    },
  });
}

/** A shell tool that declares what its command reads and writes (`cat x`, `echo > y`). */
const bashTool = buildTool({
  name: 'Bash',
  description: 'runs a command',
  inputSchema: z.object({
    command: z.string(),
    reads: z.array(z.string()).default([]),
    writes: z.array(z.string()).default([]),
  }),
  isReadOnly: ({ writes }) => writes.length === 0,
  preparePermissionMatcher:
    ({ command }) =>
    (content) =>
      matchWildcardSpecifier(content, command),
  resources: ({ reads, writes }) => [
    ...reads.map((path) => ({ path, access: 'read' as const })),
    ...writes.map((path) => ({ path, access: 'write' as const })),
  ],
  async call() {
    return { data: '' };
  },
});

const TOOLS: Record<string, AnyTool> = {
  Read: fileTool('Read', 'read'),
  Grep: fileTool('Grep', 'read'),
  Glob: fileTool('Glob', 'read'),
  Edit: fileTool('Edit', 'write'),
  Write: fileTool('Write', 'write'),
  NotebookEdit: fileTool('NotebookEdit', 'write'),
};

let root: string;
let proj: string;
let outside: string;
let home: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-guard-')));
  proj = join(root, 'proj');
  outside = join(root, 'outside');
  home = join(root, 'home');
  for (const dir of [
    join(proj, 'src'),
    join(proj, 'docs'),
    join(proj, 'sub'),
    join(proj, '.git', 'hooks'),
    join(proj, '.git', 'objects'),
    join(root, 'proj-evil'),
    outside,
    join(home, '.ssh'),
  ]) {
    await mkdir(dir, { recursive: true });
  }
  await writeFile(join(proj, 'src', 'a.ts'), 'a');
  await writeFile(join(proj, 'secret.txt'), 's');
  await writeFile(join(proj, '.env'), 'K=V');
  await writeFile(join(proj, 'sub', '.env'), 'K=V');
  await writeFile(join(proj, '.git', 'config'), '[core]');
  await writeFile(join(outside, 'data.txt'), 'd');
  await writeFile(join(home, '.bashrc'), '');
  await writeFile(join(home, '.ssh', 'id_rsa'), 'k');
  await symlink(join(proj, 'secret.txt'), join(proj, 'innocent.txt'));
  await symlink(join(proj, '.env'), join(proj, 'config-link'));
  await symlink(outside, join(proj, 'out'));
  await symlink(join(outside, 'data.txt'), join(proj, 'outfile'));
  await symlink(join(proj, 'loop-b'), join(proj, 'loop-a'));
  await symlink(join(proj, 'loop-a'), join(proj, 'loop-b'));
  await symlink('/dev/zero', join(proj, 'zero-link'));
  await symlink(join(proj, '.git', 'hooks'), join(proj, 'hooks-link'));
  await link(join(proj, 'secret.txt'), join(proj, 'hard-link.txt'));
  await writeFile(join(proj, 'caf\u00e9.txt'), 'c');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Row {
  name: string;
  /** A file tool's name, or a Bash call. */
  tool: keyof typeof TOOLS | 'Bash';
  path?: string;
  bash?: { command: string; reads?: string[]; writes?: string[] };
  permissions?: PermissionOptions;
  caseInsensitive?: boolean;
  hook?: HookPermissionDecision;
  expected: Partial<PermissionDecision> & { behavior: PermissionDecision['behavior'] };
  reasonContains?: string;
}

async function decide(row: Row): Promise<PermissionDecision> {
  const placement = {
    homeDir: home,
    ...(row.caseInsensitive === undefined
      ? { caseInsensitivePaths: false }
      : { caseInsensitivePaths: row.caseInsensitive }),
  };
  const { context, errors } = createPermissionContext(row.permissions ?? {}, proj, { source: SETTINGS, ...placement });
  expect(errors).toEqual([]);
  const ctx = testContext({ cwd: proj, permissions: context });
  const tool = row.tool === 'Bash' ? bashTool : TOOLS[row.tool]!;
  const input = row.tool === 'Bash' ? bashTool.inputSchema.parse(row.bash) : { file_path: row.path };
  return decidePermission(tool, input, { ctx, ...(row.hook ? { hookDecision: row.hook } : {}) });
}

function check(row: Row, decision: PermissionDecision): void {
  expect(decision).toMatchObject(row.expected);
  if (row.reasonContains) expect(decision.reason).toContain(row.reasonContains);
}

const hookAllow: HookPermissionDecision = { behavior: 'allow', hook: './approve.sh' };

describe('the path guard resolves paths before matching (hostile inputs)', () => {
  const rows: Row[] = [
    {
      name: 'a traversal to /etc/passwd asks: it is outside the working directories',
      tool: 'Read',
      path: '../../etc/passwd',
      expected: { behavior: 'ask' },
      reasonContains: 'is outside the working directories',
    },
    {
      name: 'a blanket Read allow rule does not open paths outside the working directories',
      tool: 'Read',
      path: '../../etc/passwd',
      permissions: { allow: ['Read'] },
      expected: { behavior: 'ask' },
    },
    {
      name: 'a long a/../.. chain that climbs out of the project asks',
      tool: 'Read',
      path: `src/${'a/'.repeat(40)}${'../'.repeat(41)}../outside/data.txt`,
      expected: { behavior: 'ask' },
      reasonContains: 'outside',
    },
    {
      name: 'a long a/../.. chain that stays inside is a plain read',
      tool: 'Read',
      path: `src/${'a/'.repeat(40)}${'../'.repeat(40)}a.ts`,
      expected: { behavior: 'allow' },
    },
    {
      name: 'an explicit absolute allow rule opens one outside file',
      tool: 'Read',
      path: '/etc/hostname',
      permissions: { allow: ['Read(//etc/hostname)'] },
      expected: { behavior: 'allow', rule: 'Read(//etc/hostname)', source: SETTINGS },
    },
    {
      name: 'the prefix trap: a sibling proj-evil is outside proj even with acceptEdits',
      tool: 'Write',
      path: '../proj-evil/x.ts',
      permissions: { mode: 'acceptEdits' },
      expected: { behavior: 'ask' },
      reasonContains: 'outside',
    },
    {
      name: 'the prefix trap: an allow rule for the project does not cover proj-evil',
      tool: 'Write',
      path: '../proj-evil/x.ts',
      permissions: { allow: ['Edit(./**)'] },
      expected: { behavior: 'ask' },
    },
    {
      name: 'a symlink into a denied file is denied by the rule about its target',
      tool: 'Read',
      path: 'innocent.txt',
      permissions: { deny: ['Read(./secret.txt)'] },
      expected: { behavior: 'deny', rule: 'Read(./secret.txt)' },
      reasonContains: '(really "',
    },
    {
      name: 'a shell read through a symlink into a denied file is denied',
      tool: 'Bash',
      bash: { command: 'cat innocent.txt', reads: ['innocent.txt'] },
      permissions: { allow: ['Bash'], deny: ['Read(./secret.txt)'] },
      expected: { behavior: 'deny', rule: 'Read(./secret.txt)' },
    },
    {
      name: 'a link named otherwise into a denied bare name is denied',
      tool: 'Read',
      path: 'config-link',
      permissions: { deny: ['Read(.env)'] },
      expected: { behavior: 'deny', rule: 'Read(.env)' },
    },
    {
      name: 'a read through a directory symlink out of the project asks',
      tool: 'Read',
      path: 'out/data.txt',
      expected: { behavior: 'ask' },
      reasonContains: `(really "${'/'}`,
    },
    {
      name: 'a write through a file symlink out of the project asks in acceptEdits',
      tool: 'Edit',
      path: 'outfile',
      permissions: { mode: 'acceptEdits' },
      expected: { behavior: 'ask' },
    },
    {
      name: 'an allow rule for the project does not follow a link out of it',
      tool: 'Write',
      path: 'out/x.txt',
      permissions: { allow: ['Edit(./**)'] },
      expected: { behavior: 'ask' },
    },
    {
      name: 'a new file in a symlinked directory is judged where it would really be written',
      tool: 'Write',
      path: 'out/new-dir/new.txt',
      permissions: { mode: 'acceptEdits' },
      expected: { behavior: 'ask' },
      reasonContains: 'outside',
    },
    {
      name: 'bypassPermissions still allows the write through the symlinked directory',
      tool: 'Write',
      path: 'out/new.txt',
      permissions: { mode: 'bypassPermissions' },
      expected: { behavior: 'allow', source: 'mode' },
    },
    {
      name: 'circular symlinks deny with an error instead of hanging',
      tool: 'Read',
      path: 'loop-a/x.txt',
      expected: { behavior: 'deny' },
      reasonContains: 'symlinks loop',
    },
    {
      name: 'circular symlinks deny even in bypassPermissions',
      tool: 'Write',
      path: 'loop-b',
      permissions: { mode: 'bypassPermissions' },
      expected: { behavior: 'deny' },
      reasonContains: 'symlinks loop',
    },
    {
      name: 'a case variant of a denied file is denied on a case-insensitive file system',
      tool: 'Read',
      path: 'SECRET.TXT',
      caseInsensitive: true,
      permissions: { deny: ['Read(./secret.txt)'] },
      expected: { behavior: 'deny', rule: 'Read(./secret.txt)' },
    },
    {
      name: 'a case variant is another file on a case-sensitive file system',
      tool: 'Read',
      path: 'SECRET.TXT',
      caseInsensitive: false,
      permissions: { deny: ['Read(./secret.txt)'] },
      expected: { behavior: 'allow' },
    },
    {
      name: 'a case variant of .git/config is protected on a case-insensitive file system',
      tool: 'Write',
      path: '.GIT/config',
      caseInsensitive: true,
      permissions: { mode: 'acceptEdits' },
      expected: { behavior: 'ask', source: 'safety' },
    },
    {
      name: 'a device file asks',
      tool: 'Read',
      path: '/dev/zero',
      permissions: { allow: ['Read(//dev/**)'] },
      expected: { behavior: 'allow', rule: 'Read(//dev/**)' },
    },
    {
      name: 'a device file asks even in bypassPermissions',
      tool: 'Read',
      path: '/dev/zero',
      permissions: { mode: 'bypassPermissions' },
      expected: { behavior: 'ask', source: 'safety' },
      reasonContains: 'device file',
    },
    {
      name: 'a symlink to a device file inside the project asks',
      tool: 'Read',
      path: 'zero-link',
      permissions: { mode: 'acceptEdits' },
      expected: { behavior: 'ask', source: 'safety' },
      reasonContains: 'really "/dev/zero"',
    },
    {
      name: 'a device file is denied in dontAsk mode',
      tool: 'Read',
      path: '/dev/random',
      permissions: { mode: 'dontAsk' },
      expected: { behavior: 'deny' },
    },
    {
      name: 'a shell redirection to /dev/null is harmless',
      tool: 'Bash',
      bash: { command: 'echo hi', writes: ['/dev/null'] },
      permissions: { allow: ['Bash(echo:*)'] },
      expected: { behavior: 'allow', rule: 'Bash(echo:*)' },
    },
  ];
  test.each(rows)('$name', async (row) => check(row, await decide(row)));
});

describe('the path guard holds against odd spellings of a path', () => {
  const NFD = 'cafe\u0301.txt';
  const rows: Row[] = [
    {
      name: 'a trailing slash does not escape a deny rule',
      tool: 'Read',
      path: '.env/',
      permissions: { deny: ['Read(./.env)'] },
      expected: { behavior: 'deny', rule: 'Read(./.env)' },
    },
    {
      name: '/./ and // segments do not escape a deny rule',
      tool: 'Read',
      path: 'src/.././/./.env',
      permissions: { deny: ['Read(./.env)'] },
      expected: { behavior: 'deny', rule: 'Read(./.env)' },
    },
    {
      name: 'an absolute path with /./ does not escape a deny rule',
      tool: 'Read',
      path: '/./PROJ/./.env',
      permissions: { deny: ['Read(./.env)'] },
      expected: { behavior: 'deny', rule: 'Read(./.env)' },
    },
    {
      name: 'a component too long for the file system (ENAMETOOLONG) fails closed',
      tool: 'Read',
      path: `src/${'a'.repeat(300)}/x.txt`,
      expected: { behavior: 'deny' },
      reasonContains: 'too long for the file system',
    },
    {
      name: 'an over-long component fails closed even in bypassPermissions',
      tool: 'Write',
      path: `${'b'.repeat(300)}.txt`,
      permissions: { mode: 'bypassPermissions' },
      expected: { behavior: 'deny' },
      reasonContains: 'ENAMETOOLONG',
    },
    {
      name: '~user is not a home directory: Node opens <cwd>/~root/.bashrc, so it is judged there',
      tool: 'Write',
      path: '~root/.bashrc',
      permissions: { mode: 'acceptEdits' },
      expected: { behavior: 'allow', source: 'mode' },
    },
    {
      name: 'an NFD spelling of a denied NFC name is denied on a case-insensitive file system',
      tool: 'Read',
      path: NFD,
      caseInsensitive: true,
      permissions: { deny: ['Read(./caf\u00e9.txt)'] },
      expected: { behavior: 'deny', rule: 'Read(./caf\u00e9.txt)' },
    },
    {
      name: 'an NFD spelling in upper case is denied on a case-insensitive file system',
      tool: 'Read',
      path: NFD.toUpperCase(),
      caseInsensitive: true,
      permissions: { deny: ['Read(./caf\u00e9.txt)'] },
      expected: { behavior: 'deny' },
    },
    {
      name: 'an NFD spelling is another file on a case-sensitive file system',
      tool: 'Read',
      path: NFD,
      caseInsensitive: false,
      permissions: { deny: ['Read(./caf\u00e9.txt)'] },
      expected: { behavior: 'allow' },
    },
    // A hard link is the same file under another name: a rule naming the file covers each of its
    // names (hard_linked_rules.ts); a rule over a whole tree is not walked for them (README "The path guard").
    {
      name: 'a hard link to a file a deny rule names is denied by that rule',
      tool: 'Read',
      path: 'hard-link.txt',
      permissions: { deny: ['Read(./secret.txt)'] },
      expected: { behavior: 'deny' },
    },
    {
      name: 'a hard link to a file under a deny rule with ** is not looked for (a documented limit)',
      tool: 'Read',
      path: 'hard-link.txt',
      permissions: { deny: ['Read(./**/secret.txt)'] },
      expected: { behavior: 'allow' },
    },
  ];
  test.each(rows)('$name', async (row) => {
    // '/./PROJ/' stands for the project's absolute path, which the table cannot know.
    const fixed = row.path?.startsWith('/./PROJ/')
      ? { ...row, path: `/.${proj}/.${row.path.slice('/./PROJ'.length)}` }
      : row;
    check(fixed, await decide(fixed));
  });

  test.skipIf(process.platform !== 'linux')(
    '/proc/self/root and /proc/self/cwd are followed like any symlink',
    async () => {
      const row: Row = {
        name: '',
        tool: 'Read',
        path: `/proc/self/root${proj}/.env`,
        permissions: { deny: ['Read(./.env)'] },
        expected: { behavior: 'deny', rule: 'Read(./.env)' },
      };
      check(row, await decide(row));
      const write: Row = {
        name: '',
        tool: 'Write',
        path: `/proc/self/root${proj}/.toolshed/settings.json`,
        permissions: { mode: 'bypassPermissions' },
        expected: { behavior: 'ask', source: 'safety' },
      };
      check(write, await decide(write));
      const escape: Row = {
        name: '',
        tool: 'Read',
        path: `/proc/self/root${proj}/../outside/data.txt`,
        permissions: { allow: ['Read(./**)'] },
        expected: { behavior: 'ask' },
        reasonContains: 'outside the working directories',
      };
      check(escape, await decide(escape));
    },
  );

  test('a relative .. from a symlinked cwd is judged both where the kernel and where path.resolve would go', async () => {
    // cwd is <root>/proj-link -> <root>/proj. The kernel takes "../outside" from the real
    // directory; a tool that does path.resolve(cwd, p) goes to <root>/outside too here, but to
    // <root>/<x> in general. Both must be inside for an allow.
    const linkDir = join(root, 'proj-link');
    await symlink(proj, linkDir).catch(() => {});
    const { context } = createPermissionContext({ allow: ['Edit(./**)'], deny: ['Read(./.env)'] }, linkDir, {
      source: SETTINGS,
      homeDir: home,
      caseInsensitivePaths: false,
    });
    const ctx = testContext({ cwd: linkDir, permissions: context });
    expect(await decidePermission(TOOLS.Read!, { file_path: '../proj/.env' }, { ctx })).toMatchObject({
      behavior: 'deny',
      rule: 'Read(./.env)',
    });
    expect(await decidePermission(TOOLS.Write!, { file_path: '../outside/x.txt' }, { ctx })).toMatchObject({
      behavior: 'ask',
    });
    expect(await decidePermission(TOOLS.Write!, { file_path: 'src/new.ts' }, { ctx })).toMatchObject({
      behavior: 'allow',
      rule: 'Edit(./**)',
    });
  });
});

describe('the path guard protects configuration, git internals and shell start-up files', () => {
  const modes: PermissionMode[] = ['default', 'acceptEdits', 'bypassPermissions'];
  const paths = [
    '.git/config',
    '.git/hooks/pre-commit',
    'hooks-link/post-checkout',
    '.toolshed/settings.json',
    '.claude/settings.json',
    '.mcp.json',
    '~/.bashrc',
    '~/.zshrc',
    '~/.profile',
    '~/.gitconfig',
    '.idea/workspace.xml',
    '.gitmodules',
    '~/.ripgreprc',
    '~/.claude.json',
    '/etc/profile.d/evil.sh',
    '/etc/gitconfig',
    '/etc/bash.bashrc',
  ];
  const rows: Row[] = modes.flatMap((mode) =>
    paths.map(
      (path): Row => ({
        name: `a write to ${path} asks in ${mode} mode`,
        tool: 'Write',
        path,
        permissions: { mode, allow: ['Edit', 'Edit(./**)', 'Edit(~/**)', 'Edit(//etc/**)'] },
        expected: { behavior: 'ask', source: 'safety' },
        reasonContains: 'which is protected: such writes always ask',
      }),
    ),
  );
  rows.push(
    {
      name: 'a write to .git/objects (written by git itself) is not protected',
      tool: 'Write',
      path: '.git/objects/ab/cdef',
      permissions: { mode: 'acceptEdits' },
      expected: { behavior: 'allow', source: 'mode' },
    },
    {
      name: 'an allow rule that names .git/config unprotects it',
      tool: 'Write',
      path: '.git/config',
      permissions: { allow: ['Edit(./.git/config)'] },
      expected: { behavior: 'allow', rule: 'Edit(./.git/config)' },
    },
    {
      name: 'an allow rule naming the .claude folder unprotects it in bypassPermissions',
      tool: 'Edit',
      path: '.claude/settings.json',
      permissions: { mode: 'bypassPermissions', allow: ['Edit(./.claude/**)'] },
      expected: { behavior: 'allow' },
    },
    {
      name: 'an allow rule naming ~/.bashrc unprotects it',
      tool: 'Write',
      path: '~/.bashrc',
      permissions: { allow: ['Edit(~/.bashrc)'] },
      expected: { behavior: 'allow', rule: 'Edit(~/.bashrc)' },
    },
    {
      name: 'an allow rule naming /etc/gitconfig unprotects it',
      tool: 'Write',
      path: '/etc/gitconfig',
      permissions: { allow: ['Edit(//etc/gitconfig)'] },
      expected: { behavior: 'allow', rule: 'Edit(//etc/gitconfig)' },
    },
    {
      name: "a hook's allow does not unprotect .git/hooks",
      tool: 'Write',
      path: '.git/hooks/pre-push',
      hook: hookAllow,
      expected: { behavior: 'ask', source: 'safety' },
    },
    {
      name: 'a protected write is denied in dontAsk mode',
      tool: 'Write',
      path: '.mcp.json',
      permissions: { mode: 'dontAsk' },
      expected: { behavior: 'deny' },
    },
    {
      name: 'a shell redirection into .git/config asks',
      tool: 'Bash',
      bash: { command: 'echo x', writes: ['.git/config'] },
      permissions: { allow: ['Bash(echo:*)'] },
      expected: { behavior: 'ask', source: 'safety' },
    },
    {
      name: 'reading .git/config is not protected',
      tool: 'Read',
      path: '.git/config',
      expected: { behavior: 'allow' },
    },
  );
  test.each(rows)('$name', async (row) => check(row, await decide(row)));

  test('the suggestion names the protected folder so that one rule unprotects it', async () => {
    const decision = await decide({
      name: '',
      tool: 'Write',
      path: '.git/hooks/pre-commit',
      expected: { behavior: 'ask' },
    });
    expect(decision.suggestions).toEqual([`Edit(/${proj}/.git/**)`]);
  });
});

describe('path rules: every form, and which tools they cover', () => {
  const rows: Row[] = [
    {
      name: 'Edit(...) rules cover Write',
      tool: 'Write',
      path: 'src/new.ts',
      permissions: { allow: ['Edit(./src/**)'] },
      expected: { behavior: 'allow', rule: 'Edit(./src/**)', source: SETTINGS },
    },
    {
      name: 'Edit(...) rules cover NotebookEdit',
      tool: 'NotebookEdit',
      path: 'src/n.ipynb',
      permissions: { allow: ['Edit(./src/**)'] },
      expected: { behavior: 'allow', rule: 'Edit(./src/**)' },
    },
    {
      name: 'an Edit deny rule covers Write',
      tool: 'Write',
      path: 'src/a.ts',
      permissions: { mode: 'acceptEdits', deny: ['Edit(./src/**)'] },
      expected: { behavior: 'deny', rule: 'Edit(./src/**)' },
    },
    {
      name: 'Read(...) rules cover Grep',
      tool: 'Grep',
      path: 'src',
      permissions: { deny: ['Read(./src/**)'] },
      expected: { behavior: 'deny', rule: 'Read(./src/**)' },
    },
    {
      name: 'Read(...) rules cover Glob',
      tool: 'Glob',
      path: 'src',
      permissions: { deny: ['Read(./src)'] },
      expected: { behavior: 'deny', rule: 'Read(./src)' },
    },
    {
      name: 'a Read deny rule covers a shell read',
      tool: 'Bash',
      bash: { command: 'cat .env', reads: ['.env'] },
      permissions: { allow: ['Bash(cat:*)'], deny: ['Read(./.env)'] },
      expected: { behavior: 'deny', rule: 'Read(./.env)' },
    },
    {
      name: 'an Edit deny rule covers a shell redirection',
      tool: 'Bash',
      bash: { command: 'echo x', writes: ['src/a.ts'] },
      permissions: { mode: 'bypassPermissions', deny: ['Edit(./src/**)'] },
      expected: { behavior: 'deny', rule: 'Edit(./src/**)' },
    },
    {
      name: 'an Edit allow rule clears a shell write but does not allow the command',
      tool: 'Bash',
      bash: { command: 'sed -i s/a/b/ src/a.ts', writes: ['src/a.ts'] },
      permissions: { allow: ['Edit(./src/**)'] },
      expected: { behavior: 'ask' },
    },
    {
      name: 'an Edit ask rule asks for the write it covers',
      tool: 'Edit',
      path: 'docs/x.md',
      permissions: { mode: 'acceptEdits', ask: ['Edit(./docs/**)'] },
      expected: { behavior: 'ask', rule: 'Edit(./docs/**)' },
    },
    {
      name: 'a Read rule does not cover writes',
      tool: 'Write',
      path: 'secret.txt',
      permissions: { deny: ['Read(./secret.txt)'], allow: ['Edit(./*.txt)'] },
      expected: { behavior: 'allow', rule: 'Edit(./*.txt)' },
    },
    {
      name: 'a ~/ rule covers the home directory',
      tool: 'Read',
      path: '~/.ssh/id_rsa',
      permissions: { deny: ['Read(~/.ssh/**)'] },
      expected: { behavior: 'deny', rule: 'Read(~/.ssh/**)' },
    },
    {
      name: 'a // rule covers an absolute path',
      tool: 'Read',
      path: '/etc/hostname',
      permissions: { deny: ['Read(//etc/**)'] },
      expected: { behavior: 'deny', rule: 'Read(//etc/**)' },
    },
    {
      name: 'a bare name covers the file at any depth',
      tool: 'Read',
      path: 'sub/.env',
      permissions: { deny: ['Read(.env)'] },
      expected: { behavior: 'deny', rule: 'Read(.env)' },
    },
    {
      name: 'a * pattern stays within one directory',
      tool: 'Write',
      path: 'src/deep/a.ts',
      permissions: { allow: ['Edit(./src/*.ts)'] },
      expected: { behavior: 'ask' },
    },
    {
      name: 'a ** pattern crosses directories',
      tool: 'Write',
      path: 'src/deep/a.ts',
      permissions: { allow: ['Edit(./src/**/*.ts)'] },
      expected: { behavior: 'allow', rule: 'Edit(./src/**/*.ts)' },
    },
    {
      name: "a deny rule beats a hook's allow for a path",
      tool: 'Edit',
      path: 'src/a.ts',
      permissions: { deny: ['Edit(./src/**)'] },
      hook: hookAllow,
      expected: { behavior: 'deny', rule: 'Edit(./src/**)' },
    },
    {
      name: 'additional directories are inside',
      tool: 'Read',
      path: '../outside/data.txt',
      permissions: { additionalDirectories: ['../outside'] },
      expected: { behavior: 'allow' },
    },
  ];
  test.each(rows)('$name', async (row) => check(row, await decide(row)));
});

describe('every mode, for a write and a read inside the project', () => {
  const rows: [PermissionMode, 'read' | 'write', PermissionDecision['behavior']][] = [
    ['default', 'write', 'ask'],
    ['default', 'read', 'allow'],
    ['acceptEdits', 'write', 'allow'],
    ['acceptEdits', 'read', 'allow'],
    ['plan', 'write', 'deny'],
    ['plan', 'read', 'allow'],
    ['bypassPermissions', 'write', 'allow'],
    ['bypassPermissions', 'read', 'allow'],
    ['dontAsk', 'write', 'deny'],
    ['dontAsk', 'read', 'allow'],
  ];
  test.each(rows)('in %s mode a %s inside the project is %s', async (mode, access, behavior) => {
    const decision = await decide({
      name: '',
      tool: access === 'read' ? 'Read' : 'Write',
      path: 'src/a.ts',
      permissions: { mode },
      expected: { behavior },
    });
    expect(decision.behavior).toBe(behavior);
  });

  test('acceptEdits does not allow a shell command because its redirections are inside', async () => {
    const decision = await decide({
      name: '',
      tool: 'Bash',
      bash: { command: 'rm -rf build', writes: ['out.txt'] },
      permissions: { mode: 'acceptEdits' },
      expected: { behavior: 'ask' },
    });
    expect(decision.behavior).toBe('ask');
  });
});

describe("the path guard and a tool's own allow", () => {
  const trusting = buildTool({
    name: 'Write',
    description: 'writes, and trusts itself',
    inputSchema: z.object({ file_path: z.string() }),
    checkPermissions: () => ({ behavior: 'allow' as const, reason: 'the tool says so' }),
    resources: ({ file_path }) => [{ path: file_path, access: 'write' as const }],
    async call() {
      return { data: '' };
    },
  });
  async function decideTrusting(file_path: string, permissions: PermissionOptions = {}) {
    const { context } = createPermissionContext(permissions, proj, {
      source: SETTINGS,
      homeDir: home,
      caseInsensitivePaths: false,
    });
    return decidePermission(trusting, { file_path }, { ctx: testContext({ cwd: proj, permissions: context }) });
  }

  test("a tool's allow stands for a path inside the project", async () => {
    expect(await decideTrusting('src/a.ts')).toMatchObject({ behavior: 'allow', source: 'tool' });
  });

  test("a tool's allow does not lift a protected path", async () => {
    expect(await decideTrusting('.git/hooks/pre-commit', { mode: 'bypassPermissions' })).toMatchObject({
      behavior: 'ask',
      source: 'safety',
    });
  });

  test("a tool's allow does not open a path outside the working directories", async () => {
    const decision = await decideTrusting('out/new.txt');
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('is outside the working directories');
  });

  test("a tool's allow still loses to a deny rule", async () => {
    expect(await decideTrusting('src/a.ts', { deny: ['Edit(./src/**)'] })).toMatchObject({
      behavior: 'deny',
      rule: 'Edit(./src/**)',
    });
  });
});

describe('the path guard fails closed on what it cannot check', () => {
  function declaring(resources: unknown): AnyTool {
    return buildTool({
      name: 'Odd',
      description: 'declares odd resources',
      inputSchema: z.object({}),
      isReadOnly: () => true,
      resources: () => resources as [],
      async call() {
        return { data: '' };
      },
    });
  }
  test.each([
    ['a path with a NUL byte', [{ path: 'src/a.ts\0.png', access: 'read' }], 'NUL byte'],
    [
      'an access that is neither read nor write',
      [{ path: 'src/a.ts', access: 'execute' }],
      'is not { path: string, access: "read" | "write"',
    ],
    ['an empty path', [{ path: '', access: 'read' }], 'is not { path: string, access'],
    ['something that is not a list', { path: 'src/a.ts', access: 'read' }, 'not a list of { path, access }'],
  ])('%s denies the call', async (_name, resources, reason) => {
    const { context } = createPermissionContext({ mode: 'bypassPermissions' }, proj);
    const decision = await decidePermission(
      declaring(resources),
      {},
      { ctx: testContext({ cwd: proj, permissions: context }) },
    );
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain(reason);
  });

  test('a resources() that throws denies the call, even in bypassPermissions, with a one-line reason', async () => {
    const tool = buildTool({
      name: 'Odd',
      description: 'cannot say what it touches',
      inputSchema: z.object({}),
      isReadOnly: () => true,
      resources: () => {
        throw new TypeError('cannot parse the command\n    at parse (odd.js:1:1)');
      },
      async call() {
        return { data: '' };
      },
    });
    const { context } = createPermissionContext({ mode: 'bypassPermissions' }, proj);
    const decision = await decidePermission(tool, {}, { ctx: testContext({ cwd: proj, permissions: context }) });
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain("Odd's resources");
    expect(decision.reason).toContain('TypeError: cannot parse the command');
    expect(decision.reason).not.toContain('odd.js');
  });
});
