// How tests start a real `toolshed` process: the bundle users run (bin/toolshed.js, written by
// `pnpm build`, which `pnpm test` runs first), or, when the bundle is missing or older than a
// source file (a test run right after an edit), the sources through tsx.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolshed.js', import.meta.url));
const bundleMain = fileURLToPath(new URL('../dist/bundle/main.js', import.meta.url));
const main = fileURLToPath(new URL('./main.ts', import.meta.url));

function newestSource(dir: string, newest = 0): number {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'testdata') newest = newestSource(full, newest);
    } else if (entry.name.endsWith('.ts') && !/(_test\.ts|^_test_.*)$/.test(entry.name)) {
      newest = Math.max(newest, statSync(full).mtimeMs);
    }
  }
  return newest;
}

function bundleIsFresh(): boolean {
  if (!existsSync(bundleMain)) return false;
  const built = statSync(bundleMain).mtimeMs;
  const sources = [
    path.join(repo, 'apps/cli/src'),
    ...readdirSync(path.join(repo, 'packages')).map((p) => path.join(repo, 'packages', p, 'src')),
  ];
  return sources.every((dir) => !existsSync(dir) || newestSource(dir) <= built);
}

let chosen: readonly string[] | undefined;

/**
 * The arguments to give `node` (before the CLI's own) to start `toolshed`: the bundle when it is
 * at least as new as every source file, else `main.ts` through tsx (which resolves from the
 * CLI's folder, so spawn with that `cwd` or one inside the repository).
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process';
 * import { cliNodeArgs } from './_test_cli.ts';
 *
 * spawn(process.execPath, [...cliNodeArgs(), '--version']);
 * ```
 */
export function cliNodeArgs(): readonly string[] {
  chosen ??= bundleIsFresh() ? [bin] : ['--conditions=@toolshed/source', '--import', 'tsx', main];
  return chosen;
}
