import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolContext } from '@toolshed/core';
import { createPermissionContext, decidePermission } from '@toolshed/core/internal';
import { globFiles } from '../glob/glob_tool.ts';
import { openSearchRoot } from '../_search_root.ts';
import { RIPGREP, SEARCH_ENGINES } from '../_test_engines.ts';
import type { SearchEngine } from '../_search_engine.ts';
import { GrepPage } from './_page.ts';
import { searchOpened } from './_opened_search.ts';
import { createGrepTool } from './grep_tool.ts';
import type { GrepQuery } from './_types.ts';

// The folder (or file) is opened and checked, then the link is re-pointed before the engine runs:
// the search must still read what was opened.
let base: string;
let link: string;
let cwdLog: string;
let recordingRg: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-opened-search-')));
  for (const dir of ['notes', 'secrets']) await mkdir(path.join(base, dir));
  await writeFile(path.join(base, 'notes', 'a.txt'), 'zebra notes\n');
  await writeFile(path.join(base, 'secrets', 'a.txt'), 'zebra launch-code-7731\n');
  await writeFile(path.join(base, 'secrets', 'launch-plan.txt'), 'zebra launch-code-7731\n');
  link = path.join(base, 'd');
  await symlink('notes', link);
  // ripgrep, after writing down the folder it was started in, as the kernel has it.
  cwdLog = path.join(base, 'rg-cwd');
  recordingRg = path.join(base, 'recording-rg');
  await writeFile(recordingRg, `#!/bin/sh\nreadlink /proc/$$/cwd > '${cwdLog}'\nexec '${RIPGREP}' "$@"\n`, {
    mode: 0o755,
  });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function decided(searched: string): Promise<ToolContext> {
  const ctx = { cwd: base, permissions: createPermissionContext({}, base).context } as ToolContext;
  const decision = await decidePermission(
    createGrepTool({ searchEngine: 'js' }),
    { pattern: 'x', path: searched },
    { ctx },
  );
  expect(decision.behavior).toBe('allow');
  return ctx;
}

async function repoint(): Promise<void> {
  await rm(link);
  await symlink(path.join(base, 'secrets'), link);
}

function query(mode: GrepQuery['mode'], file?: string): GrepQuery {
  const q: GrepQuery = {
    pattern: 'zebra',
    dir: link,
    mode,
    before: 0,
    after: 0,
    ignoreCase: false,
    multiline: false,
    globs: [],
  };
  if (file !== undefined) {
    q.dir = path.dirname(file);
    q.file = path.basename(file);
  }
  return q;
}

function pageFor(mode: GrepQuery['mode']): GrepPage {
  return new GrepPage({
    mode,
    offset: 0,
    limit: 0,
    numbers: true,
    withContext: false,
    mtimeOf: () => 0,
    show: (f) => `d/${f}`,
  });
}

const engineOf = (kind: 'ripgrep' | 'js', rg = RIPGREP!): SearchEngine =>
  kind === 'js' ? { kind } : { kind, path: rg };

describe.runIf(process.platform === 'linux').each(SEARCH_ENGINES)('searchOpened with the %s engine', (kind) => {
  test.each(['content', 'files_with_matches', 'count'] as const)(
    'searches the folder opened, not where its link leads by the time the engine runs (%s)',
    async (mode) => {
      const root = await openSearchRoot(link, { ctx: await decided(link), kind: 'folder' });
      try {
        await repoint();
        const page = pageFor(mode);
        await searchOpened(query(mode), page, { engine: engineOf(kind), root });
        const shown = page.result();
        const text = [...shown.filenames, ...shown.lines].join('\n');
        expect(text).not.toContain('7731');
        expect(text).not.toContain('launch-plan');
        expect(text).toBe(mode === 'content' ? 'd/a.txt:1:zebra notes' : mode === 'count' ? 'd/a.txt:1' : 'd/a.txt');
      } finally {
        await root.close();
      }
    },
  );

  test('searches the single file opened, shown by its own name, not the file its link leads to by then', async () => {
    const file = path.join(link, 'a.txt');
    for (const mode of ['content', 'files_with_matches', 'count'] as const) {
      const root = await openSearchRoot(file, { ctx: await decided(file), kind: 'file' });
      try {
        await repoint();
        const page = pageFor(mode);
        await searchOpened(query(mode, file), page, { engine: engineOf(kind), root });
        const shown = page.result();
        const text = [...shown.filenames, ...shown.lines].join('\n');
        expect(text).toBe(mode === 'content' ? 'd/a.txt:1:zebra notes' : mode === 'count' ? 'd/a.txt:1' : 'd/a.txt');
      } finally {
        await root.close();
        await rm(link);
        await symlink('notes', link);
      }
    }
  });

  test('Glob lists the folder opened, not where its link leads by the time the engine runs', async () => {
    const root = await openSearchRoot(link, { ctx: await decided(link), kind: 'folder' });
    try {
      await repoint();
      const listed = await globFiles(link, '**/*', { engine: engineOf(kind), openedBase: root.via! });
      expect(listed.filenames).toEqual(['a.txt']);
    } finally {
      await root.close();
    }
  });
});

describe.runIf(process.platform === 'linux' && RIPGREP !== undefined)('the ripgrep child', () => {
  test("Grep's ripgrep runs in the folder opened (its /proc/<pid>/cwd), though the link now leads elsewhere", async () => {
    const root = await openSearchRoot(link, { ctx: await decided(link), kind: 'folder' });
    try {
      await repoint();
      await searchOpened(query('files_with_matches'), pageFor('files_with_matches'), {
        engine: engineOf('ripgrep', recordingRg),
        root,
      });
      expect((await readFile(cwdLog, 'utf8')).trim()).toBe(path.join(base, 'notes'));
    } finally {
      await root.close();
    }
  });

  test("Glob's ripgrep runs in the folder opened (its /proc/<pid>/cwd), though the link now leads elsewhere", async () => {
    const root = await openSearchRoot(link, { ctx: await decided(link), kind: 'folder' });
    try {
      await repoint();
      await globFiles(link, '**/*', { engine: engineOf('ripgrep', recordingRg), openedBase: root.via! });
      expect((await readFile(cwdLog, 'utf8')).trim()).toBe(path.join(base, 'notes'));
    } finally {
      await root.close();
    }
  });
});
