// Issue 18: each command imports only what it uses. Checked through the modules a real `toolshed`
// process loads: a loader hook (registered with --import before the CLI starts) appends every
// module URL it loads to a file, which the test reads when the process has ended. Both ways the
// CLI runs are checked: from the sources, and the bundle `pnpm build` writes (bin/toolshed.js),
// whose files are mapped back to the sources in them through the build's metafile.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolshed.js', import.meta.url));
const bundleDir = fileURLToPath(new URL('../dist/bundle/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** How each way starts the CLI, and whether its loaded files are bundle files to map. */
const WAYS = {
  'from the sources': { args: ['--conditions=@toolshed/source', '--import', 'tsx', main], bundled: false },
  'the built bundle': { args: [bin], bundled: true },
} as const;
type Way = keyof typeof WAYS;
// tsx is resolved from where the process starts: the CLI's folder. Commands get --cwd.
const cliDir = fileURLToPath(new URL('..', import.meta.url));
const FAMILIES = ['tool-fs', 'tool-shell', 'tool-web', 'tool-agent', 'tool-lsp', 'toolsearch', 'mcp-bridge'];

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.TOOLSHED_MODULE_LOG, url + '\\n');
  return next(url, context);
}`;
const REGISTER = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`,
)}`;

/**
 * Runs `toolshed ARGS` one way and returns the exit code and the module URLs it loaded (for the
 * bundle, the URLs of the sources each loaded bundle file holds).
 */
async function loadedModules(
  way: Way,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; modules: string[]; stderr: string }> {
  const log = path.join(cwd, `modules-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(log, '');
  const child = spawn(process.execPath, ['--import', REGISTER, ...WAYS[way].args, ...args], {
    cwd: cliDir,
    env: { ...process.env, HOME: cwd, TOOLSHED_DEBUG: '', TOOLSHED_MODULE_LOG: log },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  return { code, modules: WAYS[way].bundled ? await sourcesInBundleFiles(loaded) : loaded, stderr };
}

/** Each bundle file's URL replaced by the URLs of the sources it holds (esbuild's metafile). */
async function sourcesInBundleFiles(urls: readonly string[]): Promise<string[]> {
  const meta = JSON.parse(await readFile(path.join(bundleDir, 'meta.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  const inputsOf = new Map(
    Object.entries(meta.outputs).map(([out, { inputs }]) => [
      pathToFileURL(path.join(repoRoot, out)).href,
      Object.keys(inputs).map((input) => pathToFileURL(path.join(repoRoot, input)).href),
    ]),
  );
  return urls.flatMap((url) => inputsOf.get(url) ?? [url]);
}

/** The Toolshed packages among the modules: `core` and the family directory names. */
function packagesIn(modules: readonly string[]): string[] {
  const found = new Set<string>();
  for (const url of modules) {
    const m = /\/(?:packages|node_modules\/@toolshed)\/([\w-]+)\//.exec(url);
    if (m) found.add(m[1]!);
  }
  return [...found].sort();
}

async function tempDir(): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-modules-')));
}

describe.each(Object.keys(WAYS) as Way[])('%s', (way) => {
  test('the hook sees the modules a command loads (the check can fail)', async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, 'a.txt'), 'hello\n');
    const { code, modules, stderr } = await loadedModules(
      way,
      ['call', 'Read', '{"file_path":"a.txt"}', '--cwd', cwd],
      cwd,
    );
    expect(code, stderr).toBe(0);
    // Without --only, every family is loaded: the list names them all.
    expect(packagesIn(modules)).toEqual(['core', ...FAMILIES].sort());
  }, 60_000);

  test('toolshed --help, <command> --help and --version load neither core nor any family', async () => {
    const cwd = await tempDir();
    for (const args of [['--help'], ['call', '--help'], ['help', 'check'], ['--version']]) {
      const { code, modules, stderr } = await loadedModules(way, args, cwd);
      expect(code, stderr).toBe(0);
      expect(
        modules.some((u) => /\/run_cli\.(ts|js)$/.test(u)),
        `${args.join(' ')}: the CLI ran`,
      ).toBe(true);
      expect(packagesIn(modules), args.join(' ')).toEqual([]);
    }
  }, 60_000);

  test('call Read --only fs loads core and tool-fs only; check Bash --only shell loads tool-shell only', async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, 'a.txt'), 'hello\n');
    const read = await loadedModules(way, ['call', 'Read', '{"file_path":"a.txt"}', '--only', 'fs', '--cwd', cwd], cwd);
    expect(read.code, read.stderr).toBe(0);
    expect(packagesIn(read.modules)).toEqual(['core', 'tool-fs']);
    // No MCP SDK, model SDK or HTTP client for a local file read.
    expect(read.modules.filter((u) => /@modelcontextprotocol|@anthropic-ai|\/openai@|undici|ajv/.test(u))).toEqual([]);
    const bash = await loadedModules(way, ['check', 'Bash', '{"command":"ls"}', '--only', 'shell', '--cwd', cwd], cwd);
    expect(bash.code, bash.stderr).toBe(0);
    expect(packagesIn(bash.modules)).toEqual(['core', 'tool-shell']);
  }, 60_000);
});
