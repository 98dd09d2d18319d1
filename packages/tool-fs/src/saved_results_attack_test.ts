// Attacks on the allowance for a session's own saved results (core's own_results.ts), with the
// real Read and Grep: only what this session saved is readable that way, and what it saved stays
// readable whatever deny rules cover the folder it is in.
import { link, mkdir, mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { contentToText, createSession, type Session, type SessionOptions } from '@toolshed/core';
import { fileTools } from './family.ts';

let box: string;
let home: string;
let proj: string;
const savedXdg = process.env.XDG_STATE_HOME;
beforeEach(async () => {
  box = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-saved-attack-')));
  home = path.join(box, 'home');
  proj = path.join(box, 'proj');
  await mkdir(home);
  await mkdir(proj);
  await writeFile(
    path.join(proj, 'big.txt'),
    Array.from({ length: 3000 }, (_, i) => `line ${i} ${'y'.repeat(30)}`).join('\n'),
  );
  delete process.env.XDG_STATE_HOME;
});
afterEach(async () => {
  if (savedXdg === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = savedXdg;
  await rm(box, { recursive: true, force: true });
});

async function open(options: Partial<SessionOptions> = {}): Promise<Session> {
  return createSession({ cwd: proj, homeDir: home, families: [fileTools()], ...options });
}

/** A Grep whose output is over the limit: the path of the saved file, from the preview. */
async function saveOne(session: Session): Promise<string> {
  const [grep] = await session.run([
    {
      type: 'tool_use',
      id: 'g1',
      name: 'Grep',
      input: { pattern: 'line', path: 'big.txt', output_mode: 'content', head_limit: 0 },
    },
  ]);
  const preview = contentToText(grep!.content);
  const saved = /The full output is saved to (\S+)/.exec(preview)?.[1];
  expect(saved, preview.slice(0, 400)).toBeDefined();
  return saved!;
}

async function read(session: Session, file: string): Promise<{ error: boolean; text: string }> {
  const [r] = await session.run([{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: file } }]);
  return { error: r!.is_error === true, text: contentToText(r!.content) };
}

describe('only what this session saved is readable as its own result', () => {
  test('a second session sharing the state folder cannot read the first one’s saved result without a rule', async () => {
    const stateDir = path.join(box, 'shared');
    const first = await open({ stateDir });
    const saved = await saveOne(first);
    const other = path.join(box, 'other');
    await mkdir(other);
    const second = await createSession({ cwd: other, homeDir: home, stateDir, families: [fileTools()] });
    const got = await read(second, saved);
    expect(got.error).toBe(true);
    expect(got.text).toMatch(/outside the working directories/);
    expect(got.text).not.toMatch(/line 0 y/);
    // The session that saved it reads it.
    expect((await read(first, saved)).text).toMatch(/line 0 y/);
    await second.close();
    await first.close();
  });

  test('a hard link to a file outside the working directories, put in the results folder, is not read without a rule', async () => {
    const session = await open();
    const saved = await saveOne(session);
    const secret = path.join(box, 'secret.txt');
    await writeFile(secret, 'TOPSECRET');
    const planted = path.join(path.dirname(saved), 'planted.txt');
    await link(secret, planted);
    const got = await read(session, planted);
    expect(got.error).toBe(true);
    expect(got.text).not.toMatch(/TOPSECRET/);
    await session.close();
  });

  test('a saved result replaced by another file of the same name is not read without a rule', async () => {
    const session = await open();
    const saved = await saveOne(session);
    const swapped = path.join(path.dirname(saved), 'swap.tmp');
    await writeFile(swapped, 'NOT THE RESULT');
    await rename(swapped, saved);
    const got = await read(session, saved);
    expect(got.error).toBe(true);
    expect(got.text).not.toMatch(/NOT THE RESULT/);
    await session.close();
  });

  test('a saved result turned into a link to a file outside is not read without a rule', async () => {
    const session = await open();
    const saved = await saveOne(session);
    const secret = path.join(box, 'secret.txt');
    await writeFile(secret, 'TOPSECRET');
    await rm(saved);
    const { symlink } = await import('node:fs/promises');
    await symlink(secret, saved);
    const got = await read(session, saved);
    expect(got.error).toBe(true);
    expect(got.text).not.toMatch(/TOPSECRET/);
    await session.close();
  });
});

describe('a deny rule that covers the state folder', () => {
  for (const rule of ['Read(~/**)', 'Read(~/.toolshed/**)']) {
    test(`${rule}: the session's own saved result is still read whole, with the preview's advice`, async () => {
      const session = await open({ permissions: { deny: [rule] } });
      const saved = await saveOne(session);
      expect(saved.startsWith(path.join(home, '.toolshed', 'state'))).toBe(true);
      const got = await read(session, saved);
      expect(got.error, got.text.slice(0, 300)).toBe(false);
      expect(got.text).toMatch(/line 0 y/);
      const [paged] = await session.run([
        { type: 'tool_use', id: 'r2', name: 'Read', input: { file_path: saved, offset: 2990, limit: 20 } },
      ]);
      expect(contentToText(paged!.content)).toMatch(/line 2999 y/);
      await session.close();
    });
  }

  test('a rule written about the saved results themselves holds: the user denied them, not the home', async () => {
    for (const rule of ['Read(~/.toolshed/state/**/tool-results/**)', `Read(/${home}/.toolshed/state/**/*.txt)`]) {
      const session = await open({ permissions: { deny: [rule] } });
      const saved = await saveOne(session);
      const got = await read(session, saved);
      expect(got.error, `${rule}: ${got.text.slice(0, 200)}`).toBe(true);
      expect(got.text).toContain(rule);
      await session.close();
    }
  });

  test('still denies another file planted in the results folder', async () => {
    const session = await open({ permissions: { deny: ['Read(~/**)'] } });
    const saved = await saveOne(session);
    const planted = path.join(path.dirname(saved), 'planted.txt');
    await writeFile(planted, 'PLANTED');
    const got = await read(session, planted);
    expect(got.error).toBe(true);
    expect(got.text).toMatch(/Denied by rule|denied by rule/);
    await session.close();
  });
});
