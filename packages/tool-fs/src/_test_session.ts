import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type CanUseTool,
  contentToText,
  createSession,
  type PermissionOptions,
  type Session,
  type ToolResultBlock,
} from '@toolshed/core';
import { fileTools, type FileToolsOptions } from './family.ts';
import { hashOffThread, hashWorkerStats, OFF_THREAD_MIN_BYTES } from './_hash_off_thread.ts';

/** A temp folder and a session on it, for tests. */
export interface TestBench {
  dir: string;
  session: Session;
  /** Runs one call; returns its text, error flag and raw block. */
  call(name: string, input: unknown): Promise<{ text: string; isError: boolean; block: ToolResultBlock }>;
  /** Removes the folder and closes the session. */
  cleanup(): Promise<void>;
}

let counter = 0;

/**
 * Makes a real temp folder (symlinks resolved) and a session with the fs family on it, in
 * `acceptEdits` mode so writes inside the folder are allowed.
 *
 * @param options The family's options, the session's permissions, what answers its asks
 *   (`canUseTool`), and the folder to make the temp folder in (default the system's temp folder).
 * @returns The bench.
 *
 * @example
 * ```ts
 * const bench = await makeBench();
 * const { text } = await bench.call('Read', { file_path: 'a.txt' });
 * await bench.cleanup();
 * ```
 */
export async function makeBench(
  options: { family?: FileToolsOptions; permissions?: PermissionOptions; canUseTool?: CanUseTool; dir?: string } = {},
): Promise<TestBench> {
  const dir = await realpath(await mkdtemp(path.join(options.dir ?? os.tmpdir(), 'toolshed-fs-')));
  const session = await createSession({
    cwd: dir,
    families: [fileTools(options.family ?? {})],
    permissions: options.permissions ?? { mode: 'acceptEdits' },
    stateDir: path.join(dir, '.state'),
    ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
  });
  return {
    dir,
    session,
    async call(name, input) {
      const [block] = await session.run([{ type: 'tool_use', id: `t${++counter}`, name, input }]);
      return { text: contentToText(block!.content), isError: block!.is_error === true, block: block! };
    },
    async cleanup() {
      await session.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the hash worker is up (the first large hash only starts it), so that a test's
 * large Write or Edit is hashed on it.
 *
 * @example
 * ```ts
 * await hashWorkerUp();
 * ```
 */
export async function hashWorkerUp(): Promise<void> {
  const bytes = Buffer.from(new SharedArrayBuffer(OFF_THREAD_MIN_BYTES));
  for (let i = 0; i < 200 && !hashWorkerStats().ready; i++) {
    await hashOffThread(bytes);
    await new Promise((r) => setTimeout(r, 10));
  }
}
