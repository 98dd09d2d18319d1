import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The packages whose versions `toolshed --version` prints after the CLI's own. */
const PACKAGES = [
  '@toolshed/core',
  '@toolshed/tool-fs',
  '@toolshed/tool-shell',
  '@toolshed/tool-web',
  '@toolshed/tool-lsp',
  '@toolshed/tool-agent',
  '@toolshed/toolsearch',
  '@toolshed/mcp-bridge',
] as const;

/**
 * The text of `toolshed --version`: the CLI's version, then each family package's, read from
 * the `package.json` of the copy this CLI really loads (found from where its entry resolves,
 * since the packages do not export their `package.json`).
 *
 * @param cliVersion The CLI's own version.
 * @returns One line per package: `toolshed 0.1.0`, then `  @toolshed/core 0.1.0`, ….
 *
 * @example
 * ```ts
 * import { versionText } from './_versions.ts';
 *
 * process.stdout.write(versionText('0.1.0'));
 * ```
 */
export function versionText(cliVersion: string): string {
  const lines = [`toolshed ${cliVersion} (@toolshed/cli)`];
  const width = Math.max(...PACKAGES.map((p) => p.length));
  for (const name of PACKAGES) lines.push(`  ${name.padEnd(width)}  ${packageVersion(name) ?? 'not installed'}`);
  return `${lines.join('\n')}\n`;
}

function packageVersion(name: string): string | undefined {
  let entry: string;
  try {
    entry = fileURLToPath(import.meta.resolve(name));
  } catch {
    return undefined;
  }
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (json.name === name) return json.version;
      } catch {
        return undefined;
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
