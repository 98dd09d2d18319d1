import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { loadAgentFiles } from './load_agent_files.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

test("a project's agent file that links to a FIFO or a device is reported and skipped, not read (the session would hang)", async () => {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-agents-')));
  dirs.push(root);
  const agents = path.join(root, 'project', '.claude', 'agents');
  await mkdir(agents, { recursive: true });
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  await symlink(path.join(root, 'pipe'), path.join(agents, 'pipe.md'));
  await symlink('/dev/zero', path.join(agents, 'zero.md'));
  await writeFile(path.join(agents, 'big.md'), `---\nname: big\ndescription: big\n---\n${'x'.repeat(1_100_000)}`);
  await writeFile(
    path.join(agents, 'reviewer.md'),
    '---\nname: reviewer\ndescription: Reviews code.\n---\nReview it.\n',
  );
  const { agents: loaded, problems } = await loadAgentFiles({
    cwd: path.join(root, 'project'),
    homeDir: path.join(root, 'home'),
    sources: ['project'],
  });
  expect(loaded.map((a) => a.name)).toEqual(['reviewer']);
  expect(problems.map((p) => p.message)).toEqual([
    `${path.join(agents, 'big.md')} is over 1 MB (${1_100_000 + '---\nname: big\ndescription: big\n---\n'.length} bytes): an agent definition is a short Markdown file; it was skipped`,
    `${path.join(agents, 'pipe.md')} is not a regular file (a FIFO, a device or a socket is never read); it was skipped`,
    `${path.join(agents, 'zero.md')} is not a regular file (a FIFO, a device or a socket is never read); it was skipped`,
  ]);
}, 20_000);
