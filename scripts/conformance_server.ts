// Runs the official MCP conformance suite's SERVER scenarios (@modelcontextprotocol/conformance,
// pinned in the root package.json) against `toolshed mcp serve --http PORT --no-auth`, the mode
// kept for clients that cannot send a header; dns-rebinding-protection is among them. Scenarios
// the served session cannot pass (it has no fixture tools, resources or prompts) are listed in
// conformance_server.yml; any other failure, or a listed one that passes, fails the run.
//
//   pnpm build && tsx scripts/conformance_server.ts [--scenario NAME]
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'apps', 'cli', 'dist', 'main.js');
const suite = path.join(root, 'node_modules', '.bin', 'conformance');
const baseline = path.join(root, 'scripts', 'conformance_server.yml');

const work = await mkdtemp(path.join(tmpdir(), 'toolshed-conformance-'));
const server = spawn(
  process.execPath,
  [cli, 'mcp', 'serve', '--http', '0', '--no-auth', '--only', 'fs', '--cwd', work],
  {
    env: { ...process.env, HOME: work },
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let stderr = '';
let code = 1;
try {
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcp serve did not start within 60 s:\n${stderr}`)), 60_000);
    server.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /serving \d+ tools at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    server.on('exit', (c) => reject(new Error(`mcp serve exited with ${c} before serving:\n${stderr}`)));
  });
  if (!stderr.includes('WITHOUT authentication')) throw new Error(`mcp serve --no-auth printed no warning:\n${stderr}`);
  const args = [
    'server',
    '--url',
    url,
    '--expected-failures',
    baseline,
    '--output-dir',
    path.join(work, 'results'),
    ...process.argv.slice(2),
  ];
  code = await new Promise<number>((resolve) => {
    const run = spawn(suite, args, { stdio: 'inherit', cwd: work });
    run.on('exit', (c) => resolve(c ?? 1));
  });
  console.log(
    code === 0
      ? 'conformance (server scenarios): passed'
      : `conformance (server scenarios): FAILED (exit ${code}); see the summary above`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('close', resolve));
  await rm(work, { recursive: true, force: true });
}
process.exit(code);
