import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { contentToText, createSession, defineFamily, type Session } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { sleepTool } from './sleep_tool.ts';

let dir: string;
let session: Session;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-sleep-'));
  session = await createSession({ cwd: dir, tools: [sleepTool] });
});
afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

test('Sleep passes the conformance check and is read-only and concurrency-safe', async () => {
  expect(await checkFamily(defineFamily({ name: 'sleep', version: '0.0.0', tools: [sleepTool] }))).toEqual([]);
  expect(sleepTool.isReadOnly({ duration: 1 })).toBe(true);
  expect(sleepTool.isConcurrencySafe({ duration: 1 })).toBe(true);
});

test('Sleep waits and says so; an abort ends it early with how long it slept', async () => {
  const [done] = await session.run([{ type: 'tool_use', id: 's1', name: 'Sleep', input: { duration: 0.05 } }]);
  expect(contentToText(done!.content)).toBe('Slept for 0.05 s.');
  const controller = new AbortController();
  const running = session.run([{ type: 'tool_use', id: 's2', name: 'Sleep', input: { duration: 600 } }], {
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(), 20);
  const [stopped] = await running;
  expect(stopped!.is_error).toBe(true);
});

test('Sleep refuses a duration past its bound or not positive, naming the field', async () => {
  for (const duration of [601, 0, -1]) {
    const [result] = await session.run([{ type: 'tool_use', id: `s${duration}`, name: 'Sleep', input: { duration } }]);
    expect(result!.is_error).toBe(true);
    expect(contentToText(result!.content)).toContain('duration');
  }
});
