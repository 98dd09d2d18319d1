import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contentToText, createSession, ToolshedError } from '@toolshed/core';
import { webTools, type ConnectTarget } from './mod.ts';
import { resolveGuardedHost } from './internal/mod.ts';
import { fixedLookup, loopbackConnect, startServer, type LoopbackServer } from './testdata/loopback_server.ts';

// Names a resolver answers for in these tests. Nothing here resolves for real, and every
// connection a bug let through would be mapped to the counting loopback server, never sent out.
const ANSWERS: Record<string, string[]> = {
  'public.test': ['93.184.216.34'],
  'loopback.test': ['127.0.0.1'],
  'loopback6.test': ['::1'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'mixed-late.test': ['93.184.216.34', '93.184.216.35', '192.168.1.20'],
  'mixed6.test': ['2606:4700:4700::1111', '::1'],
  'metadata.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:10.0.0.1'],
  'mapped-public.test': ['::ffff:93.184.216.34'],
  'ula.test': ['fd00::5'],
  'cgnat.test': ['100.100.100.100'],
  'unspecified.test': ['0.0.0.0'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'odd.test': ['2130706433'],
  'garbage.test': ['not-an-address'],
  'empty.test': [],
  localhost: ['93.184.216.34'],
  'api.localhost': ['93.184.216.34'],
  'localhost.': ['93.184.216.34'],
  'teredo.test': ['2001:0:4136:e378:8000:63bf:80ff:fffe'],
  '6to4.test': ['2002:a00:1::1'],
  'nat64-local.test': ['64:ff9b:1::a00:1'],
  'zoned.test': ['fe80::1%lo'],
  'dotted-mapped.test': ['::ffff:127.0.0.1'],
  'compat.test': ['::7f00:1'],
  // `lоcalhost` with a Cyrillic о, as the URL parser spells it: a look-alike of localhost.
  'xn--lcalhost-nbh': ['127.0.0.1'],
};

let dir: string;
let server: LoopbackServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-web-guard-'));
  server = await startServer((_req, res) => res.end('reached'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('resolveGuardedHost', () => {
  const guard = (url: string, privateAllowed = false) =>
    resolveGuardedHost(new URL(url), { lookup: fixedLookup(ANSWERS), privateAllowed, allowRule: 'WebFetch(domain:x)' });

  test('resolveGuardedHost returns every address of a public name', async () => {
    expect(await guard('https://public.test/')).toEqual({
      hostname: 'public.test',
      addresses: [{ address: '93.184.216.34', family: 4 }],
      isPrivate: false,
    });
  });

  test('resolveGuardedHost refuses a name whose answers mix public and private addresses, naming them all', async () => {
    const error = await guard('https://mixed-late.test/').catch((e: unknown) => e);
    expect(ToolshedError.isInstance(error) && error.code).toBe('web_fetch_blocked');
    expect((error as Error).message).toContain('resolves to 93.184.216.34, 93.184.216.35, 192.168.1.20');
    expect((error as Error).message).toContain('192.168.1.20 is a private (192.168.0.0/16) address');
  });

  test('resolveGuardedHost lets an explicitly opened host resolve to private addresses and says so', async () => {
    expect(await guard('http://loopback.test/', true)).toMatchObject({
      isPrivate: true,
      addresses: [{ address: '127.0.0.1', family: 4 }],
    });
  });

  test('resolveGuardedHost keeps link-local addresses closed for a host opened without linkLocalAllowed, in every spelling', async () => {
    const opened = (url: string) =>
      resolveGuardedHost(new URL(url), {
        lookup: fixedLookup(ANSWERS),
        privateAllowed: true,
        linkLocalAllowed: false,
        allowRule: 'WebFetch(domain:x)',
      });
    expect(await opened('http://loopback.test/')).toMatchObject({ isPrivate: true });
    expect(await opened('http://ula.test/')).toMatchObject({ isPrivate: true });
    await expect(opened('http://metadata.test/')).rejects.toThrow(
      'link-local addresses (cloud metadata) are reached only when allowPrivateHosts: ["metadata.test"] is passed',
    );
    await expect(opened('http://nat64.test/')).rejects.toThrow('64:ff9b::a9fe:a9fe is a NAT64');
    await expect(opened('http://[::ffff:169.254.169.254]/')).rejects.toThrow('holding 169.254.169.254');
    await expect(opened('http://zoned.test/')).rejects.toThrow('fe80::1%lo is a link-local');
    // linkLocalAllowed defaults to privateAllowed.
    expect(await guard('http://metadata.test/', true)).toMatchObject({
      isPrivate: true,
      addresses: [{ address: '169.254.169.254', family: 4 }],
    });
  });

  test('resolveGuardedHost treats localhost names as loopback whatever the resolver says', async () => {
    await expect(guard('http://localhost/')).rejects.toThrow('loopback name');
    await expect(guard('http://api.localhost/')).rejects.toThrow('loopback name');
    // The resolver answers a public address for `localhost.`: only the name tells it is loopback.
    await expect(guard('http://localhost../')).rejects.toThrow('loopback name');
  });

  test('resolveGuardedHost refuses resolver answers that are not IP addresses, even for an opened host', async () => {
    await expect(guard('http://odd.test/', true)).rejects.toThrow('not an IP address');
    await expect(guard('http://garbage.test/', true)).rejects.toThrow('not an IP address');
  });

  test('resolveGuardedHost reports a name that does not resolve', async () => {
    await expect(guard('http://nowhere.test/')).rejects.toThrow(
      'Could not resolve the host "nowhere.test" of "http://nowhere.test/" (ENOTFOUND)',
    );
    await expect(guard('http://empty.test/')).rejects.toThrow('resolved to no address');
  });
});

describe('the SSRF table: WebFetch refuses every one of these, and nothing reaches a server', () => {
  const port = () => server.port;
  // [label, url]; every one must be refused before a connection is made.
  const table: [string, () => string][] = [
    ['IPv4 loopback', () => `http://127.0.0.1:${port()}/`],
    ['another loopback address', () => `http://127.8.9.10:${port()}/`],
    ['localhost', () => `http://localhost:${port()}/`],
    ['a subdomain of localhost', () => `http://api.localhost:${port()}/`],
    ['IPv6 loopback', () => `http://[::1]:${port()}/`],
    ['loopback as one decimal number', () => `http://2130706433:${port()}/`],
    ['loopback in hex with a short form', () => `http://0x7f.1:${port()}/`],
    ['loopback in octal', () => `http://0177.0.0.1:${port()}/`],
    ['loopback in short form', () => `http://127.1:${port()}/`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['cloud metadata in decimal', () => 'http://2852039166/latest/meta-data/'],
    ['private 10/8', () => 'http://10.0.0.1/'],
    ['private 172.16/12', () => 'http://172.16.5.4/'],
    ['private 192.168/16', () => 'https://192.168.1.1/admin'],
    ['CGNAT', () => 'http://100.64.0.1/'],
    ['unspecified IPv4', () => `http://0.0.0.0:${port()}/`],
    ['unspecified IPv6', () => `http://[::]:${port()}/`],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port()}/`],
    ['IPv4-mapped metadata', () => 'http://[::ffff:169.254.169.254]/'],
    ['NAT64 of loopback', () => `http://[64:ff9b::7f00:1]:${port()}/`],
    ['unique-local IPv6', () => 'http://[fd00::1]/'],
    ['link-local IPv6', () => 'http://[fe80::1]/'],
    ['a name that resolves to loopback', () => `http://loopback.test:${port()}/`],
    ['a name that resolves to IPv6 loopback', () => `http://loopback6.test:${port()}/`],
    ['a name with public and private answers', () => `http://mixed.test:${port()}/`],
    ['a name with public and IPv6 loopback answers', () => `http://mixed6.test:${port()}/`],
    ['a name that resolves to cloud metadata', () => 'http://metadata.test/'],
    ['a name that resolves to an IPv4-mapped private address', () => 'http://mapped.test/'],
    ['a name that resolves to an IPv4-mapped public address', () => 'http://mapped-public.test/'],
    ['a name that resolves to unique-local IPv6', () => 'http://ula.test/'],
    ['a name that resolves to CGNAT', () => 'http://cgnat.test/'],
    ['a name that resolves to 0.0.0.0', () => `http://unspecified.test:${port()}/`],
    ['a name that resolves to NAT64 of metadata', () => 'http://nat64.test/'],
    ['a name whose answer is an odd IPv4 spelling', () => `http://odd.test:${port()}/`],
    ['a host with a NUL byte', () => 'http://evil.test%00.public.test/'],
    ['a host with CR LF', () => 'http://public.test\r\n.evil/'],
    ['a host with an encoded CR LF', () => 'http://public.test%0d%0aHost:evil/'],
    ['IPv4-mapped loopback in hex', () => `http://[::ffff:7f00:1]:${port()}/`],
    ['IPv4-mapped loopback written out in full', () => `http://[0:0:0:0:0:ffff:127.0.0.1]:${port()}/`],
    ['IPv4-translated loopback', () => `http://[::ffff:0:127.0.0.1]:${port()}/`],
    ['IPv4-compatible loopback', () => `http://[::127.0.0.1]:${port()}/`],
    ['link-local IPv6 with a zone', () => `http://[fe80::1%25lo]:${port()}/`],
    ['6to4 of loopback', () => `http://[2002:7f00:1::]:${port()}/`],
    ['Teredo to loopback', () => `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${port()}/`],
    ['local-use NAT64', () => `http://[64:ff9b:1::7f00:1]:${port()}/`],
    ['IPv6 loopback over https', () => `https://[::1]:${port()}/`],
    ['localhost with a trailing dot', () => `http://localhost.:${port()}/`],
    ['localhost with two trailing dots', () => `http://localhost..:${port()}/`],
    ['localhost in capitals', () => `http://LOCALHOST:${port()}/`],
    ['localhost in circled letters (IDN mapping)', () => `http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:${port()}/`],
    ['localhost percent-encoded', () => `http://%6c%6f%63%61%6c%68%6f%73%74:${port()}/`],
    ['loopback percent-encoded', () => `http://%31%32%37.0.0.1:${port()}/`],
    ['loopback with ideographic dots', () => `http://127。0。0。1:${port()}/`],
    ['loopback with a trailing dot', () => `http://127.0.0.1.:${port()}/`],
    ['loopback as 0x7f000001', () => `http://0x7f000001:${port()}/`],
    ['unspecified IPv4 as 0', () => `http://0:${port()}/`],
    ['loopback behind a public-looking user name', () => `http://public.test@127.0.0.1:${port()}/`],
    ['loopback on the default port', () => 'http://127.0.0.1/'],
    ['a name that resolves to Teredo', () => `http://teredo.test:${port()}/`],
    ['a name that resolves to 6to4 of a private address', () => `http://6to4.test:${port()}/`],
    ['a name that resolves to local-use NAT64', () => `http://nat64-local.test:${port()}/`],
    ['a name that resolves to link-local IPv6 with a zone', () => `http://zoned.test:${port()}/`],
    ['a name that resolves to a dotted IPv4-mapped loopback', () => `http://dotted-mapped.test:${port()}/`],
    ['a name that resolves to IPv4-compatible loopback', () => `http://compat.test:${port()}/`],
    ['a look-alike of localhost (Cyrillic о) that resolves to loopback', () => `http://lоcalhost:${port()}/`],
  ];

  test(`the table has at least 25 entries (${table.length})`, () => {
    expect(table.length).toBeGreaterThanOrEqual(25);
  });

  test.each(table)('WebFetch refuses %s', async (_label, url) => {
    const targets: ConnectTarget[] = [];
    const before = { connections: server.connections, requests: server.requests.length };
    // A blanket allow rule lets WebFetch fetch any public host; it must not open private ones.
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [
        webTools({ search: false, lookup: fixedLookup(ANSWERS), connect: loopbackConnect(server.port, targets) }),
      ],
      permissions: { allow: ['WebFetch'], mode: 'bypassPermissions' },
    });
    try {
      const [result] = await session.run([
        { type: 'tool_use', id: 't1', name: 'WebFetch', input: { url: url(), prompt: 'read it' } },
      ]);
      expect(result?.is_error).toBe(true);
      expect(contentToText(result!.content)).toMatch(
        /refused|does not reach|not a valid URL|control characters|user name or password/,
      );
    } finally {
      await session.close();
    }
    expect(targets).toEqual([]);
    expect(server.connections).toBe(before.connections);
    expect(server.requests.length).toBe(before.requests);
  });

  test('after the whole table, the loopback server has seen no connection at all', () => {
    expect(server.connections).toBe(0);
    expect(server.requests).toEqual([]);
  });

  test('the same server is reachable once the user opens it, so the zero above is meaningful', async () => {
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [webTools({ search: false })],
      permissions: { allow: ['WebFetch(domain:127.0.0.1)'] },
    });
    try {
      const [result] = await session.run([
        {
          type: 'tool_use',
          id: 't1',
          name: 'WebFetch',
          input: { url: `http://127.0.0.1:${server.port}/open`, prompt: 'read it' },
        },
      ]);
      expect(result?.is_error).toBeUndefined();
      expect(contentToText(result!.content)).toContain('reached');
    } finally {
      await session.close();
    }
    expect(server.requests).toEqual(['GET /open']);
  });
});
