// Runs the official MCP conformance suite's SERVER scenarios (@modelcontextprotocol/conformance,
// pinned in the root package.json) twice:
//
// 1. against `toolshed mcp serve --http PORT --no-auth --only fs`, the CLI as a user starts it
//    (the no-auth mode is kept for clients that cannot send a header; dns-rebinding-protection is
//    among the scenarios). Scenarios that call the suite's fixtures by name (test_image_content,
//    test://static-text, test_simple_prompt, …), which a Toolshed session does not have, are
//    listed in conformance_server.yml.
// 2. against serveSession with those fixtures as Toolshed offers them (a family of tools, a
//    resource source, a prompt source, the client's user and model as session services):
//    packages/mcp-bridge/src/testdata/conformance_fixture.ts. Scenarios Toolshed cannot express
//    are listed in conformance_server.fixture.yml.
//
// Any other failure, or a listed one that passes, fails the run.
//
//   pnpm build && tsx scripts/conformance_server.ts [--scenario NAME]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'apps', 'cli', 'dist', 'main.js');
const bridge = path.join(root, 'packages', 'mcp-bridge');
const fixture = path.join(bridge, 'src', 'testdata', 'conformance_fixture.ts');
const suite = path.join(root, 'node_modules', '.bin', 'conformance');

/** Starts a server process and resolves with the URL it prints on stderr. */
function start(child: ChildProcess, what: string, pattern: RegExp): Promise<{ url: string; stderr: () => string }> {
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 60 s:\n${stderr}`)), 60_000);
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = pattern.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, stderr: () => stderr });
      }
    });
    child.on('exit', (c) => reject(new Error(`${what} exited with ${c} before serving:\n${stderr}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  await closed;
}

function runSuite(url: string, baseline: string, output: string, cwd: string): Promise<number> {
  const args = [
    'server',
    '--url',
    url,
    '--expected-failures',
    baseline,
    '--output-dir',
    output,
    ...process.argv.slice(2),
  ];
  return new Promise<number>((resolve) => {
    const run = spawn(suite, args, { stdio: 'inherit', cwd });
    run.on('exit', (c) => resolve(c ?? 1));
  });
}

const work = await mkdtemp(path.join(tmpdir(), 'toolshed-conformance-'));
const codes: Record<string, number> = {};
const children: ChildProcess[] = [];
try {
  const served = spawn(
    process.execPath,
    [cli, 'mcp', 'serve', '--http', '0', '--no-auth', '--only', 'fs', '--cwd', work],
    { env: { ...process.env, HOME: work }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(served);
  const cliServer = await start(served, 'mcp serve', /serving \d+ tools at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  if (!cliServer.stderr().includes('WITHOUT authentication'))
    throw new Error(`mcp serve --no-auth printed no warning:\n${cliServer.stderr()}`);
  console.log(`\n== toolshed mcp serve (${cliServer.url}) ==`);
  codes['toolshed mcp serve'] = await runSuite(
    cliServer.url,
    path.join(root, 'scripts', 'conformance_server.yml'),
    path.join(work, 'results-cli'),
    work,
  );

  const fixtureServer = spawn(process.execPath, ['--conditions=@toolshed/source', '--import', 'tsx', fixture, work], {
    cwd: bridge,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(fixtureServer);
  const fixtureUrl = (
    await start(fixtureServer, 'the conformance fixture', /fixtures at (http:\/\/127\.0\.0\.1:\d+\/mcp)/)
  ).url;
  console.log(`\n== serveSession with the suite's fixtures (${fixtureUrl}) ==`);
  codes['serveSession with fixtures'] = await runSuite(
    fixtureUrl,
    path.join(root, 'scripts', 'conformance_server.fixture.yml'),
    path.join(work, 'results-fixture'),
    work,
  );
} finally {
  await Promise.all(children.map(stop));
  await rm(work, { recursive: true, force: true });
}
const failed = Object.entries(codes).filter(([, c]) => c !== 0);
console.log(
  failed.length === 0 && Object.keys(codes).length === 2
    ? 'conformance (server scenarios): passed (toolshed mcp serve, and serveSession with the fixtures)'
    : `conformance (server scenarios): FAILED (${failed.map(([what, c]) => `${what}: exit ${c}`).join('; ')}); see the summaries above`,
);
process.exit(failed.length === 0 ? 0 : 1);
