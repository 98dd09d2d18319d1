import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  contentToText,
  createSession,
  modelClientKey,
  type CanUseTool,
  type ModelRequest,
  type PermissionOptions,
  type SessionEvent,
} from '@toolshed/core';
import { directConnect, webTools, type ConnectFunction, type ConnectTarget, type WebToolsOptions } from './mod.ts';
import { fixedLookup, loopbackConnect, startServer, type LoopbackServer } from './testdata/loopback_server.ts';

let dir: string;
const servers: LoopbackServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-web-fetch-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<LoopbackServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

type Family = ReturnType<typeof webTools>;

async function fetchWith(
  family: Family,
  input: Record<string, unknown>,
  options: { permissions?: PermissionOptions; services?: Parameters<typeof createSession>[0]['services'] } = {},
): Promise<{ text: string; isError: boolean; events: SessionEvent[] }> {
  const session = await createSession({
    cwd: dir,
    stateDir: dir,
    families: [family],
    permissions: options.permissions ?? { allow: ['WebFetch'] },
    ...(options.services ? { services: options.services } : {}),
  });
  const events: SessionEvent[] = [];
  try {
    for await (const event of session.stream([
      {
        type: 'tool_use',
        id: `t${Math.random().toString(36).slice(2)}`,
        name: 'WebFetch',
        input: { prompt: 'Summarize', ...input },
      },
    ])) {
      events.push(event);
    }
  } finally {
    await session.close();
  }
  const result = events.find((e) => e.type === 'result');
  if (result?.type !== 'result') throw new Error('no result event');
  return { text: contentToText(result.result.content), isError: result.result.is_error === true, events };
}

/** A family that opens the loopback test server explicitly, as a user would for a dev server. */
function localFamily(options: WebToolsOptions = {}): Family {
  return webTools({ allowPrivateHosts: ['127.0.0.1'], search: false, ...options });
}

const PAGE = `<!doctype html><html><head><title>Gardening notes</title><style>body { color: red }</style>
<script>window.secretTracker = "do-not-show";</script></head>
<body><nav><a href="/home">Home</a> | <a href="/about">About</a> | navigation-only-text</nav>
<article><h1>Growing tomatoes</h1>
<p>Tomatoes need <strong>full sun</strong> and regular watering. See the <a href="/guides/soil">soil guide</a> for details.</p>
<p>${'Plant them after the last frost, in rich soil, and stake them early so the stems do not break. '.repeat(6)}</p>
<pre><code class="language-python">print("water daily")</code></pre>
<table><tr><th>Variety</th><th>Days</th></tr><tr><td>Roma</td><td>75</td></tr></table>
</article><footer>footer-only-text</footer><script>trackEverything()</script></body></html>`;

describe('WebFetch on loopback servers', () => {
  test('WebFetch turns an HTML page into Markdown without scripts, styles or navigation and restates the prompt', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
    });
    const { text, isError } = await fetchWith(localFamily(), {
      url: `${server.origin}/garden`,
      prompt: 'How much sun do tomatoes need?',
    });
    expect(isError).toBe(false);
    expect(text).toContain('Prompt: How much sun do tomatoes need?');
    expect(text).toContain('No model is set up');
    expect(text).toMatch(/#+ Growing tomatoes/);
    expect(text).toContain('**full sun**');
    expect(text).toContain(`[soil guide](${server.origin}/guides/soil)`);
    expect(text).toContain('```python\nprint("water daily")\n```');
    expect(text).toContain('| Variety | Days |');
    expect(text).not.toContain('secretTracker');
    expect(text).not.toContain('trackEverything');
    expect(text).not.toContain('navigation-only-text');
    expect(text).not.toContain('footer-only-text');
    expect(text).not.toContain('color: red');
    expect(server.requests).toEqual(['GET /garden']);
  });

  test('WebFetch passes JSON through as it is and keeps http for an explicitly opened private host', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"name":"toolshed","tags":["a","b"]}');
    });
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/api` });
    expect(isError).toBe(false);
    expect(text).toContain(`Content of ${server.origin}/api (200 OK, application/json`);
    expect(text).toContain('{"name":"toolshed","tags":["a","b"]}');
  });

  test('WebFetch refuses binary content with a message that names the type, without reading the body', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'image/png');
      res.end(Buffer.alloc(1024, 7));
    });
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/logo.png` });
    expect(isError).toBe(true);
    expect(text).toContain('"image/png" content, which WebFetch does not read');
  });

  test('WebFetch sniffs an untyped body and refuses it when it is binary', async () => {
    const server = await serve((req, res) => {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(req.url === '/text' ? 'just some plain words' : Buffer.from([0, 1, 2, 3, 0, 255]));
    });
    const plain = await fetchWith(localFamily(), { url: `${server.origin}/text` });
    expect(plain.isError).toBe(false);
    expect(plain.text).toContain('just some plain words');
    const binary = await fetchWith(localFamily(), { url: `${server.origin}/blob` });
    expect(binary.isError).toBe(true);
    expect(binary.text).toContain('binary');
  });

  test('WebFetch stops reading a huge body at its byte cap and says the rest was not downloaded', async () => {
    const total = 64 * 1024 * 1024;
    let sent = 0;
    let finished = false;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const closed = new Promise<void>((resolve) => {
      void serve((_req, res) => {
        res.setHeader('content-type', 'text/plain');
        const pump = () => {
          while (sent < total) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          finished = true;
          res.end();
        };
        res.on('close', () => resolve());
        pump();
      }).then((server) => {
        serverForHuge = server;
        startedHuge();
      });
    });
    let serverForHuge!: LoopbackServer;
    let startedHuge!: () => void;
    await new Promise<void>((resolve) => (startedHuge = resolve));
    const { text, isError } = await fetchWith(localFamily({ maxBytes: 256 * 1024, maxMarkdownChars: 1000 }), {
      url: `${serverForHuge.origin}/huge`,
    });
    await closed;
    expect(isError).toBe(false);
    expect(text).toContain('[The body was cut at 256.0 KB; the rest was not downloaded.]');
    expect(text).toContain('[The content was truncated to 1,000 of 262,144 characters.]');
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(total);
  });

  test('WebFetch reads a slow body that arrives in pieces to its end', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      let i = 0;
      const tick = () => {
        if (i === 5) return void res.end('end-of-slow-body');
        res.write(`piece-${i++}\n`);
        setTimeout(tick, 30);
      };
      tick();
    });
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/slow` });
    expect(isError).toBe(false);
    expect(text).toContain('piece-0\npiece-1\npiece-2\npiece-3\npiece-4\nend-of-slow-body');
  });

  test('WebFetch gives up on a body that never ends once its timeout passes', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.write('the start and then nothing more');
    });
    const { text, isError } = await fetchWith(localFamily({ timeoutMs: 400 }), { url: `${server.origin}/forever` });
    expect(isError).toBe(true);
    expect(text).toContain('WebFetch timed out after 0.4 s');
    expect(text).toContain('after receiving 31 B');
  });

  test('WebFetch decodes gzip and br bodies', async () => {
    const server = await serve((req, res) => {
      res.setHeader('content-type', 'text/html');
      const html = `<html><body><h1>Compressed ${req.url}</h1><p>${'Squeezed words. '.repeat(40)}</p></body></html>`;
      if (req.url === '/gz') {
        res.setHeader('content-encoding', 'gzip');
        res.end(gzipSync(html));
      } else {
        res.setHeader('content-encoding', 'br');
        res.end(brotliCompressSync(html));
      }
    });
    for (const route of ['/gz', '/br']) {
      const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}${route}` });
      expect(isError).toBe(false);
      expect(text).toContain(`Compressed ${route}`);
    }
    expect(server.headers[0]?.['accept-encoding']).toContain('gzip');
  });

  test('WebFetch reports a corrupt gzip body as the server misbehaving', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.setHeader('content-encoding', 'gzip');
      res.end('this is not gzip at all');
    });
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/bad` });
    expect(isError).toBe(true);
    expect(text).toContain('does not decode');
  });

  test('WebFetch follows redirects on the same host and reports the final URL', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/old') {
        res.writeHead(301, { location: '/newer' });
        return void res.end();
      }
      if (req.url === '/newer') {
        res.writeHead(302, { location: '/newest' });
        return void res.end();
      }
      res.setHeader('content-type', 'text/plain');
      res.end('you made it');
    });
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/old` });
    expect(isError).toBe(false);
    expect(text).toContain(`Content of ${server.origin}/newest`);
    expect(text).toContain('you made it');
    expect(server.requests).toEqual(['GET /old', 'GET /newer', 'GET /newest']);
  });

  test('WebFetch stops a redirect loop after its redirect limit', async () => {
    const server = await serve((req, res) => {
      const n = Number(req.url?.slice(1)) || 0;
      res.writeHead(302, { location: `/${n + 1}` });
      res.end();
    });
    const { text, isError } = await fetchWith(localFamily({ maxRedirects: 3 }), { url: `${server.origin}/0` });
    expect(isError).toBe(true);
    expect(text).toContain('redirected more than 3 times');
    expect(server.requests).toHaveLength(4);
  });

  test('WebFetch does not follow a redirect to another host and tells the model the new URL', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(301, { location: 'https://elsewhere.example/landing?x=1' });
      res.end();
    });
    const { text, isError } = await fetchWith(localFamily(), {
      url: `${server.origin}/moved`,
      prompt: 'Find the price',
    });
    expect(isError).toBe(false);
    expect(text).toContain('REDIRECT DETECTED');
    expect(text).toContain('Redirect URL: https://elsewhere.example/landing?x=1');
    expect(text).toContain('Status: 301 Moved Permanently');
    expect(text).toContain('- url: "https://elsewhere.example/landing?x=1"');
    expect(text).toContain('- prompt: "Find the price"');
    expect(server.requests).toEqual(['GET /moved']);
  });

  test('WebFetch says what a redirect it does not follow changes: the port, the scheme, or a scheme it cannot fetch', async () => {
    const server = await serve((req, res) => {
      const to = {
        '/port': `http://127.0.0.1:${server.port + 1}/x`,
        '/file': 'file:///etc/passwd',
        '/creds': `http://user:pw@127.0.0.1:${server.port}/y`,
      }[req.url ?? ''];
      res.writeHead(302, { location: to ?? '/' });
      res.end();
    });
    const port = await fetchWith(localFamily(), { url: `${server.origin}/port` });
    expect(port.text).toContain('REDIRECT DETECTED: the URL redirects to a different port,');
    expect(port.text).toContain(`- url: "http://127.0.0.1:${server.port + 1}/x"`);
    const file = await fetchWith(localFamily(), { url: `${server.origin}/file` });
    expect(file.text).toContain('REDIRECT DETECTED: the URL redirects to a "file:" URL,');
    expect(file.text).toContain('the new URL cannot be fetched');
    expect(file.text).not.toContain('call WebFetch again');
    const creds = await fetchWith(localFamily(), { url: `${server.origin}/creds` });
    expect(creds.text).toContain('redirects to a URL with a user name or password');
    expect(server.requests).toEqual(['GET /port', 'GET /file', 'GET /creds']);
  });

  test('WebFetch answers HTTP errors with the status', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>nope</h1>');
    });
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/missing` });
    expect(isError).toBe(true);
    expect(text).toContain('answered HTTP 404 Not Found');
  });

  test('WebFetch serves a repeated fetch from its cache without reaching the server again', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('cached words');
    });
    const family = localFamily();
    const first = await fetchWith(family, { url: `${server.origin}/c` });
    const second = await fetchWith(family, { url: `${server.origin}/c`, prompt: 'Another question' });
    expect(first.text).not.toContain('from the 15-minute cache');
    expect(second.text).toContain('from the 15-minute cache');
    expect(second.text).toContain('Prompt: Another question');
    expect(second.text).toContain('cached words');
    expect(server.requests).toEqual(['GET /c']);
  });

  test('WebFetch does not serve a cached private page to a session where the host is not opened', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('internal report');
    });
    const family = webTools({ search: false });
    const opened = await fetchWith(
      family,
      { url: `${server.origin}/r` },
      { permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } },
    );
    expect(opened.isError).toBe(false);
    expect(opened.text).toContain('internal report');
    const closed = await fetchWith(family, { url: `${server.origin}/r` }, { permissions: { allow: ['WebFetch'] } });
    expect(closed.isError).toBe(true);
    expect(closed.text).not.toContain('internal report');
    expect(server.requests).toEqual(['GET /r']);
  });

  test('WebFetch applies the prompt with the session model client when there is one', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(PAGE);
    });
    const asked: ModelRequest[] = [];
    const client = {
      async complete(request: ModelRequest) {
        asked.push(request);
        return 'Tomatoes need full sun.';
      },
    };
    const { text, isError } = await fetchWith(
      localFamily(),
      { url: `${server.origin}/garden`, prompt: 'How much sun?' },
      {
        services: [[modelClientKey, client]],
        permissions: { allow: ['WebFetch'] },
      },
    );
    expect(isError).toBe(false);
    expect(text).toBe('Tomatoes need full sun.');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.prompt).toContain('How much sun?');
    expect(asked[0]!.prompt).toContain('**full sun**');
    expect(asked[0]!.signal).toBeInstanceOf(AbortSignal);
  });

  test('WebFetch returns the content with a note when the model client fails', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('raw content');
    });
    const client = { complete: async () => Promise.reject(new Error('model overloaded')) };
    const { text, isError } = await fetchWith(
      localFamily(),
      { url: `${server.origin}/x` },
      { services: [[modelClientKey, client]] },
    );
    expect(isError).toBe(false);
    expect(text).toContain('raw content');
    expect(text).toContain('[The model could not apply the prompt (model overloaded)');
  });
});

describe('WebFetch on a private host the user opened', () => {
  test('WebFetch opens localhost on the port allowPrivateHosts names, keeps http, and tries each checked address in turn', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('dev server');
    });
    // ::1 first: nothing listens there, so the connection falls back to 127.0.0.1.
    const lookup = fixedLookup({ localhost: ['::1', '127.0.0.1'] });
    const family = webTools({ search: false, lookup, allowPrivateHosts: [`localhost:${server.port}`] });
    const { text, isError, events } = await fetchWith(family, { url: `http://localhost:${server.port}/status` });
    expect(isError).toBe(false);
    expect(text).toContain(`Content of http://localhost:${server.port}/status`);
    expect(text).toContain('dev server');
    expect(
      events.some(
        (e) => e.type === 'progress' && e.progress.message === `Fetching http://localhost:${server.port}/status`,
      ),
    ).toBe(true);
    const otherPort = await fetchWith(family, { url: `http://localhost:${server.port + 1}/` });
    expect(otherPort.isError).toBe(true);
    expect(otherPort.text).toContain('"localhost", a loopback name');
    expect(server.requests).toEqual(['GET /status']);
  });
});

describe('WebFetch on public hosts (a fake public name mapped to a loopback server at the socket level)', () => {
  test('WebFetch upgrades http to https for a public host and connects to the checked address', async () => {
    const server = await serve((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`host header ${req.headers.host}`);
    });
    const targets: ConnectTarget[] = [];
    const family = webTools({
      search: false,
      lookup: fixedLookup({ 'public.example': ['93.184.216.34'] }),
      connect: loopbackConnect(server.port, targets),
    });
    const { text, isError } = await fetchWith(family, { url: 'http://public.example/page' });
    expect(isError).toBe(false);
    expect(text).toContain('Content of https://public.example/page');
    expect(text).toContain('host header public.example');
    expect(targets.map((t) => [t.address, t.port, t.protocol, t.hostname])).toEqual([
      ['93.184.216.34', 443, 'https:', 'public.example'],
    ]);
  });

  test('WebFetch asks before fetching from a host no rule allows, naming the rule that would allow it', async () => {
    const server = await serve((_req, res) => res.end('never'));
    const targets: ConnectTarget[] = [];
    const family = webTools({
      search: false,
      lookup: fixedLookup({ 'public.example': ['93.184.216.34'] }),
      connect: loopbackConnect(server.port, targets),
    });
    const { text, isError, events } = await fetchWith(family, { url: 'https://public.example/' }, { permissions: {} });
    expect(isError).toBe(true);
    expect(text).toContain('add "WebFetch(domain:public.example)" to permissions.allow');
    const decision = events.find((e) => e.type === 'permission_decision');
    expect(decision?.type === 'permission_decision' && decision.decision.behavior).toBe('ask');
    expect(targets).toEqual([]);
    expect(server.connections).toBe(0);
  });

  test('A WebFetch domain rule allows the host and its subdomains but not a look-alike', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('ok');
    });
    const lookup = fixedLookup({
      'docs.public.example': ['93.184.216.34'],
      'public.example.evil.test': ['93.184.216.35'],
    });
    const family = webTools({ search: false, lookup, connect: loopbackConnect(server.port) });
    const permissions = { allow: ['WebFetch(domain:public.example)'] };
    const sub = await fetchWith(family, { url: 'https://docs.public.example/' }, { permissions });
    expect(sub.isError).toBe(false);
    const lookAlike = await fetchWith(family, { url: 'https://public.example.evil.test/' }, { permissions });
    expect(lookAlike.isError).toBe(true);
    expect(lookAlike.text).toContain('WebFetch(domain:public.example.evil.test)');
    expect(server.requests).toEqual(['GET /']);
  });

  test('A WebFetch deny rule wins over an allow rule for the same domain', async () => {
    const server = await serve((_req, res) => res.end('never'));
    const family = webTools({
      search: false,
      lookup: fixedLookup({ 'ads.public.example': ['93.184.216.34'] }),
      connect: loopbackConnect(server.port),
    });
    const { text, isError } = await fetchWith(
      family,
      { url: 'https://ads.public.example/' },
      {
        permissions: { allow: ['WebFetch'], deny: ['WebFetch(domain:ads.public.example)'] },
      },
    );
    expect(isError).toBe(true);
    expect(text).toContain('denied by rule "WebFetch(domain:ads.public.example)"');
    expect(server.connections).toBe(0);
  });

  test('WebFetch reports a public page that redirects to a private address without reaching the private server', async () => {
    const inside = await serve((_req, res) => res.end('internal secret'));
    const outside = await serve((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${inside.port}/secret` });
      res.end();
    });
    const family = webTools({
      search: false,
      lookup: fixedLookup({ 'public.example': ['93.184.216.34'] }),
      connect: loopbackConnect(outside.port),
    });
    const first = await fetchWith(family, { url: 'https://public.example/go' });
    expect(first.isError).toBe(false);
    expect(first.text).toContain(`Redirect URL: http://127.0.0.1:${inside.port}/secret`);
    expect(first.text).toContain('points to 127.0.0.1, a loopback (127.0.0.0/8) address, which WebFetch refuses');
    // The model follows the advice and fetches the new URL: refused before any connection.
    const second = await fetchWith(family, { url: `http://127.0.0.1:${inside.port}/secret` });
    expect(second.isError).toBe(true);
    expect(second.text).toContain('does not reach 127.0.0.1');
    expect(inside.connections).toBe(0);
    expect(inside.requests).toEqual([]);
  });

  test('WebFetch checks the address again at every same-host redirect hop (DNS rebinding)', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/start') {
        res.writeHead(302, { location: '/second' });
        return void res.end();
      }
      res.end('should never be served');
    });
    let calls = 0;
    const lookup = fixedLookup({ 'rebind.example': () => (calls++ === 0 ? ['93.184.216.34'] : ['169.254.169.254']) });
    const family = webTools({ search: false, lookup, connect: loopbackConnect(server.port) });
    const { text, isError } = await fetchWith(family, { url: 'https://rebind.example/start' });
    expect(isError).toBe(true);
    expect(text).toContain('169.254.169.254 is a link-local');
    expect(server.requests).toEqual(['GET /start']);
  });
});

describe('WebFetch limits against hostile servers', () => {
  test('WebFetch stops decompressing a gzip bomb at its byte cap and tears the connection down', async () => {
    // One gzip member of 16 MB of zeros is about 16 KB; gunzip reads concatenated members, so
    // 1 000 of them claim 16 GB. The server must see the connection closed long before that.
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    const total = 1000;
    let sent = 0;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.on('close', () => closed());
      const pump = () => {
        while (sent < total) {
          sent++;
          if (!res.write(member)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const { text, isError } = await fetchWith(localFamily({ maxBytes: 1024 * 1024, maxMarkdownChars: 100 }), {
      url: `${server.origin}/bomb`,
    });
    await connectionClosed;
    expect(isError).toBe(false);
    expect(text).toContain('[The body was cut at 1.0 MB; the rest was not downloaded.]');
    expect(text).toContain('(200 OK, text/plain, 1.0 MB)');
    expect(sent).toBeLessThan(total);
  });

  test('WebFetch gives up on a body that keeps trickling once its timeout passes', async () => {
    // A byte every 20 ms never leaves the connection idle: only a timeout on the whole exchange stops it.
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      const timer = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const { text, isError } = await fetchWith(localFamily({ timeoutMs: 500 }), { url: `${server.origin}/drip` });
    expect(isError).toBe(true);
    expect(text).toContain('WebFetch timed out after 0.5 s');
    expect(text).toMatch(/after receiving \d+ B/);
  });

  test('WebFetch gives up on a server that never sends its headers once its timeout passes', async () => {
    const server = await serve(() => {
      // Accepts the request and never answers.
    });
    const { text, isError } = await fetchWith(localFamily({ timeoutMs: 300 }), { url: `${server.origin}/silent` });
    expect(isError).toBe(true);
    expect(text).toContain('WebFetch timed out after 0.3 s');
    expect(text).toContain('before the server answered');
  });

  test('WebFetch converts at most 2 000 000 characters of a huge HTML page and says so', async () => {
    const paragraph = '<p>Plenty of words in a paragraph of a very long page.</p>\n';
    const html = `<!doctype html><html><head><title>Huge</title></head><body>${paragraph.repeat(Math.ceil(2_050_000 / paragraph.length))}<p>the very end</p></body></html>`;
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(html);
    });
    const { text, isError } = await fetchWith(localFamily({ maxMarkdownChars: 2000 }), {
      url: `${server.origin}/huge.html`,
    });
    expect(isError).toBe(false);
    expect(text).toContain('Plenty of words');
    expect(text).toContain(
      `[The page has ${html.length.toLocaleString('en-US')} characters of HTML; only the first 2,000,000 (scripts and styles left out) were converted.]`,
    );
  });

  test('WebFetch fetches a URL again once its cache entry is 15 minutes old', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`version ${server.requests.length}`);
    });
    let now = 1_000_000;
    const family = localFamily({ cache: { now: () => now } });
    const url = `${server.origin}/page`;
    expect((await fetchWith(family, { url })).text).toContain('version 1');
    now += 15 * 60 * 1000 - 1;
    const fresh = await fetchWith(family, { url });
    expect(fresh.text).toContain('version 1');
    expect(fresh.text).toContain('from the 15-minute cache');
    now += 1;
    const stale = await fetchWith(family, { url });
    expect(stale.text).toContain('version 2');
    expect(stale.text).not.toContain('from the 15-minute cache');
    expect(server.requests).toEqual(['GET /page', 'GET /page']);
  });
});

describe('WebFetch connects where the guard checked', () => {
  test('WebFetch looks a name up once per hop and dials the checked address itself (no second lookup)', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/first') {
        res.writeHead(302, { location: '/second' });
        return void res.end();
      }
      res.setHeader('content-type', 'text/plain');
      res.end('pinned');
    });
    const asked: string[] = [];
    // `dev.test` exists only in this resolver: a lookup anywhere else would fail the fetch.
    const lookup = fixedLookup({ 'dev.test': ['127.0.0.1'] }, asked);
    const targets: ConnectTarget[] = [];
    const connect: ConnectFunction = (target) => {
      targets.push(target);
      return directConnect(target);
    };
    const family = webTools({ search: false, lookup, connect, allowPrivateHosts: [`dev.test:${server.port}`] });
    const { text, isError } = await fetchWith(family, { url: `http://dev.test:${server.port}/first` });
    expect(isError).toBe(false);
    expect(text).toContain('pinned');
    expect(asked).toEqual(['dev.test', 'dev.test']);
    expect(targets.map((t) => [t.address, t.port, t.hostname])).toEqual([
      ['127.0.0.1', server.port, 'dev.test'],
      ['127.0.0.1', server.port, 'dev.test'],
    ]);
    expect(server.headers.map((h) => h.host)).toEqual([`dev.test:${server.port}`, `dev.test:${server.port}`]);
  });

  test('WebFetch reads a backslash after a public host as the start of the path, as browsers do, never as userinfo', async () => {
    const server = await serve((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`path ${req.url}`);
    });
    const targets: ConnectTarget[] = [];
    const family = webTools({
      search: false,
      lookup: fixedLookup({ 'public.example': ['93.184.216.34'] }),
      connect: loopbackConnect(server.port, targets),
    });
    const { text, isError } = await fetchWith(family, { url: `http://public.example\\@127.0.0.1:${server.port}/` });
    expect(isError).toBe(false);
    expect(text).toContain(`path /@127.0.0.1:${server.port}/`);
    expect(targets.map((t) => t.address)).toEqual(['93.184.216.34']);
  });

  test('A WebFetch(domain:localhost) rule does not open a look-alike name that resolves to loopback', async () => {
    const server = await serve((_req, res) => res.end('never'));
    const family = webTools({ search: false, lookup: fixedLookup({ 'xn--lcalhost-nbh': ['127.0.0.1'] }) });
    // `lоcalhost` with a Cyrillic о.
    const { text, isError } = await fetchWith(
      family,
      { url: `http://lоcalhost:${server.port}/` },
      { permissions: { allow: ['WebFetch(domain:localhost)', 'WebFetch'] } },
    );
    expect(isError).toBe(true);
    expect(text).toContain('"xn--lcalhost-nbh" resolves to 127.0.0.1');
    expect(text).toContain('WebFetch(domain:xn--lcalhost-nbh)');
    expect(server.connections).toBe(0);
  });
});

describe('WebFetch permissions with a canUseTool prompt', () => {
  async function runWithPrompt(
    family: Family,
    permissions: PermissionOptions,
    urls: readonly string[],
    answer: (url: string) => 'allow' | 'deny',
  ): Promise<{ prompts: { url: string; suggestions: string[] }[]; results: { text: string; isError: boolean }[] }> {
    const prompts: { url: string; suggestions: string[] }[] = [];
    const canUseTool: CanUseTool = async (_name, input, { suggestions }) => {
      const url = (input as { url: string }).url;
      prompts.push({ url, suggestions });
      return answer(url) === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: 'not this one' };
    };
    const session = await createSession({ cwd: dir, stateDir: dir, families: [family], permissions, canUseTool });
    const results: { text: string; isError: boolean }[] = [];
    try {
      for (const [i, url] of urls.entries()) {
        const [result] = await session.run([
          { type: 'tool_use', id: `p${i}`, name: 'WebFetch', input: { url, prompt: 'Summarize' } },
        ]);
        results.push({ text: contentToText(result!.content), isError: result!.is_error === true });
      }
    } finally {
      await session.close();
    }
    return { prompts, results };
  }

  test('A WebFetch(domain:…) allow rule fetches without prompting, and a host it does not cover is fetched once the prompt approves', async () => {
    const server = await serve((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`served ${req.headers.host}`);
    });
    const lookup = fixedLookup({
      'docs.allowed.example': ['93.184.216.34'],
      'other.example': ['93.184.216.35'],
      'refused.example': ['93.184.216.36'],
    });
    const family = webTools({ search: false, lookup, connect: loopbackConnect(server.port) });
    const { prompts, results } = await runWithPrompt(
      family,
      { allow: ['WebFetch(domain:allowed.example)'] },
      ['https://docs.allowed.example/a', 'https://other.example/b', 'https://refused.example/c'],
      (url) => (url.includes('refused') ? 'deny' : 'allow'),
    );
    expect(results.map((r) => r.isError)).toEqual([false, false, true]);
    expect(results[0]!.text).toContain('served docs.allowed.example');
    expect(results[1]!.text).toContain('served other.example');
    expect(results[2]!.text).toContain('not this one');
    expect(prompts).toEqual([
      { url: 'https://other.example/b', suggestions: ['WebFetch(domain:other.example)'] },
      { url: 'https://refused.example/c', suggestions: ['WebFetch(domain:refused.example)'] },
    ]);
    expect(server.requests).toEqual(['GET /a', 'GET /b']);
  });

  test('A WebFetch(domain:localhost) allow rule opens localhost on any port without prompting; approving a prompt does not', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('dev server');
    });
    const lookup = fixedLookup({ localhost: ['127.0.0.1'] });
    const url = `http://localhost:${server.port}/health`;
    const opened = await runWithPrompt(
      webTools({ search: false, lookup }),
      { allow: ['WebFetch(domain:localhost)'] },
      [url],
      () => 'deny',
    );
    expect(opened.prompts).toEqual([]);
    expect(opened.results[0]!.isError).toBe(false);
    expect(opened.results[0]!.text).toContain('dev server');
    // Without the rule, the literal loopback name is denied before anyone is asked.
    const closed = await runWithPrompt(
      webTools({ search: false, lookup }),
      { allow: ['WebFetch(domain:example.com)'] },
      [url],
      () => 'allow',
    );
    expect(closed.prompts).toEqual([]);
    expect(closed.results[0]!.isError).toBe(true);
    expect(closed.results[0]!.text).toContain('they can add "WebFetch(domain:localhost)" to permissions.allow');
    expect(server.requests).toEqual(['GET /health']);
  });

  test('A WebFetch(domain:…) rule for a name does not open cloud metadata when its DNS points there; allowPrivateHosts or a rule naming the address does', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('metadata credentials');
    });
    const lookup = fixedLookup({ 'approved.example': ['169.254.169.254'] });
    // Every connection goes to the loopback server, never to 169.254.169.254 itself.
    const connect = loopbackConnect(server.port);
    const url = 'http://approved.example/latest/meta-data/';
    const byRule = await runWithPrompt(
      webTools({ search: false, lookup, connect }),
      { allow: ['WebFetch(domain:approved.example)'] },
      [url],
      () => 'allow',
    );
    expect(byRule.prompts).toEqual([]);
    expect(byRule.results[0]!.isError).toBe(true);
    expect(byRule.results[0]!.text).toContain(
      '169.254.169.254 is a link-local, where cloud metadata services live (169.254.0.0/16) address',
    );
    expect(byRule.results[0]!.text).toContain(
      'reached only when allowPrivateHosts: ["approved.example"] is passed to webTools() or a rule names the address itself',
    );
    expect(server.connections).toBe(0);

    const byOption = await runWithPrompt(
      webTools({ search: false, lookup, connect, allowPrivateHosts: ['approved.example'] }),
      { allow: ['WebFetch(domain:approved.example)'] },
      [url],
      () => 'deny',
    );
    expect(byOption.results[0]!.text).toContain('metadata credentials');
    const byAddress = await runWithPrompt(
      webTools({ search: false, lookup, connect }),
      { allow: ['WebFetch(domain:169.254.169.254)'] },
      ['http://169.254.169.254/latest/meta-data/'],
      () => 'deny',
    );
    expect(byAddress.results[0]!.text).toContain('metadata credentials');
    expect(server.requests).toEqual(['GET /latest/meta-data/', 'GET /latest/meta-data/']);
  });

  test('A refusal of localhost. names the rule without the trailing dot, and that rule opens it', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('dotted');
    });
    const lookup = fixedLookup({ localhost: ['127.0.0.1'] });
    const url = `http://localhost.:${server.port}/`;
    const refused = await runWithPrompt(webTools({ search: false, lookup }), {}, [url], () => 'allow');
    expect(refused.results[0]!.text).toContain(
      'add "WebFetch(domain:localhost)" to permissions.allow or pass allowPrivateHosts: ["localhost"]',
    );
    const opened = await runWithPrompt(
      webTools({ search: false, lookup }),
      { allow: ['WebFetch(domain:localhost)'] },
      [url],
      () => 'deny',
    );
    expect(opened.results[0]!.text).toContain('dotted');
    expect(server.requests).toEqual(['GET /']);
  });

  test('Approving a prompt for a name that resolves to a private address does not open it, while a WebFetch(domain:…) rule for it does', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('intranet page');
    });
    const lookup = fixedLookup({ 'wiki.corp.example': ['127.0.0.1'] });
    const url = `http://wiki.corp.example:${server.port}/home`;
    const approved = await runWithPrompt(webTools({ search: false, lookup }), {}, [url], () => 'allow');
    expect(approved.prompts).toHaveLength(1);
    expect(approved.results[0]!.isError).toBe(true);
    expect(approved.results[0]!.text).toContain('"wiki.corp.example" resolves to 127.0.0.1');
    expect(approved.results[0]!.text).toContain('add "WebFetch(domain:wiki.corp.example)" to permissions.allow');
    expect(server.connections).toBe(0);

    const opened = await runWithPrompt(
      webTools({ search: false, lookup }),
      { allow: ['WebFetch(domain:wiki.corp.example)'] },
      [url],
      () => 'deny',
    );
    expect(opened.prompts).toEqual([]);
    expect(opened.results[0]!.isError).toBe(false);
    // An opened private host keeps http: a dev or intranet server rarely speaks https.
    expect(opened.results[0]!.text).toContain(`Content of ${url}`);
    expect(opened.results[0]!.text).toContain('intranet page');
    expect(server.requests).toEqual(['GET /home']);
  });
});

describe('WebFetch input checks', () => {
  test.each([
    ['an ftp URL', 'ftp://example.com/file', 'http and https URLs only'],
    ['a URL with credentials', 'https://user:pass@example.com/', 'user name or password'],
    ['text that is no URL', 'not a url', 'is not a valid URL'],
    ['a URL with a line feed in the host', 'https://exa\nmple.com/', 'control characters'],
    ['a URL over 2000 characters', `https://example.com/${'a'.repeat(2100)}`, 'at most 2000'],
  ])('WebFetch refuses %s before any network access', async (_label, url, message) => {
    const { text, isError } = await fetchWith(webTools({ search: false }), { url });
    expect(isError).toBe(true);
    expect(text).toContain(message);
  });
});
