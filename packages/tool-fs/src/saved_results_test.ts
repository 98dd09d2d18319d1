// End to end with the real Grep and Read: a result too large to send is saved, and the model
// can read it back by the path in the preview, with no rule and no prompt (core's own_results.ts).
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { contentToText, createSession, type Session } from '@toolshed/core';
import { fileTools } from './family.ts';

let box: string;
let home: string;
let proj: string;
const savedXdg = process.env.XDG_STATE_HOME;
beforeEach(async () => {
  box = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-saved-')));
  home = path.join(box, 'home');
  proj = path.join(box, 'proj');
  await mkdir(home);
  await mkdir(path.join(proj, 'src'), { recursive: true });
  for (let i = 0; i < 600; i++) {
    await writeFile(
      path.join(proj, 'src', `mod${String(i).padStart(3, '0')}.ts`),
      `export const handler${i} = () => fetchRecord(${i}, 'a fairly long argument to make the line long');\n`,
    );
  }
  delete process.env.XDG_STATE_HOME;
});
afterEach(async () => {
  if (savedXdg === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = savedXdg;
  await rm(box, { recursive: true, force: true });
});

async function grepAndReadBack(session: Session): Promise<{ saved: string; grepped: string[]; readBack: string[] }> {
  const [grep] = await session.run([
    {
      type: 'tool_use',
      id: 'g1',
      name: 'Grep',
      input: { pattern: 'fetchRecord', output_mode: 'content', head_limit: 0 },
    },
  ]);
  const preview = contentToText(grep!.content);
  const saved = /The full output is saved to (\S+)/.exec(preview)?.[1];
  expect(saved, preview.slice(0, 500)).toBeDefined();
  const [read] = await session.run([{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: saved } }]);
  expect(read!.is_error, contentToText(read!.content).slice(0, 500)).toBeUndefined();
  // Read numbers its lines (`   1\t…`); the numbers are not part of the file.
  const readBack = contentToText(read!.content)
    .split('\n')
    .filter((l) => /^\s*\d+\t/.test(l))
    .map((l) => l.replace(/^\s*\d+\t/, ''));
  const grepped = (await readFile(saved!, 'utf8')).split('\n').filter((l) => l !== '');
  return { saved: saved!, grepped, readBack };
}

test("a session with default options saves a large Grep result, a Read of the preview's path returns all of it without a rule or a prompt, and close() removes it", async () => {
  const prompts: string[] = [];
  const session = await createSession({
    cwd: proj,
    homeDir: home,
    families: [fileTools()],
    canUseTool: async (name, input) => {
      prompts.push(`${name} ${JSON.stringify(input)}`);
      return { behavior: 'deny', message: 'no prompts expected' };
    },
  });
  const { saved, grepped, readBack } = await grepAndReadBack(session);
  expect(saved.startsWith(path.join(home, '.toolshed', 'state', session.id, 'tool-results'))).toBe(true);
  expect(grepped).toHaveLength(600);
  expect(grepped.join('\n').length).toBeGreaterThan(50_000);
  expect(readBack).toEqual(grepped);
  expect(prompts).toEqual([]);
  expect((await stat(session.stateDir)).mode & 0o777).toBe(0o700);
  await session.close();
  await expect(stat(saved)).rejects.toThrow(/ENOENT/);
});

test('with keepResults: true the saved Grep result stays after close()', async () => {
  const session = await createSession({ cwd: proj, homeDir: home, families: [fileTools()], keepResults: true });
  const { saved, readBack } = await grepAndReadBack(session);
  expect(readBack).toHaveLength(600);
  await session.close();
  expect((await stat(saved)).isFile()).toBe(true);
});
