import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { contentToText, createSession, modelClientKey, type ModelRequest, type PermissionOptions, type SessionEvent } from '@toolshed/core';
import { webTools, type ConnectTarget, type WebToolsOptions } from './mod.ts';
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
    for await (const event of session.stream([{ type: 'tool_use', id: `t${Math.random().toString(36).slice(2)}`, name: 'WebFetch', input: { prompt: 'Summarize', ...input } }])) {
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
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/garden`, prompt: 'How much sun do tomatoes need?' });
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
    const { text, isError } = await fetchWith(localFamily({ maxBytes: 256 * 1024, maxMarkdownChars: 1000 }), { url: `${serverForHuge.origin}/huge` });
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
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/moved`, prompt: 'Find the price' });
    expect(isError).toBe(false);
    expect(text).toContain('REDIRECT DETECTED');
    expect(text).toContain('Redirect URL: https://elsewhere.example/landing?x=1');
    expect(text).toContain('Status: 301 Moved Permanently');
    expect(text).toContain('- url: "https://elsewhere.example/landing?x=1"');
    expect(text).toContain('- prompt: "Find the price"');
    expect(server.requests).toEqual(['GET /moved']);
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
    const opened = await fetchWith(family, { url: `${server.origin}/r` }, { permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } });
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
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/garden`, prompt: 'How much sun?' }, {
      services: [[modelClientKey, client]],
      permissions: { allow: ['WebFetch'] },
    });
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
    const { text, isError } = await fetchWith(localFamily(), { url: `${server.origin}/x` }, { services: [[modelClientKey, client]] });
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
    expect(events.some((e) => e.type === 'progress' && e.progress.message === `Fetching http://localhost:${server.port}/status`)).toBe(true);
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
    const family = webTools({ search: false, lookup: fixedLookup({ 'public.example': ['93.184.216.34'] }), connect: loopbackConnect(server.port, targets) });
    const { text, isError } = await fetchWith(family, { url: 'http://public.example/page' });
    expect(isError).toBe(false);
    expect(text).toContain('Content of https://public.example/page');
    expect(text).toContain('host header public.example');
    expect(targets.map((t) => [t.address, t.port, t.protocol, t.hostname])).toEqual([['93.184.216.34', 443, 'https:', 'public.example']]);
  });

  test('WebFetch asks before fetching from a host no rule allows, naming the rule that would allow it', async () => {
    const server = await serve((_req, res) => res.end('never'));
    const targets: ConnectTarget[] = [];
    const family = webTools({ search: false, lookup: fixedLookup({ 'public.example': ['93.184.216.34'] }), connect: loopbackConnect(server.port, targets) });
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
    const lookup = fixedLookup({ 'docs.public.example': ['93.184.216.34'], 'public.example.evil.test': ['93.184.216.35'] });
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
    const family = webTools({ search: false, lookup: fixedLookup({ 'ads.public.example': ['93.184.216.34'] }), connect: loopbackConnect(server.port) });
    const { text, isError } = await fetchWith(family, { url: 'https://ads.public.example/' }, {
      permissions: { allow: ['WebFetch'], deny: ['WebFetch(domain:ads.public.example)'] },
    });
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
    const family = webTools({ search: false, lookup: fixedLookup({ 'public.example': ['93.184.216.34'] }), connect: loopbackConnect(outside.port) });
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
