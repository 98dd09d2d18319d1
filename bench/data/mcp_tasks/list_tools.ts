// Lists the tools of real MCP servers from npm into `tools.json` beside this file.
//
//   mkdir /tmp/mcp-servers && cd /tmp/mcp-servers && npm init -y >/dev/null
//   npm install --ignore-scripts <the packages of SERVERS below>
//   npx tsx bench/data/mcp_tasks/list_tools.ts /tmp/mcp-servers
//
// Each server is started over stdio with the MCP SDK's client (dummy credentials: listing tools
// calls no API), asked for tools/list, and stopped. Nothing else is kept.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

interface ServerSpec {
  server: string;
  pkg: string;
  bin: string;
  args?: (dir: string) => string[];
  env?: Record<string, string>;
}

const SERVERS: ServerSpec[] = [
  { server: 'memory', pkg: '@modelcontextprotocol/server-memory', bin: 'mcp-server-memory' },
  { server: 'github', pkg: '@modelcontextprotocol/server-github', bin: 'mcp-server-github', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'dummy' } },
  { server: 'slack', pkg: '@modelcontextprotocol/server-slack', bin: 'mcp-server-slack', env: { SLACK_BOT_TOKEN: 'xoxb-dummy', SLACK_TEAM_ID: 'T0' } },
  { server: 'gitlab', pkg: '@modelcontextprotocol/server-gitlab', bin: 'mcp-server-gitlab', env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy' } },
  { server: 'google-maps', pkg: '@modelcontextprotocol/server-google-maps', bin: 'mcp-server-google-maps', env: { GOOGLE_MAPS_API_KEY: 'dummy' } },
  { server: 'brave-search', pkg: '@modelcontextprotocol/server-brave-search', bin: 'mcp-server-brave-search', env: { BRAVE_API_KEY: 'dummy' } },
  { server: 'postgres', pkg: '@modelcontextprotocol/server-postgres', bin: 'mcp-server-postgres', args: () => ['postgresql://127.0.0.1:1/none'] },
  { server: 'redis', pkg: '@modelcontextprotocol/server-redis', bin: 'mcp-server-redis', args: () => ['redis://127.0.0.1:1'] },
  { server: 'notion', pkg: '@notionhq/notion-mcp-server', bin: 'notion-mcp-server', env: { NOTION_TOKEN: 'dummy' } },
  { server: 'chart', pkg: '@antv/mcp-server-chart', bin: 'mcp-server-chart' },
  { server: 'taskmanager', pkg: '@kazuph/mcp-taskmanager', bin: 'mcp-taskmanager' },
  { server: 'playwright', pkg: '@playwright/mcp', bin: 'playwright-mcp' },
  { server: 'firecrawl', pkg: 'firecrawl-mcp', bin: 'firecrawl-mcp', env: { FIRECRAWL_API_KEY: 'fc-dummy' } },
  { server: 'tavily', pkg: 'tavily-mcp', bin: 'tavily-mcp', env: { TAVILY_API_KEY: 'tvly-dummy' } },
  { server: 'kubernetes', pkg: 'mcp-server-kubernetes', bin: 'mcp-server-kubernetes' },
  { server: 'sequential-thinking', pkg: '@modelcontextprotocol/server-sequential-thinking', bin: 'mcp-server-sequential-thinking' },
];

async function main(): Promise<void> {
  const root = process.argv[2];
  if (!root) throw new Error('Give the folder where the servers were installed: npx tsx list_tools.ts /tmp/mcp-servers');
  const home = await mkdtemp(path.join(os.tmpdir(), 'mcp-list-'));
  const tools: { server: string; package: string; version: string; name: string; description: string; inputSchema: unknown }[] = [];
  const skipped: string[] = [];
  try {
    for (const spec of SERVERS) {
      const pkgJson = JSON.parse(await readFile(path.join(root, 'node_modules', spec.pkg, 'package.json'), 'utf8')) as { version: string };
      const client = new Client({ name: 'toolshed-list', version: '0.0.0' });
      const transport = new StdioClientTransport({
        command: path.join(root, 'node_modules/.bin', spec.bin),
        args: spec.args?.(home) ?? [],
        env: { PATH: process.env['PATH'] ?? '', HOME: home, MEMORY_FILE_PATH: path.join(home, 'memory.json'), ...spec.env },
        stderr: 'ignore',
        cwd: home,
      });
      try {
        await Promise.race([client.connect(transport), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 20_000))]);
        const listed = await client.listTools();
        for (const t of listed.tools) tools.push({ server: spec.server, package: spec.pkg, version: pkgJson.version, name: t.name, description: t.description ?? '', inputSchema: t.inputSchema });
        console.log(`${spec.server}: ${listed.tools.length} tools`);
      } catch (e) {
        skipped.push(`${spec.server}: ${(e as Error).message}`);
        console.log(`${spec.server}: skipped (${(e as Error).message})`);
      } finally {
        await client.close().catch(() => {});
      }
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tools.json');
  await writeFile(out, `${JSON.stringify({ listedWith: '@modelcontextprotocol/sdk Client, tools/list over stdio', skipped, tools }, null, 1)}\n`);
  console.log(`${tools.length} tools written to ${out}`);
}

await main();
