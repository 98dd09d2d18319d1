import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentToText, createSession, type PermissionOptions, type Session } from '@toolshed/core';
import { lspTools, type LspToolsOptions } from './family.ts';
import type { LspServerConfig } from './server_config.ts';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

/** The fixture project's folder (copied before use: tests edit it). */
export const FIXTURE = path.join(here, 'testdata', 'project');
/** The misbehaving server of `testdata/fake_server.mjs`. */
export const FAKE_SERVER = path.join(here, 'testdata', 'fake_server.mjs');

/**
 * The real typescript-language-server of the devDependencies, run by this Node, with the
 * TypeScript 5 tsserver it needs (the workspace's own `typescript` is the native compiler,
 * which has no tsserver).
 */
export function realTypeScriptServer(extra: Partial<LspServerConfig> = {}): LspServerConfig {
  return {
    command: process.execPath,
    args: [require.resolve('typescript-language-server/lib/cli.mjs'), '--stdio'],
    extensions: ['.ts', '.tsx', '.js'],
    initializationOptions: {
      tsserver: { path: require.resolve('typescript-for-tsserver/lib/tsserver.js'), useSyntaxServer: 'never' },
      disableAutomaticTypingAcquisition: true,
    },
    ...extra,
  };
}

/** A temp folder and a session with the lsp family on it. */
export interface LspBench {
  dir: string;
  session: Session;
  call(input: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  cleanup(): Promise<void>;
}

let counter = 0;

/**
 * Copies `source` (the fixture project by default) into a fresh temp folder and opens a
 * session with the lsp family there.
 *
 * @example
 * ```ts
 * const bench = await makeBench({ family: { servers: { typescript: realTypeScriptServer() } } });
 * const { text } = await bench.call({ operation: 'hover', filePath: 'src/main.ts', line: 5, character: 37 });
 * await bench.cleanup();
 * ```
 */
export async function makeBench(
  options: {
    /** The family's options, or a function of the temp root that makes them. */
    family?: LspToolsOptions | ((root: string) => LspToolsOptions);
    /** The session's permissions, or a function of the temp root that makes them. */
    permissions?: PermissionOptions | ((root: string) => PermissionOptions);
    source?: string | false;
    /** Put the project (and the session's cwd) in this folder of the temp root. */
    subdir?: string;
  } = {},
): Promise<LspBench> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-lsp-')));
  const dir = options.subdir ? path.join(root, options.subdir) : root;
  if (options.source !== false) await cp(options.source ?? FIXTURE, dir, { recursive: true });
  const session = await createSession({
    cwd: dir,
    families: [
      lspTools(
        (typeof options.family === 'function' ? options.family(root) : options.family) ?? {
          servers: { typescript: realTypeScriptServer() },
          timeoutMs: 60_000,
        },
      ),
    ],
    stateDir: path.join(root, '.state'),
    ...(options.permissions
      ? { permissions: typeof options.permissions === 'function' ? options.permissions(root) : options.permissions }
      : {}),
  });
  return {
    dir,
    session,
    async call(input) {
      const [block] = await session.run([{ type: 'tool_use', id: `l${++counter}`, name: 'LSP', input }]);
      return { text: contentToText(block!.content), isError: block!.is_error === true };
    },
    async cleanup() {
      await session.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
