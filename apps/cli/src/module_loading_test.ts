// Issue 18: each command imports only what it uses. Checked through the modules a real `toolshed`
// process loads: a loader hook (registered with --import before the CLI starts) appends every
// module URL it loads to a file, which the test reads when the process has ended.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
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

/** Runs `toolshed ARGS` from the sources and returns the exit code and the module URLs it loaded. */
async function loadedModules(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; modules: string[]; stderr: string }> {
  const log = path.join(cwd, `modules-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(log, '');
  const child = spawn(
    process.execPath,
    ['--import', REGISTER, '--conditions=@toolshed/source', '--import', 'tsx', main, ...args],
    {
      cwd: cliDir,
      env: { ...process.env, HOME: cwd, TOOLSHED_DEBUG: '', TOOLSHED_MODULE_LOG: log },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const modules = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  return { code, modules, stderr };
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

test('the hook sees the modules a command loads (the check can fail)', async () => {
  const cwd = await tempDir();
  await writeFile(path.join(cwd, 'a.txt'), 'hello\n');
  const { code, modules, stderr } = await loadedModules(['call', 'Read', '{"file_path":"a.txt"}', '--cwd', cwd], cwd);
  expect(code, stderr).toBe(0);
  // Without --only, every family is loaded: the list names them all.
  expect(packagesIn(modules)).toEqual(['core', ...FAMILIES].sort());
}, 60_000);

test('toolshed --help, <command> --help and --version load neither core nor any family', async () => {
  const cwd = await tempDir();
  for (const args of [['--help'], ['call', '--help'], ['help', 'check'], ['--version']]) {
    const { code, modules, stderr } = await loadedModules(args, cwd);
    expect(code, stderr).toBe(0);
    expect(
      modules.some((u) => u.endsWith('/run_cli.ts')),
      `${args.join(' ')}: the CLI ran`,
    ).toBe(true);
    expect(packagesIn(modules), args.join(' ')).toEqual([]);
  }
}, 60_000);

test('call Read --only fs loads core and tool-fs only; check Bash --only shell loads tool-shell only', async () => {
  const cwd = await tempDir();
  await writeFile(path.join(cwd, 'a.txt'), 'hello\n');
  const read = await loadedModules(['call', 'Read', '{"file_path":"a.txt"}', '--only', 'fs', '--cwd', cwd], cwd);
  expect(read.code, read.stderr).toBe(0);
  expect(packagesIn(read.modules)).toEqual(['core', 'tool-fs']);
  // No MCP SDK, model SDK or HTTP client for a local file read.
  expect(read.modules.filter((u) => /@modelcontextprotocol|@anthropic-ai|\/openai@|undici|ajv/.test(u))).toEqual([]);
  const bash = await loadedModules(['check', 'Bash', '{"command":"ls"}', '--only', 'shell', '--cwd', cwd], cwd);
  expect(bash.code, bash.stderr).toBe(0);
  expect(packagesIn(bash.modules)).toEqual(['core', 'tool-shell']);
}, 60_000);
