import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolshedError } from '@toolshed/core';
import { isPathInside } from '@toolshed/core/internal';
import { LSP_SERVER_FAILED } from './lsp_errors.ts';
import type { LspServerConfig } from './server_config.ts';

/** Where typescript-language-server looks for a workspace's TypeScript, walking up from the root. */
const WORKSPACE_FOLDERS = ['node_modules/typescript/lib', '.vscode/pnpify/typescript/lib', '.yarn/sdks/typescript/lib'];

/** Options of {@linkcode withTrustedTypeScript}. */
export interface TrustedTypeScriptOptions {
  /** The session's working directories: the first is the project folder messages name. */
  roots: readonly string[];
  /** The servers' environment (its `PATH` finds the server program). */
  env: NodeJS.ProcessEnv;
}

/**
 * For a project the user has not trusted: typescript-language-server takes a workspace's own
 * TypeScript (`node_modules/typescript`, `.yarn/sdks/typescript` — committed in Yarn PnP
 * repositories) before the one installed beside it, and runs its `tsserver.js`. A read-only LSP
 * call must not run the project's code, so the server is pointed (`tsserver.path`) at a
 * TypeScript outside the project: the one beside Toolshed's LSP package, else the one beside
 * the server program. Other servers, a `tsserver.path` given in code or the user's settings, and a
 * project that has no TypeScript of its own are left as they are.
 *
 * @param config The server the call needs.
 * @param options The session's roots and the servers' environment.
 * @returns The config to start.
 * @throws {ToolshedError} `lsp_server_failed` when the project has its own TypeScript and none
 *   outside it is found: the message names the file and the fixes.
 *
 * @example
 * ```ts
 * import { withTrustedTypeScript } from './_workspace_typescript.ts';
 * import { DEFAULT_LSP_SERVERS } from './server_config.ts';
 *
 * const config = withTrustedTypeScript(DEFAULT_LSP_SERVERS['typescript']!, { roots: ['/src/cloned'], env: process.env });
 * ```
 */
export function withTrustedTypeScript(config: LspServerConfig, options: TrustedTypeScriptOptions): LspServerConfig {
  if (!isTypeScriptLanguageServer(config)) return config;
  const init = (config.initializationOptions ?? {}) as { tsserver?: { path?: unknown } };
  if (typeof init.tsserver?.path === 'string' && init.tsserver.path !== '') return config;
  const projectOwn = options.roots.map(workspaceTypeScript).find((p) => p !== undefined);
  if (projectOwn === undefined) return config;
  const outside = (file: string) => !options.roots.some((root) => isPathInside(realOrSame(file), realOrSame(root)));
  const starts = [path.dirname(fileURLToPath(import.meta.url)), serverProgramDir(config, options.env)];
  for (const start of starts) {
    if (start === undefined) continue;
    const found = nodeModulesTypeScript(start);
    if (found !== undefined && outside(found) && found !== projectOwn) {
      return { ...config, initializationOptions: { ...init, tsserver: { ...init.tsserver, path: found } } };
    }
  }
  const root = options.roots[0] ?? '.';
  throw new ToolshedError(
    LSP_SERVER_FAILED,
    `The project folder "${root}" is not trusted, so typescript-language-server is not started with the project's own TypeScript ("${projectOwn}"): the server would run that file. No TypeScript was found outside the project, beside Toolshed or the server. Install one beside the server (npm install -g typescript), or set "tsserver": {"path": "/path/to/typescript/lib/tsserver.js"} in the initializationOptions of the "typescript" server (lspTools, or the "lsp" key of your user settings); if you trust this folder's code, run "toolshed trust ${root}" (a library caller passes trustedProject: true to createSession).`,
  );
}

function isTypeScriptLanguageServer(config: LspServerConfig): boolean {
  return [config.command, ...(config.args ?? [])].some(
    (word) =>
      /^typescript-language-server(\.cmd|\.exe)?$/i.test(path.basename(word)) ||
      word.split(/[\\/]/).includes('typescript-language-server'),
  );
}

/** The tsserver.js typescript-language-server would take from the workspace, as it looks for one. */
function workspaceTypeScript(root: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    for (const folder of WORKSPACE_FOLDERS) {
      if (existsSync(path.join(dir, folder))) return path.join(dir, folder, 'tsserver.js');
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The tsserver.js Node would resolve `typescript` to from a folder (node_modules up the tree). */
function nodeModulesTypeScript(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== 'node_modules') {
      const file = path.join(dir, 'node_modules', 'typescript', 'lib', 'tsserver.js');
      if (existsSync(file) && existsSync(path.join(dir, 'node_modules', 'typescript', 'package.json'))) return file;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The folder of the server's own program (through links), found as the process would find it. */
function serverProgramDir(config: LspServerConfig, env: NodeJS.ProcessEnv): string | undefined {
  const script = (config.args ?? []).find((a) => a.split(/[\\/]/).includes('typescript-language-server'));
  let program: string | undefined = script;
  if (program === undefined) {
    if (config.command.includes('/') || config.command.includes('\\')) program = config.command;
    else {
      const dirs = (env['PATH'] ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d));
      program = dirs.map((d) => path.join(d, config.command)).find((p) => existsSync(p));
    }
  }
  return program === undefined ? undefined : path.dirname(realOrSame(program));
}

function realOrSame(file: string): string {
  try {
    return realpathSync(path.resolve(file));
  } catch {
    return path.resolve(file);
  }
}
