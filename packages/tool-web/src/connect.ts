import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Agent } from 'undici';
import { ToolshedError } from '@toolshed/core';
import type { GuardedHost } from './network_guard.ts';

/** One connection WebFetch asks for: an address the guard has checked, never a name. */
export interface ConnectTarget {
  /** The checked IP address to dial. */
  address: string;
  family: 4 | 6;
  port: number;
  /** The URL's host: the TLS server name and the name the certificate must carry. */
  hostname: string;
  protocol: 'http:' | 'https:';
  signal: AbortSignal;
}

/**
 * Dials a {@linkcode ConnectTarget} and resolves once the socket is connected (and, for https,
 * the TLS handshake is done). It only ever receives addresses the network guard has checked.
 * The default dials TCP to the address and wraps it in TLS with the URL's host as server name.
 * Tests replace it to map a checked public address to a loopback server at the socket level.
 */
export type ConnectFunction = (target: ConnectTarget) => Promise<Socket>;

/**
 * The default {@linkcode ConnectFunction}: TCP to the checked address (no DNS lookup: it is an
 * IP address), then TLS for https with the URL's host as SNI and as the name the certificate
 * is verified against.
 *
 * @param target The checked address and what it is for.
 * @returns The connected socket.
 * @throws The socket's error (`ECONNREFUSED`, a certificate error, …) or the abort reason.
 *
 * @example
 * ```ts
 * import { directConnect } from '@toolshed/tool-web';
 *
 * const signal = AbortSignal.timeout(10_000);
 * const socket = await directConnect({ address: '93.184.216.34', family: 4, port: 443, hostname: 'example.com', protocol: 'https:', signal });
 * ```
 */
export async function directConnect(target: ConnectTarget): Promise<Socket> {
  // Not even a SYN for a call that was interrupted already.
  if (target.signal.aborted) throw target.signal.reason ?? new Error('aborted');
  const socket: Socket =
    target.protocol === 'https:'
      ? tlsConnect({
          host: target.address,
          port: target.port,
          ALPNProtocols: ['http/1.1'],
          // SNI carries names only; for an address literal, the certificate is checked against the address.
          ...(isIP(target.hostname) ? {} : { servername: target.hostname }),
        })
      : netConnect({ host: target.address, port: target.port });
  const ready = target.protocol === 'https:' ? 'secureConnect' : 'connect';
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => fail(target.signal.reason ?? new Error('aborted'));
    const fail = (e: unknown) => {
      cleanup();
      socket.destroy();
      reject(e);
    };
    const ok = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      socket.off('error', fail);
      socket.off(ready, ok);
      target.signal.removeEventListener('abort', onAbort);
    };
    if (target.signal.aborted) return onAbort();
    socket.once('error', fail);
    socket.once(ready, ok);
    target.signal.addEventListener('abort', onAbort, { once: true });
  });
  return socket;
}

/**
 * An undici dispatcher whose every connection goes to the guarded host's checked addresses,
 * tried in order. The name undici asks for must be the guarded host's: the agent is made for one
 * hop and refuses to dial anything else.
 *
 * @param host What the guard resolved and checked.
 * @param options How to dial one address (`connect`), and what aborts connection attempts (`signal`).
 * @returns The dispatcher; close it when the hop is done.
 *
 * @example
 * ```ts
 * import { directConnect } from '@toolshed/tool-web';
 * import { pinnedAgent, resolveGuardedHost, type ResolveGuardedHostOptions } from '@toolshed/tool-web/internal';
 * declare const guardOptions: ResolveGuardedHostOptions;
 * declare const signal: AbortSignal;
 *
 * const url = new URL('https://example.com/docs');
 * const agent = pinnedAgent(await resolveGuardedHost(url, guardOptions), { connect: directConnect, signal });
 * try {
 *   await agent.request({ origin: url.origin, path: url.pathname, method: 'GET', signal });
 * } finally {
 *   await agent.close();
 * }
 * ```
 */
export function pinnedAgent(host: GuardedHost, options: { connect: ConnectFunction; signal: AbortSignal }): Agent {
  const { connect, signal } = options;
  return new Agent({
    connections: 1,
    connect(options, callback) {
      const asked = options.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
      if (asked !== host.hostname) {
        callback(
          new ToolshedError(
            'web_fetch_blocked',
            `WebFetch refused to connect to "${asked}": this connection was checked for "${host.hostname}" only.`,
          ),
          null,
        );
        return;
      }
      const protocol = options.protocol === 'https:' ? 'https:' : 'http:';
      const port = options.port ? Number(options.port) : protocol === 'https:' ? 443 : 80;
      dialFirst(host, { port, protocol, connect, signal }).then(
        (socket) => callback(null, socket),
        (e: Error) => callback(e, null),
      );
    },
  });
}

async function dialFirst(
  host: GuardedHost,
  how: { port: number; protocol: 'http:' | 'https:'; connect: ConnectFunction; signal: AbortSignal },
): Promise<Socket> {
  const errors: string[] = [];
  for (const { address, family } of host.addresses) {
    if (how.signal.aborted) throw how.signal.reason ?? new Error('aborted');
    try {
      return await how.connect({
        address,
        family,
        port: how.port,
        hostname: host.hostname,
        protocol: how.protocol,
        signal: how.signal,
      });
    } catch (e) {
      if (how.signal.aborted) throw e;
      const err = e as { code?: unknown; message?: string };
      errors.push(
        `${family === 6 ? `[${address}]` : address}:${how.port} ${typeof err.code === 'string' ? err.code : (err.message ?? String(e))}`,
      );
    }
  }
  throw new ToolshedError(
    'web_fetch_connect',
    `Could not connect to "${host.hostname}" (${errors.join('; ')}); the server may be down or the port closed.`,
  );
}
