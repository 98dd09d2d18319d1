// A fake CliIo for in-process tests: collects stdout and stderr, feeds stdin from a string.
import { mkdtempSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AnyTool } from '@toolshed/core';
import type { CliIo } from './cli_io.ts';
import { runCli } from './run_cli.ts';

/** What one in-process run of the CLI produced. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode cli}. */
export interface FakeIoOptions {
  stdin?: string;
  isTTY?: boolean;
  tools?: readonly AnyTool[];
  env?: Record<string, string | undefined>;
}

/**
 * The HOME of every fake io unless a test gives its own: an empty directory, so that no test
 * reads the real `~/.toolshed/settings.json` of whoever runs it.
 */
export const EMPTY_HOME = mkdtempSync(path.join(tmpdir(), 'toolshed-cli-home-'));

/** A fake io and readers of what was written. */
export function fakeIo(options: FakeIoOptions = {}): { io: CliIo; stdout: () => string; stderr: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    isTTY: options.isTTY ?? false,
    env: { HOME: EMPTY_HOME, ...options.env },
    ...(options.tools ? { extraTools: options.tools } : {}),
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

/** Runs the CLI in-process with a fake io. */
export async function cli(argv: readonly string[], options: FakeIoOptions = {}): Promise<CliRun> {
  const { io, stdout, stderr } = fakeIo(options);
  const code = await runCli(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

/**
 * A fresh temporary directory, removed after the test file (by the root `vitest.setup.ts`, which
 * empties the set these are added to): the tests that use it left about 130 behind per run before.
 *
 * @returns Its path.
 *
 * @example
 * ```ts
 * import { tempDir } from './_test_io.ts';
 *
 * const dir = await tempDir();
 * ```
 */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-cli-'));
  const key = Symbol.for('toolshed.test.tempDirs');
  const registry = globalThis as Record<symbol, Set<string> | undefined>;
  (registry[key] ??= new Set()).add(dir);
  return dir;
}
