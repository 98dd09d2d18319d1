import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** The loopback server that plays "the web" in the demo. */
export interface DocsServer {
  /** `127.0.0.1:PORT`, what WebFetch's `allowPrivateHosts` opens. */
  host: string;
  url(pathname: string): string;
  /** How many requests reached it. */
  hits(): number;
  close(): Promise<void>;
}

/**
 * Serves the sample repository's `docs/` folder on 127.0.0.1 with a random port, so the demo's
 * WebFetch needs no network.
 *
 * @param docsDir The folder to serve.
 * @returns The running server.
 *
 * @example
 * ```ts
 * import path from 'node:path';
 * import { startDocsServer } from './docs_server.ts';
 * import { copySampleRepo } from './sample_repo.ts';
 *
 * const repo = await copySampleRepo();
 * const server = await startDocsServer(path.join(repo.dir, 'docs'));
 * server.url('/guide.html'); // "http://127.0.0.1:43117/guide.html"
 * await server.close();
 * ```
 */
export async function startDocsServer(docsDir: string): Promise<DocsServer> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    const name = path.basename(new URL(req.url ?? '/', 'http://x').pathname);
    readFile(path.join(docsDir, name)).then(
      (body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body),
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;
  return {
    host,
    url: (pathname) => `http://${host}${pathname}`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
