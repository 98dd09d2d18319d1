// Every rule form of DESIGN.md, as an allow and as a deny rule, through decidePermission.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool, type ToolDef } from '../tool.ts';
import { testContext } from './_test_context.ts';
import { decidePermission } from './decide_permission.ts';
import { createPermissionContext } from './permission_context.ts';
import { matchDomainSpecifier, matchWildcardSpecifier } from './rule_matching.ts';

const anyInput = z.record(z.string(), z.unknown());

function tool(name: string, def: Partial<ToolDef<typeof anyInput>> = {}): AnyTool {
  return buildTool({
    name,
    description: name,
    inputSchema: anyInput,
    async call() {
      return { data: '' };
    },
    ...def,
  });
}

const TOOLS: Record<string, AnyTool> = {
  Bash: tool('Bash', {
    preparePermissionMatcher: (input: Record<string, unknown>) => (content: string) =>
      matchWildcardSpecifier(content, String(input['command'])),
  }),
  Read: tool('Read', {
    isReadOnly: () => true,
    resources: (input: Record<string, unknown>) => [{ path: String(input['file_path']), access: 'read' as const }],
  }),
  Write: tool('Write', {
    resources: (input: Record<string, unknown>) => [{ path: String(input['file_path']), access: 'write' as const }],
  }),
  WebFetch: tool('WebFetch', {
    preparePermissionMatcher: (input: Record<string, unknown>) => (content: string) =>
      matchDomainSpecifier(content, String(input['url'])),
  }),
  Agent: tool('Agent', {
    preparePermissionMatcher: (input: Record<string, unknown>) => (content: string) =>
      content === input['subagent_type'],
  }),
  mcp__github__create_issue: tool('mcp__github__create_issue'),
  mcp__gitlab__create_issue: tool('mcp__gitlab__create_issue'),
};

let proj: string;
let home: string;
beforeAll(async () => {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-rule-forms-')));
  proj = join(root, 'proj');
  home = join(root, 'home');
  await mkdir(join(proj, 'src', 'lib'), { recursive: true });
  await mkdir(join(home, 'notes'), { recursive: true });
  await writeFile(join(proj, 'src', 'a.ts'), '');
});
afterAll(async () => {
  await rm(join(proj, '..'), { recursive: true, force: true });
});

// [rule, tool, input, covered]
const FORMS: [string, string, Record<string, unknown>, boolean][] = [
  ['Bash', 'Bash', { command: 'anything at all' }, true],
  ['Bash()', 'Bash', { command: 'anything' }, true],
  ['Bash(*)', 'Bash', { command: 'anything' }, true],
  ['Bash(npm run test:*)', 'Bash', { command: 'npm run test -- --watch' }, true],
  ['Bash(npm run test:*)', 'Bash', { command: 'npm run testx' }, false],
  ['Bash(npm run test *)', 'Bash', { command: 'npm run test --watch' }, true],
  ['Bash(git * main)', 'Bash', { command: 'git push origin main' }, true],
  ['Bash(git * main)', 'Bash', { command: 'git push origin dev' }, false],
  ['Bash(ls)', 'Bash', { command: 'ls' }, true],
  ['Bash(ls)', 'Bash', { command: 'ls -la' }, false],
  ['Read(./src/**)', 'Read', { file_path: 'src/lib/x.ts' }, true],
  ['Read(src/*.ts)', 'Read', { file_path: 'src/a.ts' }, true],
  ['Read(src/*.ts)', 'Read', { file_path: 'src/lib/x.ts' }, false],
  ['Read(*.ts)', 'Read', { file_path: 'src/lib/x.ts' }, true],
  ['Read(~/notes/**)', 'Read', { file_path: '~/notes/todo.md' }, true],
  ['Edit(/src/**)', 'Write', { file_path: 'src/new.ts' }, true],
  ['Edit(//etc/**)', 'Write', { file_path: '/etc/x.conf' }, true],
  ['Edit(//etc/**)', 'Write', { file_path: 'src/a.ts' }, false],
  ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://docs.example.com/a' }, true],
  ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.com.evil.test/a' }, false],
  ['mcp__github', 'mcp__github__create_issue', {}, true],
  ['mcp__github', 'mcp__gitlab__create_issue', {}, false],
  ['mcp__github__*', 'mcp__github__create_issue', {}, true],
  ['mcp__github__create_issue', 'mcp__github__create_issue', {}, true],
  ['Agent(Explore)', 'Agent', { subagent_type: 'Explore' }, true],
  ['Agent(Explore)', 'Agent', { subagent_type: 'general-purpose' }, false],
];

async function decide(
  permissions: { allow?: string[]; deny?: string[] },
  name: string,
  input: Record<string, unknown>,
) {
  const { context, errors } = createPermissionContext({ ...permissions, additionalDirectories: ['/etc'] }, proj, {
    source: join(proj, '.toolshed', 'settings.json'),
    homeDir: home,
    root: proj,
    caseInsensitivePaths: false,
  });
  expect(errors).toEqual([]);
  return decidePermission(TOOLS[name]!, input, {
    ctx: testContext({
      cwd: proj,
      permissions: { ...context, workingDirectories: [...context.workingDirectories, join(home, 'notes')] },
    }),
  });
}

describe('every rule form', () => {
  test.each(FORMS)('deny %j covers %s %j: %s', async (rule, name, input, covered) => {
    const decision = await decide({ deny: [rule] }, name, input);
    if (covered) expect(decision).toMatchObject({ behavior: 'deny', rule });
    else expect(decision.rule).toBeUndefined();
  });

  test.each(FORMS)('allow %j covers %s %j: %s', async (rule, name, input, covered) => {
    const decision = await decide({ allow: [rule] }, name, input);
    if (covered) expect(decision).toMatchObject({ behavior: 'allow', rule });
    else expect(decision.rule).toBeUndefined();
  });
});
