import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, type AnyTool, type ResourceAccess } from '../tool.ts';
import { testContext } from './_test_context.ts';
import { ruleVisits } from './_rule_visits.ts';
import { decidePermission } from './decide_permission.ts';
import { createPermissionContext } from './permission_context.ts';

/**
 * The work of a permission decision counted in rules looked at: it must not grow with rules about
 * other tools and other folders, whatever kind of call is decided (a file, a folder, a protected
 * write, a path not known before the call, an MCP tool with no path, a path outside).
 */

let proj: string;
let base: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-visits-')));
  proj = join(base, 'proj');
  await mkdir(join(proj, 'src', 'lib'), { recursive: true });
  await mkdir(join(proj, '.git'), { recursive: true });
  await writeFile(join(proj, 'src', 'a.ts'), 'a');
  await writeFile(join(proj, '.git', 'config'), '[core]');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function declaring(name: string, resources: ResourceAccess[], readOnly = true): AnyTool {
  return buildTool({
    name,
    description: 'declares resources',
    inputSchema: z.object({}),
    isReadOnly: () => readOnly,
    resources: () => resources,
    async call() {
      return { data: '' };
    },
  });
}

/** Calls of every kind the decision treats apart. */
function calls(): Record<string, AnyTool> {
  return {
    'Read of a file': declaring('Read', [{ path: 'src/a.ts', access: 'read' }]),
    'Grep of a folder': declaring('Grep', [{ path: join(proj, 'src'), access: 'read', kind: 'folder' }]),
    'Write of a protected file': declaring('Write', [{ path: '.git/config', access: 'write' }], false),
    'Bash reading a path not known before the call': declaring(
      'Bash',
      [{ path: '`$F`', access: 'read', kind: 'unknown' }],
      false,
    ),
    'MCP tool with no path': { ...declaring('mcp__srv__lookup', [], true), isMcp: true },
    'Read outside the working directories': declaring('Read', [{ path: '/etc/hostname', access: 'read' }]),
  };
}

/** Rules about other folders and other tools (none is a bare name, which every folder check must see). */
function unrelated(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    switch (i % 6) {
      case 0:
        return `Read(//srv/data${i}/**)`;
      case 1:
        return `Edit(./build/out${i}/**)`;
      case 2:
        return `Read(./docs/area${i}/*.md)`;
      case 3:
        return `Bash(rm -rf /tmp/x${i})`;
      case 4:
        return `mcp__other${i}__tool`;
      default:
        return `WebFetch(domain:host${i}.example)`;
    }
  });
}

function contextWith(extra: number) {
  const { context, errors } = createPermissionContext(
    {
      // The rules that are about these calls, among the unrelated ones.
      deny: [...unrelated(extra), 'Read(./src/secret/**)'],
      ask: [...unrelated(extra), 'Edit(./src/generated/**)'],
      allow: [...unrelated(extra), 'Read(./src/**)', 'mcp__srv', 'Edit(./.git/config)'],
    },
    proj,
    { source: 'options', homeDir: join(base, 'home') },
  );
  expect(errors).toEqual([]);
  return testContext({ cwd: proj, permissions: context });
}

const KINDS = [
  'Read of a file',
  'Grep of a folder',
  'Write of a protected file',
  'Bash reading a path not known before the call',
  'MCP tool with no path',
  'Read outside the working directories',
];

describe('rules looked at per decision', () => {
  test.each(KINDS)('%s: the same with 0, 10, 100 and 1 000 unrelated rules in each list', async (kind) => {
    const tool = calls()[kind]!;
    const counts: number[] = [];
    const behaviors: string[] = [];
    for (const extra of [0, 10, 100, 1000]) {
      const ctx = contextWith(extra);
      await decidePermission(tool, {}, { ctx }); // the first decision builds the indexes
      const before = ruleVisits();
      const decision = await decidePermission(tool, {}, { ctx });
      counts.push(ruleVisits() - before);
      behaviors.push(decision.behavior);
    }
    expect(new Set(behaviors).size, behaviors.join()).toBe(1);
    expect(counts).toEqual([counts[0], counts[0], counts[0], counts[0]]);
    // And small: only the rules about the call are looked at.
    expect(counts[0]).toBeLessThanOrEqual(4);
  });
});
