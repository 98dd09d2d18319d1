import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ResourceAccess } from '../tool.ts';
import { decideDeclared } from './_test_declaring.ts';

let proj = '';
beforeAll(async () => {
  proj = join(await realpath(await mkdtemp(join(tmpdir(), 'toolshed-names-'))), 'p');
  await mkdir(join(proj, 'keys'), { recursive: true });
  await writeFile(join(proj, '.env'), 'KEY=1');
  await writeFile(join(proj, 'keys/id'), 'k');
});
afterAll(() => rm(join(proj, '..'), { recursive: true, force: true }));

/** The decision on a call that declares `resources`, with these deny rules, in bypassPermissions. */
function decide(resources: ResourceAccess[], deny: string[]) {
  return decideDeclared(resources, { cwd: proj, mode: 'bypassPermissions', deny });
}

describe('a folder read for its names and metadata (names)', () => {
  test('a rule about a file below does not hold it back; read whole, it does', async () => {
    const names: ResourceAccess = { path: proj, access: 'read', kind: 'folder', names: true };
    expect((await decide([names], ['Read(./.env)', 'Read(./keys/**)'])).behavior).toBe('allow');
    const whole = await decide([{ path: proj, access: 'read', kind: 'folder' }], ['Read(./.env)']);
    expect(whole).toMatchObject({ behavior: 'deny', rule: 'Read(./.env)' });
  });

  test('a rule covering the folder itself does', async () => {
    const decision = await decide(
      [{ path: join(proj, 'keys'), access: 'read', kind: 'folder', names: true }],
      ['Read(./keys)'],
    );
    expect(decision).toMatchObject({ behavior: 'deny', rule: 'Read(./keys)' });
    expect(decision.reason).toContain('it covers the read of');
  });

  test('for a write it means nothing: a folder write is judged whole', async () => {
    const write: ResourceAccess = { path: proj, access: 'write', kind: 'folder', names: true };
    expect((await decide([write], ['Edit(./.env)'])).behavior).toBe('deny');
  });
});
