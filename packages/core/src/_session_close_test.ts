import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { closeSession } from './_session_close.ts';
import { sessionResultsDir } from './permissions/own_results.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'toolshed-close-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('cleanups run newest first; a failing one is a warning and the rest still run, then saved results go', async () => {
  const ran: string[] = [];
  const warnings: string[] = [];
  const saved = path.join(sessionResultsDir(dir), 'r1.txt');
  await mkdir(path.dirname(saved), { recursive: true });
  await writeFile(saved, 'big output');
  const cleanups = [
    () => void ran.push('first registered'),
    () => {
      throw new Error('server would not stop');
    },
    async () => void ran.push('last registered'),
  ];
  await closeSession({
    cleanups,
    warn: (m) => warnings.push(m),
    keepResults: false,
    stateDir: dir,
    place: undefined,
    persisted: new Set([saved]),
  });
  expect(ran).toEqual(['last registered', 'first registered']);
  expect(warnings).toEqual(['A cleanup step failed on close: server would not stop']);
  expect(cleanups).toEqual([]);
  expect(existsSync(saved)).toBe(false);
  expect(existsSync(dir)).toBe(true); // a stateDir the caller chose stays
});

test('keepResults: true keeps the saved results', async () => {
  const saved = path.join(sessionResultsDir(dir), 'r1.txt');
  await mkdir(path.dirname(saved), { recursive: true });
  await writeFile(saved, 'big output');
  await closeSession({
    cleanups: [],
    warn: () => {},
    keepResults: true,
    stateDir: dir,
    place: undefined,
    persisted: new Set([saved]),
  });
  expect(existsSync(saved)).toBe(true);
});
