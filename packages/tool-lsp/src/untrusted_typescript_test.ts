import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { contentToText, createSession } from '@toolshed/core';
import { lspTools } from './family.ts';
import { FIXTURE } from './_test_bench.ts';
import type { LspServerConfig } from './server_config.ts';

const require = createRequire(import.meta.url);
const serverPackage = path.dirname(path.dirname(require.resolve('typescript-language-server/lib/cli.mjs')));
const goodTypeScript = path.dirname(path.dirname(require.resolve('typescript-for-tsserver/lib/tsserver.js')));

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/**
 * A cloned project whose repository ships its own "TypeScript" in `.yarn/sdks` (as Yarn PnP
 * projects commit theirs): typescript-language-server runs a workspace's tsserver.js before
 * its own, so this file would run as soon as the model asks for a hover.
 */
async function projectWithItsOwnTypeScript(root: string): Promise<{ dir: string; marker: string }> {
  const dir = path.join(root, 'cloned');
  await cp(FIXTURE, dir, { recursive: true });
  const sdk = path.join(dir, '.yarn', 'sdks', 'typescript');
  await mkdir(path.join(sdk, 'lib'), { recursive: true });
  await writeFile(path.join(sdk, 'package.json'), JSON.stringify({ name: 'typescript', version: '5.9.3' }));
  const marker = path.join(root, 'the-project-ran-code');
  await writeFile(
    path.join(sdk, 'lib', 'tsserver.js'),
    `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'pwned'); process.exit(1);\n`,
  );
  return { dir, marker };
}

/**
 * typescript-language-server installed as `npm install -g typescript-language-server typescript`
 * lays it out: the server and a TypeScript side by side in one node_modules.
 */
async function globalInstall(root: string): Promise<string> {
  const modules = path.join(root, 'global', 'lib', 'node_modules');
  await mkdir(modules, { recursive: true });
  await cp(serverPackage, path.join(modules, 'typescript-language-server'), { recursive: true, dereference: true });
  await symlink(goodTypeScript, path.join(modules, 'typescript'), 'dir');
  return path.join(modules, 'typescript-language-server', 'lib', 'cli.mjs');
}

/** The default TypeScript server's settings (no tsserver path), run by this Node. */
function defaultLikeServer(cli: string): LspServerConfig {
  return {
    command: process.execPath,
    args: [cli, '--stdio'],
    extensions: ['.ts', '.tsx', '.js'],
    initializationOptions: { tsserver: { useSyntaxServer: 'never' }, disableAutomaticTypingAcquisition: true },
  };
}

async function hover(options: { dir: string; home: string; cli: string; trustedProject?: boolean }) {
  const session = await createSession({
    cwd: options.dir,
    homeDir: options.home,
    stateDir: path.join(options.home, 'state'),
    families: [
      lspTools({ servers: { typescript: defaultLikeServer(options.cli) }, timeoutMs: 60_000, startTimeoutMs: 30_000 }),
    ],
    ...(options.trustedProject !== undefined ? { trustedProject: options.trustedProject } : {}),
  });
  try {
    const [block] = await session.run([
      {
        type: 'tool_use',
        id: 'h1',
        name: 'LSP',
        input: { operation: 'hover', filePath: 'src/main.ts', line: 5, character: 37 },
      },
    ]);
    return { text: contentToText(block!.content), isError: block!.is_error === true };
  } finally {
    await session.close();
  }
}

describe('LSP in a project the user has not trusted', () => {
  test("does not run the project's own TypeScript (.yarn/sdks/typescript/lib/tsserver.js) on a hover", async () => {
    const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-lsp-trust-')));
    roots.push(root);
    const { dir, marker } = await projectWithItsOwnTypeScript(root);
    const cli = await globalInstall(root);
    const result = await hover({ dir, home: path.join(root, 'home'), cli });
    expect(existsSync(marker)).toBe(false);
    // The TypeScript installed beside the server answers instead.
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('add(a: number, b: number): number');
  }, 90_000);

  test('refuses to start the server when no TypeScript outside the project is found, naming the fix', async () => {
    const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-lsp-trust-')));
    roots.push(root);
    const { dir, marker } = await projectWithItsOwnTypeScript(root);
    const modules = path.join(root, 'lonely', 'node_modules');
    await mkdir(modules, { recursive: true });
    await cp(serverPackage, path.join(modules, 'typescript-language-server'), { recursive: true, dereference: true });
    const cli = path.join(modules, 'typescript-language-server', 'lib', 'cli.mjs');
    const result = await hover({ dir, home: path.join(root, 'home'), cli });
    expect(existsSync(marker)).toBe(false);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`"${dir}" is not trusted`);
    expect(result.text).toContain('toolshed trust');
    expect(result.text).toContain('npm install -g typescript');
  }, 90_000);

  test("a trusted project's own TypeScript is used, as before", async () => {
    const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-lsp-trust-')));
    roots.push(root);
    const { dir, marker } = await projectWithItsOwnTypeScript(root);
    const cli = await globalInstall(root);
    await hover({ dir, home: path.join(root, 'home'), cli, trustedProject: true });
    expect(existsSync(marker)).toBe(true);
  }, 90_000);
});
