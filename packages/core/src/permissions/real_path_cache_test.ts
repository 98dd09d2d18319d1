import { mkdir, mkdtemp, realpath, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cachedRealPath, clearRootCache, pinnedPhysicalRoot } from './real_path_cache.ts';

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-rootcache-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('cachedRealPath', () => {
  test('follows a symlink made, re-pointed and removed after the root was cached, checked right away each time', async () => {
    const proj = join(base, 'proj1');
    const ssh = join(base, 'ssh');
    const other = join(base, 'other');
    for (const d of [proj, ssh, other]) await mkdir(d, { recursive: true });
    const root = join(proj, 'secrets');
    expect(cachedRealPath(root, base)).toBe(root);
    await nextTurn();
    expect(cachedRealPath(root, base)).toBe(root); // cached now
    await symlink(ssh, root);
    await nextTurn();
    expect(cachedRealPath(root, base)).toBe(ssh);
    // Re-pointed: removed and made again (a link cannot be changed in place).
    await rm(root);
    await symlink(other, root);
    await nextTurn();
    expect(cachedRealPath(root, base)).toBe(other);
    await rm(root);
    await nextTurn();
    expect(cachedRealPath(root, base)).toBe(root);
  });

  test('follows a change deeper on the way: a link in a folder the resolution reached through another link', async () => {
    const proj = join(base, 'proj2');
    const hop = join(base, 'hop');
    const first = join(base, 'first');
    const second = join(base, 'second');
    for (const d of [proj, hop, first, second]) await mkdir(d, { recursive: true });
    await symlink(first, join(hop, 'next'));
    await symlink(join(hop, 'next'), join(proj, 'data'));
    const root = join(proj, 'data', 'keys');
    expect(cachedRealPath(root, base)).toBe(join(first, 'keys'));
    await nextTurn();
    expect(cachedRealPath(root, base)).toBe(join(first, 'keys'));
    // Only hop/next changes: nothing under proj does.
    await rm(join(hop, 'next'));
    await symlink(second, join(hop, 'next'));
    await nextTurn();
    expect(cachedRealPath(root, base)).toBe(join(second, 'keys'));
  });

  test('a folder swapped for a link by rename is followed too', async () => {
    const proj = join(base, 'proj3');
    const away = join(base, 'away');
    await mkdir(join(proj, 'conf'), { recursive: true });
    await mkdir(away, { recursive: true });
    const root = join(proj, 'conf');
    expect(cachedRealPath(root, base)).toBe(root);
    await nextTurn();
    await symlink(away, join(proj, 'conf-link'));
    await rm(root, { recursive: true });
    await rename(join(proj, 'conf-link'), root);
    expect(cachedRealPath(root, base)).toBe(away);
  });
});

describe('pinnedPhysicalRoot', () => {
  test('keeps the first resolution while the link is re-pointed, and follows again only after clearRootCache', async () => {
    const first = join(base, 'pin-first');
    const second = join(base, 'pin-second');
    for (const d of [first, second]) await mkdir(d, { recursive: true });
    const link = join(base, 'pin-link');
    await symlink(first, link);
    expect(pinnedPhysicalRoot(link, base)).toBe(first);
    await rm(link);
    await symlink(second, link);
    await nextTurn();
    expect(cachedRealPath(link, base)).toBe(second); // the cache follows the link…
    expect(pinnedPhysicalRoot(link, base)).toBe(first); // …the pin does not
    clearRootCache();
    expect(pinnedPhysicalRoot(link, base)).toBe(second);
  });

  test('a root that did not exist when pinned stays its own path once it is made a link', async () => {
    const target = join(base, 'pin-target');
    await mkdir(target, { recursive: true });
    const later = join(base, 'pin-later');
    expect(pinnedPhysicalRoot(later, base)).toBe(later);
    await symlink(target, later);
    await nextTurn();
    expect(pinnedPhysicalRoot(later, base)).toBe(later);
  });
});
