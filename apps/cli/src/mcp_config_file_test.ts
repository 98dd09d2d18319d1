import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli } from './_test_io.ts';
import { testTools } from './_test_tools.ts';
import { readMcpConfigFile } from './mcp_config_file.ts';
import { UsageError } from './usage_error.ts';

async function file(content: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-mcp-'));
  const f = path.join(dir, '.mcp.json');
  await writeFile(f, content);
  return f;
}

describe('readMcpConfigFile', () => {
  test('readMcpConfigFile returns the parsed object', async () => {
    const config = { mcpServers: { git: { command: 'mcp-server-git', args: [] } } };
    expect(await readMcpConfigFile(await file(JSON.stringify(config)), '/')).toEqual(config);
  });

  test('readMcpConfigFile rejects bad JSON with the file, line and column', async () => {
    const f = await file('{"mcpServers": {\n}}}');
    const error = await readMcpConfigFile(f, '/').catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(f);
    expect(error.message).toContain('--mcp-config');
    expect(error.message).toContain('line 2, column 3');
  });

  test('readMcpConfigFile rejects JSON that is not an object', async () => {
    const error = await readMcpConfigFile(await file('["git"]'), '/').catch((e: unknown) => e as Error);
    expect(error.message).toContain('holds a list, not an object');
  });

  test("a project's .mcp.json that is a FIFO, a device or over 1 MB stops the command at once, naming it, instead of hanging it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-mcp-'));
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    for (const target of [fifo, '/dev/zero']) {
      const project = await mkdtemp(path.join(tmpdir(), 'toolshed-mcp-'));
      await symlink(target, path.join(project, '.mcp.json'));
      const r = await cli(['tools', '--cwd', project], { tools: testTools, env: { NO_COLOR: '1' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `is not a regular file (a FIFO, a device or a socket is never read) (resolved to ${path.join(project, '.mcp.json')})`,
      );
    }
    const big = await mkdtemp(path.join(tmpdir(), 'toolshed-mcp-'));
    await writeFile(path.join(big, '.mcp.json'), `{"mcpServers": {}, "pad": "${'x'.repeat(1_100_000)}"}`);
    const r = await cli(['tools', '--cwd', big], { tools: testTools, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is over 1 MB');
    // A pipe the user names (--mcp-config <(…)) is still read.
    const named = await mkdtemp(path.join(tmpdir(), 'toolshed-mcp-'));
    const pipe = path.join(named, 'config-pipe');
    execFileSync('mkfifo', [pipe]);
    const writer = spawn('sh', ['-c', `printf '{"mcpServers": {}}' > ${pipe}`]);
    const written = new Promise((resolve) => writer.on('close', resolve));
    expect(await readMcpConfigFile(pipe, '/')).toEqual({ mcpServers: {} });
    await written;
  }, 20_000);
});
