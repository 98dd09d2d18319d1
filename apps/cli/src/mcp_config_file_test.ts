import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
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
});
