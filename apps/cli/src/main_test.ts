import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { EMPTY_HOME } from './_test_io.ts';
import { cliNodeArgs } from './_test_cli.ts';

const cliDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs the real entry point in a child process. tsx runs the TypeScript sources, and the
 * `@toolshed/source` condition makes the workspace packages resolve to their sources too, so the
 * test needs no `pnpm build`.
 */
function toolshed(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliNodeArgs(), ...args], {
      cwd: cliDir,
      // An empty HOME: the child must not read the real ~/.toolshed/settings.json.
      env: { ...process.env, TOOLSHED_DEBUG: '', HOME: EMPTY_HOME },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('the toolshed binary', () => {
  test('toolshed tools --json prints the pool of every family as JSON and exits 0', async () => {
    const r = await toolshed(['tools', '--json']);
    expect(r.code).toBe(0);
    // A family package that does not load (yet) is a warning on stderr, never a failure.
    for (const line of r.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^toolshed: (warn|info|error): /);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(Array.isArray(rows)).toBe(true);
    for (const row of rows)
      expect(Object.keys(row).sort()).toEqual([
        'concurrencySafe',
        'deferred',
        'description',
        'family',
        'name',
        'readOnly',
      ]);
  });

  test('toolshed exits 2 with the usage on a usage error', async () => {
    const r = await toolshed(['call', 'Read']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('missing <json|->');
    expect(r.stderr).toContain('Usage: toolshed call <Tool> <json|->');
  });

  test('toolshed check reads the input from a pipe and prints the decision', async () => {
    const r = await toolshed(['check', 'NoSuchTool', '-', '--json'], '{"x": 1}');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      behavior: 'deny',
      reason: expect.stringContaining('NoSuchTool'),
      rule: null,
      source: expect.any(String),
      suggestions: [],
    });
  });

  test('toolshed run replays a piped transcript and exits 1 when a result is an error', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'toolshed-bin-'));
    const transcript = JSON.stringify([[{ type: 'tool_use', id: 't1', name: 'NoSuchTool', input: {} }]]);
    const r = await toolshed(['run', '-', '--json', '--cwd', cwd], transcript);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.turns).toEqual([[expect.objectContaining({ tool_use_id: 't1', is_error: true })]]);
    expect(out.metrics.total.calls).toBe(1);
  });
});
