import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundled sample repository (from `src/demo/` and from `dist/demo/` alike). */
export const SAMPLE_REPO_DIR = fileURLToPath(new URL('../../demo/sample-repo/', import.meta.url));

/** The demo's issue-tracker MCP server (a script run with this Node over stdio). */
export const TRACKER_SERVER = fileURLToPath(new URL('../../demo/tracker_server.mjs', import.meta.url));

/** A working copy of the sample repository, removed by `dispose`. */
export interface SampleRepoCopy {
  dir: string;
  dispose(): Promise<void>;
}

/**
 * Copies the bundled sample repository into a fresh temp directory, so the demo's edits never
 * touch the repository itself, and writes its build log (generated rather than committed: it
 * is a few hundred kilobytes of warnings, there to show a result that is too large to send).
 *
 * @param options `logLines`: lines of the generated build log (default 6 000).
 * @returns The copy's directory and its cleanup.
 *
 * @example
 * ```ts
 * import { copySampleRepo } from './sample_repo.ts';
 *
 * const repo = await copySampleRepo();
 * try { console.log(repo.dir); } finally { await repo.dispose(); }
 * ```
 */
export async function copySampleRepo(options: { logLines?: number } = {}): Promise<SampleRepoCopy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-demo-'));
  await cp(SAMPLE_REPO_DIR, dir, { recursive: true });
  const lines: string[] = [];
  for (let i = 1; i <= (options.logLines ?? 6_000); i++) {
    lines.push(
      i % 3 === 0
        ? `[build] WARN src/module_${i % 97}.ts:${i % 400}: unused variable "temp${i}" (no-unused-vars)`
        : `[build] info compiled src/module_${i % 97}.ts in ${(i * 7) % 90} ms`,
    );
  }
  await writeFile(path.join(dir, 'build.log'), `${lines.join('\n')}\n`);
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}
