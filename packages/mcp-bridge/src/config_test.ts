import { describe, expect, test } from 'vitest';
import { expandVariables, parseMcpConfig } from './config.ts';

describe('parseMcpConfig', () => {
  test('reads stdio, http and sse servers in Claude Code format and expands variables everywhere', () => {
    const env = { TOKEN: 'secret', HOME: '/home/me' };
    const servers = parseMcpConfig(
      {
        mcpServers: {
          git: {
            command: '${HOME}/bin/git-mcp',
            args: ['--repo', '${REPO:-.}'],
            env: { GIT_TOKEN: '${TOKEN}' },
            cwd: '${HOME}',
          },
          api: {
            type: 'http',
            url: 'https://api.example.com/mcp',
            headers: { Authorization: 'Bearer ${TOKEN}' },
            timeout: 5000,
          },
          old: { type: 'sse', url: 'http://127.0.0.1:${PORT:-9000}/sse' },
          implicit: { url: 'http://localhost/mcp' },
        },
      },
      { env },
    );
    expect(servers).toEqual({
      git: { command: '/home/me/bin/git-mcp', args: ['--repo', '.'], env: { GIT_TOKEN: 'secret' }, cwd: '/home/me' },
      api: {
        type: 'http',
        url: 'https://api.example.com/mcp',
        headers: { Authorization: 'Bearer secret' },
        timeout: 5000,
      },
      old: { type: 'sse', url: 'http://127.0.0.1:9000/sse' },
      implicit: { type: 'http', url: 'http://localhost/mcp' },
    });
  });

  test('an empty object and a file without mcpServers give no servers', () => {
    expect(parseMcpConfig({})).toEqual({});
  });

  test('each mistake is named with the server, the key and the fix', () => {
    const bad = (value: unknown) => () => parseMcpConfig(value, { env: {}, source: '.mcp.json' });
    expect(bad([])).toThrow('.mcp.json must be an object like {"mcpServers": {...}}, got a list');
    expect(bad({ mcpServers: [] })).toThrow(
      '"mcpServers" in .mcp.json must be an object of servers by name, got a list',
    );
    expect(bad({ mcpServers: { a: 'npx a' } })).toThrow(
      'server "a" in .mcp.json must be an object with "command" or "url", got string "npx a"',
    );
    expect(bad({ mcpServers: { a: {} } })).toThrow(
      'server "a" in .mcp.json needs a "command" (a stdio server) or a "url"',
    );
    expect(bad({ mcpServers: { a: { command: 'x', args: 'y' } } })).toThrow(
      '"args" of server "a" in .mcp.json must be a list of strings, got string "y"',
    );
    expect(bad({ mcpServers: { a: { command: 'x', cmd: 'y' } } })).toThrow(
      'server "a" in .mcp.json has an unknown key "cmd"',
    );
    expect(bad({ mcpServers: { a: { type: 'ws', url: 'ws://x' } } })).toThrow(
      '"type" of server "a" in .mcp.json must be "stdio", "http" or "sse", got string "ws"',
    );
    expect(bad({ mcpServers: { a: { type: 'http', url: 'nope' } } })).toThrow(
      '"url" of server "a" in .mcp.json is not a valid URL: "nope"',
    );
    expect(bad({ mcpServers: { a: { command: 'x', timeout: -1 } } })).toThrow(
      '"timeout" of server "a" in .mcp.json must be a positive number of milliseconds, got number -1',
    );
    expect(bad({ mcpServers: { a: { command: 'x', url: 'http://x' } } })).toThrow(
      'server "a" in .mcp.json has both "url" and "command"; keep one',
    );
    expect(bad({ mcpServers: { a: { type: 'stdio', command: 'x', headers: {} } } })).toThrow(
      'is a stdio server; "url" and "headers" are for "type": "http" or "sse"',
    );
    expect(bad({ mcpServers: { a: { command: '${MISSING}' } } })).toThrow(
      '"command" of server "a" in .mcp.json uses ${MISSING}, which is not set',
    );
  });
});

describe('expandVariables', () => {
  test('uses the value, else the default, and keeps text without variables as is', () => {
    expect(expandVariables('${A}-${B:-two}-${C:-}', { env: { A: 'one' }, where: 'x' })).toBe('one-two-');
    expect(expandVariables('$A and ${not closed', { env: {}, where: 'x' })).toBe('$A and ${not closed');
    expect(expandVariables('${EMPTY:-fallback}', { env: { EMPTY: '' }, where: 'x' })).toBe('fallback');
  });

  test('servers given without the "mcpServers" key are an error naming the key, not silently no servers', () => {
    expect(() =>
      parseMcpConfig({ github: { type: 'http', url: 'https://x.example/mcp' } }, { source: '.mcp.json' }),
    ).toThrow(
      '.mcp.json has a server "github" at the top level; servers go under the "mcpServers" key: {"mcpServers": {"github": {...}}}',
    );
    expect(() => parseMcpConfig({ git: { command: 'git-mcp' } })).toThrow('servers go under the "mcpServers" key');
  });

  test('oauth and sampling are read and checked, with the fix in the message', () => {
    const servers = parseMcpConfig(
      {
        mcpServers: {
          api: {
            type: 'http',
            url: 'https://api.example.com/mcp',
            oauth: { clientId: '${CID}', scope: 'read write', callbackPort: 8765 },
            sampling: 'allow',
          },
          machine: {
            type: 'http',
            url: 'https://m.example.com/mcp',
            oauth: { grantType: 'client_credentials', clientId: 'bot', clientSecret: '${SECRET}' },
          },
        },
      },
      { env: { CID: 'toolshed-cli', SECRET: 's3' } },
    );
    expect(servers.api).toEqual({
      type: 'http',
      url: 'https://api.example.com/mcp',
      oauth: { clientId: 'toolshed-cli', scope: 'read write', callbackPort: 8765 },
      sampling: 'allow',
    });
    expect(servers.machine).toMatchObject({
      oauth: { grantType: 'client_credentials', clientId: 'bot', clientSecret: 's3' },
    });
    const bad = (server: unknown) => () =>
      parseMcpConfig({ mcpServers: { s: server } }, { env: {}, source: '.mcp.json' });
    expect(bad({ command: 'x', oauth: {} })).toThrow(
      'server "s" in .mcp.json is a stdio server; "oauth" is for remote servers',
    );
    expect(bad({ url: 'https://x/mcp', oauth: { clientID: 'a' } })).toThrow(
      '"oauth" of server "s" in .mcp.json has an unknown key "clientID"; the keys are clientId, clientSecret',
    );
    expect(bad({ url: 'https://x/mcp', oauth: { callbackPort: 99999 } })).toThrow(
      '"oauth.callbackPort" of server "s" in .mcp.json must be a port number (1-65535), got number 99999',
    );
    expect(bad({ url: 'https://x/mcp', oauth: { grantType: 'client_credentials', clientId: 'a' } })).toThrow(
      'needs "clientId" and either "clientSecret" or "privateKey"',
    );
    expect(bad({ command: 'x', sampling: 'yes' })).toThrow(
      '"sampling" of server "s" in .mcp.json must be "ask", "allow" or "deny", got string "yes"',
    );
  });
});
