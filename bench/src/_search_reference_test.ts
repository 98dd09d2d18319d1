import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadRankerAt } from './_search_reference.ts';

const FILED = 'b430c4e';

/** Whether this clone holds the commit (a shallow clone may not). */
function hasCommit(commit: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test.skipIf(!hasCommit(FILED))(
  "the ranker of a past commit is loaded from git into a temporary folder, searches with that commit's code, and is removed",
  async () => {
    const filed = await loadRankerAt(FILED);
    try {
      expect(filed.files).toEqual(['_analyze.ts', '_bm25.ts', 'lexical_ranker.ts', 'tool_index.ts']);
      const index = filed.createToolIndex([
        { name: 'mcp__slack__send_message', description: 'Post a message to a channel' },
        { name: 'weather', description: 'Forecast for a city' },
      ]);
      expect(index.search('send a slack message')).toEqual([
        { name: 'mcp__slack__send_message', score: expect.any(Number) },
      ]);
      expect(existsSync(path.join(filed.dir, 'tool_index.ts'))).toBe(true);
    } finally {
      await filed.dispose();
    }
    expect(existsSync(filed.dir)).toBe(false);
  },
);

test('a commit git does not know, or a module that imports a package, fails with what to fix', async () => {
  await expect(loadRankerAt('0000000000000000000000000000000000000bad')).rejects.toThrow(
    /git show 0{37}bad:packages\/toolsearch\/src\/tool_index\.ts failed/,
  );
  // A repository whose tool_index.ts imports a package: refused before anything is written.
  const repo = await mkdtemp(path.join(os.tmpdir(), 'toolshed-reference-test-'));
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'ignore' });
    git('init', '-q');
    const dir = path.join(repo, 'packages/toolsearch/src');
    execFileSync('mkdir', ['-p', dir]);
    await writeFile(path.join(dir, 'tool_index.ts'), "import { z } from 'zod';\nexport const createToolIndex = z;\n");
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x');
    await expect(loadRankerAt('HEAD', { repoDir: repo })).rejects.toThrow(
      'packages/toolsearch/src/tool_index.ts at HEAD imports "zod": only modules of its own folder can be loaded from a commit',
    );
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
});
