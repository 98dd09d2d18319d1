// Claude Code settings that stopped a Claude Code project (exit 2) or were read otherwise: the
// permission mode "auto" (and its alias "manual"), a top-level key Toolshed does not know, the
// settings' `env` for the servers of .mcp.json and their `${VAR}`, and .mcp.json's
// `headersHelper` and "ws" servers. Each test writes a Claude Code project and runs the real
// `toolshed` with a fake HOME.
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { tempDir } from './_test_io.ts';
import { startToolshed } from './_test_process.ts';

const FAULT_SERVER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/mcp-bridge/src/testdata/fault_server.mjs',
);

interface Project {
  root: string;
  cwd: string;
  run(args: string[]): Promise<{ code: number | null; out: string }>;
}

async function claudeProject(
  files: { settings?: unknown; mcp?: unknown },
  options: { trusted?: boolean } = {},
): Promise<Project> {
  const root = await realpath(await tempDir());
  const cwd = path.join(root, 'proj');
  const home = path.join(root, 'home');
  await mkdir(path.join(cwd, '.claude'), { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(path.join(cwd, '.env'), 'SECRET=1\n');
  if (files.settings !== undefined)
    await writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify(files.settings));
  if (files.mcp !== undefined) await writeFile(path.join(cwd, '.mcp.json'), JSON.stringify(files.mcp));
  const run: Project['run'] = async (args) => {
    // Started from the repository (where tsx resolves when the bundle is older than the sources).
    const full = args[0] === 'trust' ? args : [...args, '--cwd', cwd];
    const p = startToolshed(full, { home });
    const code = await p.exited;
    return { code, out: p.stdout() + p.stderr() };
  };
  if (options.trusted !== false) {
    const trusted = await run(['trust', cwd]);
    expect(trusted.code, trusted.out).toBe(0);
  }
  return { root, cwd, run };
}

describe('permissions.defaultMode as Claude Code writes it', () => {
  test('"auto" is a warning and asks as "default" does: it neither stops the command nor allows more', async () => {
    const p = await claudeProject({ settings: { permissions: { defaultMode: 'auto', deny: ['Read(./.env)'] } } });
    const r = await p.run(['call', 'Bash', '{"command":"touch made"}', '--only', 'shell']);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('needs approval');
    expect(r.out).toContain('permissions.defaultMode "auto" is Claude Code\'s classifier mode');
    expect(existsSync(path.join(p.cwd, 'made'))).toBe(false);
    const denied = await p.run(['check', 'Read', '{"file_path":".env"}', '--json']);
    expect(JSON.parse(denied.out.slice(0, denied.out.lastIndexOf('}') + 1))).toMatchObject({ behavior: 'deny' });
  });

  test('"manual", Claude Code\'s name for "default", is read as "default"', async () => {
    const p = await claudeProject({ settings: { permissions: { defaultMode: 'manual' } } });
    const r = await p.run(['call', 'Bash', '{"command":"touch made"}', '--only', 'shell']);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('needs approval');
  });
});

describe('a top-level key of .claude/settings.json that Toolshed does not know', () => {
  test('is a warning, as Claude Code ignores it, and the rest of the file applies', async () => {
    const p = await claudeProject({ settings: { voiceEnabled: true, permissions: { deny: ['Read(./.env)'] } } });
    const r = await p.run(['call', 'Read', '{"file_path":".env"}', '--only', 'fs']);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('"voiceEnabled" is not a setting Toolshed knows');
    expect(r.out).toContain('Read(./.env)');
    expect(r.out).not.toContain('SECRET=1');
  });

  test('a misspelt key that Toolshed reads still stops the command, naming the fix', async () => {
    const p = await claudeProject({ settings: { permisions: { deny: ['Read(./.env)'] } } });
    const r = await p.run(['call', 'Read', '{"file_path":".env"}', '--only', 'fs']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('Did you mean "permissions"?');
  });
});

/** A stdio server of .mcp.json that writes what it sees to `marker`, then serves MCP. */
function recordingServer(marker: string) {
  return {
    command: 'sh',
    args: [
      '-c',
      `echo "arg=$1 env=$TOKEN" > '${marker}'; exec "${process.execPath}" '${FAULT_SERVER}'`,
      'sh',
      '${TOKEN:-unset}',
    ],
  };
}

describe("the settings' env reaches the servers of .mcp.json, as Claude Code's session environment does", () => {
  test('a trusted project: ${TOKEN} in args expands from it, and the server process has it', async () => {
    const root = await realpath(await tempDir());
    const marker = path.join(root, 'seen');
    const p = await claudeProject({
      settings: { env: { TOKEN: 'from-settings' } },
      mcp: { mcpServers: { rec: recordingServer(marker) } },
    });
    const r = await p.run(['tools', '--only', 'mcp']);
    expect(r.code, r.out).toBe(0);
    expect(await readFile(marker, 'utf8')).toBe('arg=from-settings env=from-settings\n');
  });

  test("an untrusted project's env does not reach a server named with --mcp-config", async () => {
    const root = await realpath(await tempDir());
    const marker = path.join(root, 'seen');
    const p = await claudeProject({ settings: { env: { TOKEN: 'from-project' } } }, { trusted: false });
    const config = path.join(root, 'servers.json');
    await writeFile(config, JSON.stringify({ mcpServers: { rec: recordingServer(marker) } }));
    const r = await p.run(['tools', '--only', 'mcp', '--mcp-config', config]);
    expect(r.code, r.out).toBe(0);
    expect(await readFile(marker, 'utf8')).toBe('arg=unset env=\n');
  });
});

test('.mcp.json with Claude Code\'s "headersHelper" and a "ws" server loads, with a warning for each', async () => {
  const root = await realpath(await tempDir());
  const marker = path.join(root, 'seen');
  const p = await claudeProject({
    mcp: {
      mcpServers: {
        rec: recordingServer(marker),
        remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', headersHelper: './get-token.sh' },
        socket: { type: 'ws', url: 'ws://127.0.0.1:9/mcp' },
      },
    },
  });
  const r = await p.run(['tools', '--only', 'mcp']);
  expect(r.code, r.out).toBe(0);
  expect(r.out).toContain('server "remote" has "headersHelper"');
  expect(r.out).toContain('server "socket" is "type": "ws"');
  expect(r.out).toContain('mcp__rec__pid');
});

test('a deny rule "Skill(deploy)" of .claude/settings.json holds the deploy skill back, even from an untrusted project', async () => {
  const p = await claudeProject(
    { settings: { permissions: { deny: ['Skill(deploy)'], ask: ['Skill(release:*)'] } } },
    { trusted: false },
  );
  for (const name of ['deploy', 'release-notes', 'lint']) {
    await mkdir(path.join(p.cwd, '.claude', 'skills', name), { recursive: true });
    await writeFile(
      path.join(p.cwd, '.claude', 'skills', name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: The ${name} skill.\n---\nSTEPS OF ${name.toUpperCase()}\n`,
    );
  }
  const denied = await p.run(['call', 'Skill', '{"skill":"deploy"}', '--only', 'agent']);
  expect(denied.code, denied.out).toBe(1);
  expect(denied.out).toContain('Skill(deploy)');
  expect(denied.out).not.toContain('STEPS OF DEPLOY');
  const slash = await p.run(['call', 'Skill', '{"skill":"/deploy"}', '--only', 'agent']);
  expect(slash.out).not.toContain('STEPS OF DEPLOY');
  const asked = await p.run(['call', 'Skill', '{"skill":"release-notes"}', '--only', 'agent']);
  expect(asked.code, asked.out).toBe(1);
  expect(asked.out).toContain('Skill(release:*)');
  const other = await p.run(['call', 'Skill', '{"skill":"lint"}', '--only', 'agent']);
  expect(other.code, other.out).toBe(0);
  expect(other.out).toContain('STEPS OF LINT');
});
