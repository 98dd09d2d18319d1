import { request } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { directConnect, type ConnectFunction, type ConnectTarget } from './mod.ts';
import { pinnedAgent, type GuardedHost } from './internal/mod.ts';
import { startServer, type LoopbackServer } from './testdata/loopback_server.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(): Promise<LoopbackServer> {
  const server = await startServer((req, res) => res.end(`hello ${req.headers.host}`));
  servers.push(server);
  return server;
}

const host = (hostname: string, ...addresses: string[]): GuardedHost => ({
  hostname,
  addresses: addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  isPrivate: true,
});

describe('pinnedAgent', () => {
  test('pinnedAgent dials the checked address for the checked name, whatever the name would resolve to', async () => {
    const server = await serve();
    const targets: ConnectTarget[] = [];
    const connect: ConnectFunction = (target) => {
      targets.push(target);
      return directConnect(target);
    };
    // `pinned.test` resolves nowhere: the request succeeds only because no lookup is made.
    const agent = pinnedAgent(host('pinned.test', '127.0.0.1'), { connect, signal: new AbortController().signal });
    try {
      const response = await request(`http://pinned.test:${server.port}/`, { dispatcher: agent });
      expect(await response.body.text()).toBe(`hello pinned.test:${server.port}`);
    } finally {
      await agent.close();
    }
    expect(targets.map((t) => [t.address, t.port, t.hostname, t.protocol])).toEqual([
      ['127.0.0.1', server.port, 'pinned.test', 'http:'],
    ]);
  });

  test('pinnedAgent refuses to connect for a name other than the one checked', async () => {
    const server = await serve();
    const agent = pinnedAgent(host('pinned.test', '127.0.0.1'), {
      connect: directConnect,
      signal: new AbortController().signal,
    });
    try {
      await expect(request(`http://other.test:${server.port}/`, { dispatcher: agent })).rejects.toThrow(
        'WebFetch refused to connect to "other.test": this connection was checked for "pinned.test" only.',
      );
    } finally {
      await agent.close();
    }
    expect(server.connections).toBe(0);
  });

  test('pinnedAgent tries each checked address in turn and names every failure when none answers', async () => {
    const server = await serve();
    const port = server.port;
    await server.close();
    servers.splice(0);
    const agent = pinnedAgent(host('down.test', '127.0.0.1', '::1'), {
      connect: directConnect,
      signal: new AbortController().signal,
    });
    try {
      await expect(request(`http://down.test:${port}/`, { dispatcher: agent })).rejects.toThrow(
        new RegExp(
          `Could not connect to "down\\.test" \\(127\\.0\\.0\\.1:${port} ECONNREFUSED; \\[::1\\]:${port} \\S+\\); the server may be down or the port closed\\.`,
        ),
      );
    } finally {
      await agent.close();
    }
  });
});

describe('directConnect', () => {
  test('directConnect gives up at once on an aborted signal', async () => {
    const server = await serve();
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    await expect(
      directConnect({
        address: '127.0.0.1',
        family: 4,
        port: server.port,
        hostname: 'x.test',
        protocol: 'http:',
        signal: controller.signal,
      }),
    ).rejects.toThrow('interrupted');
    // A request that did reach the server would have been counted by now: a round trip later.
    const probe = await request(`http://127.0.0.1:${server.port}/`);
    await probe.body.text();
    expect(server.connections).toBe(1);
  });
});
