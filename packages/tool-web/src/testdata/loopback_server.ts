// Test helpers: real node:http servers on 127.0.0.1 that count what reaches them.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ConnectFunction, ConnectTarget, LookupFunction } from '../mod.ts';

/** A loopback server and what reached it. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request, as `METHOD path` in arrival order. */
  requests: string[];
  /** Request headers in arrival order. */
  headers: http.IncomingHttpHeaders[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with a handler; counts requests and connections. */
export async function startServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  const state = { requests: [] as string[], headers: [] as http.IncomingHttpHeaders[], connections: 0 };
  const server = http.createServer((req, res) => {
    state.requests.push(`${req.method} ${req.url}`);
    state.headers.push(req.headers);
    handler(req, res);
  });
  server.on('connection', (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return state.requests;
    },
    get headers() {
      return state.headers;
    },
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A connector that sends every checked address to one loopback server (a plain socket even for
 * https: undici speaks HTTP/1.1 over whatever socket the connector gives it), recording targets.
 */
export function loopbackConnect(port: number, targets: ConnectTarget[] = []): ConnectFunction {
  return async (target) => {
    targets.push(target);
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return socket;
  };
}

/** A resolver with fixed answers; any other name fails as ENOTFOUND. Records the names asked. */
export function fixedLookup(
  answers: Record<string, string[] | (() => string[])>,
  asked: string[] = [],
): LookupFunction {
  return async (hostname) => {
    asked.push(hostname);
    const entry = answers[hostname];
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const list = typeof entry === 'function' ? entry() : entry;
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}
