// Runs the MCP conformance suite's client scenarios (`@modelcontextprotocol/conformance`, pinned
// in examples/package.json, its SDK pinned by pnpm-workspace.yaml's override) against
// examples/src/mcp_conformance_client.ts, a client built on @toolshed/mcp-bridge the way an
// integrator builds one. Part of `pnpm test` (after the build: the client imports dist).
//
//   tsx scripts/conformance_client.ts [--source] [scenario …]
//
// --source runs the client on the packages' sources instead of dist. Exit 0 when every scenario
// passes; the last line is "N passed, N failed".
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const examples = path.join(root, 'examples');
const requireFromExamples = createRequire(path.join(examples, 'package.json'));
const suiteBin = path.join(
  path.dirname(requireFromExamples.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
const tsx = createRequire(path.join(root, 'package.json')).resolve('tsx');
const client = path.join(examples, 'src', 'mcp_conformance_client.ts');

const args = process.argv.slice(2);
const source = args.includes('--source');
const only = args.filter((a) => !a.startsWith('--'));

/** The client scenarios of the pinned suite (`conformance list --client`). */
async function scenarios(): Promise<string[]> {
  const { stdout } = await run(process.execPath, [suiteBin, 'list', '--client']);
  return stdout
    .split('\n')
    .map((l) => /^\s+-\s+(\S+)/.exec(l)?.[1])
    .filter((s): s is string => s !== undefined);
}

function run(
  command: string,
  argv: string[],
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

const list = only.length > 0 ? only : await scenarios();
if (list.length === 0)
  throw new Error(
    'the conformance suite listed no client scenarios; is @modelcontextprotocol/conformance installed (pnpm install)?',
  );
const command = [process.execPath, ...(source ? ['--conditions=@toolshed/source'] : []), '--import', tsx, client].join(
  ' ',
);
let passed = 0;
const failures: string[] = [];
for (const scenario of list) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'toolshed-conformance-'));
  const result = await run(process.execPath, [
    suiteBin,
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    '-o',
    out,
    '--timeout',
    '60000',
  ]);
  const checks: Check[] = [];
  for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    if (path.basename(file) !== 'checks.json') continue;
    try {
      checks.push(...(JSON.parse(readFileSync(path.join(out, file), 'utf8')) as Check[]));
    } catch {
      // A scenario that did not get to write its checks fails on its verdict below.
    }
  }
  const bad = checks.filter((c) => c.status === 'FAILURE');
  // The suite's verdict: a scenario may expect the client to fail (a resource that does not
  // match), so the client's exit code alone does not say.
  const verdict = /OVERALL: (PASSED|FAILED)/.exec(result.stdout + result.stderr)?.[1];
  if (verdict === 'PASSED' && bad.length === 0 && checks.length > 0) {
    passed++;
    console.log(`  ok    ${scenario}`);
  } else {
    const why =
      bad.map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`).join('; ') ||
      result.stderr.trim().split('\n').slice(-3).join(' / ') ||
      `exit ${result.code}`;
    failures.push(scenario);
    console.log(`  FAIL  ${scenario} — ${why.slice(0, 400)}`);
  }
  rmSync(out, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
