import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import { ToolshedError } from '@toolshed/core';
import { pinnedAgent, type ConnectFunction } from './connect.ts';
import { resolveGuardedHost, type LookupFunction } from './network_guard.ts';
import { effectivePort } from './host_pattern.ts';
import { readBody } from './_read_body.ts';
import { startDeadline } from './_deadline.ts';
import { classifyContentType, type ContentKind } from './_content_type.ts';
import { describeTransportError } from './_transport_error.ts';
import { headerText, neutralizePageText } from './_page_text.ts';

/** What {@linkcode fetchPage} needs. */
export interface FetchPageOptions {
  lookup: LookupFunction | undefined;
  connect: ConnectFunction;
  /**
   * How far the user opened this URL's host: `none`; `private` (a `WebFetch(domain:…)` rule for
   * a name: private addresses but not link-local ones); `all` (`allowPrivateHosts`, or a rule
   * that names the address itself).
   */
  opening: (url: URL) => HostOpening;
  /**
   * Why the user's rules refuse a URL the fetch moved to without a new permission check (the
   * http→https upgrade, a same-host redirect to another port), or undefined when none does.
   * Asked only when the host or port differs from the URL the permission step saw.
   */
  rulesRefuse: (url: URL) => string | undefined;
  maxBytes: number;
  maxRedirects: number;
  timeoutMs: number;
  userAgent: string;
  signal: AbortSignal;
  onProgress: (message: string) => void;
}

/** How far the user opened a host to non-public addresses; see {@linkcode FetchPageOptions}. */
export type HostOpening = 'none' | 'private' | 'all';

/** A page fetched: its bytes and what the server said about them. */
export interface FetchedContent {
  kind: 'content';
  /** The URL after the http→https upgrade, before same-host redirects. */
  requestedUrl: string;
  finalUrl: string;
  status: number;
  statusText: string;
  contentType: string;
  contentKind: ContentKind;
  body: Buffer;
  truncated: boolean;
  /** Reached through an explicitly opened private host. */
  isPrivate: boolean;
}

/** A redirect to another host, reported rather than followed. */
export interface FetchedRedirect {
  kind: 'redirect';
  requestedUrl: string;
  /** The URL that answered with the redirect. */
  fromUrl: string;
  toUrl: string;
  status: number;
  statusText: string;
  isPrivate: boolean;
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches one URL behind the network guard: every hop's host resolved and checked, each
 * connection pinned to the checked addresses, http upgraded to https unless the host is an
 * explicitly opened private one, same-host redirects followed (up to `maxRedirects`), a redirect
 * to another host returned, binary types refused before their body is read, the body capped,
 * and the whole exchange under one timeout.
 *
 * @param input The URL, already validated.
 * @param options Limits, the resolver and connector, and the private-host opening.
 * @returns The content or the cross-host redirect.
 * @throws {ToolshedError} With a message for the model: refused, timed out, HTTP error, binary type, ….
 *
 * @example
 * ```ts
 * import { directConnect } from '@toolshed/tool-web';
 * import { fetchPage } from './_fetch_page.ts';
 * declare const signal: AbortSignal;
 *
 * const page = await fetchPage(new URL('https://example.com/'), { lookup: undefined, connect: directConnect, opening: () => 'none',
 *   rulesRefuse: () => undefined, maxBytes: 10 * 1024 * 1024, maxRedirects: 10, timeoutMs: 60_000, userAgent: 'x', signal, onProgress: console.log });
 * if (page.kind === 'content') page.body.toString('utf8');
 * ```
 */
export async function fetchPage(input: URL, options: FetchPageOptions): Promise<FetchedContent | FetchedRedirect> {
  const deadline = startDeadline(options.signal, options.timeoutMs);
  const progress = { received: 0, resolving: false };
  let current = new URL(input.href);
  try {
    return await run();
  } catch (e) {
    if (deadline.timedOut) {
      const got = progress.resolving
        ? ' while looking up its host name (DNS)'
        : progress.received > 0
          ? ` after receiving ${formatBytes(progress.received)}`
          : ' before the server answered';
      throw new ToolshedError(
        'web_fetch_timeout',
        `WebFetch timed out after ${formatSeconds(options.timeoutMs)} fetching "${current.href}"${got}; the server is slow or the body never ends. Try again later or another URL.`,
        { cause: e },
      );
    }
    throw describeTransportError(e, { url: current.href, received: progress.received }) ?? e;
  } finally {
    deadline.dispose();
  }

  async function run(): Promise<FetchedContent | FetchedRedirect> {
    const signal = deadline.signal;
    let requestedUrl: string | undefined;
    for (let hop = 0; ; hop++) {
      const opening = options.opening(current);
      progress.resolving = true;
      const host = await resolveGuardedHost(current, {
        signal,
        lookup: options.lookup,
        privateAllowed: opening !== 'none',
        linkLocalAllowed: opening === 'all',
        allowRule: `WebFetch(domain:${current.hostname.replace(/\.+$/, '') || current.hostname})`,
      });
      progress.resolving = false;
      // Claude Code upgrades http to https; an explicitly opened private host (a dev server) keeps http.
      if (current.protocol === 'http:' && !host.isPrivate) {
        current = new URL(current.href);
        current.protocol = 'https:';
      }
      requestedUrl ??= current.href;
      // Rules name a host and a port; a hop to another port is a URL no permission step saw.
      if (current.hostname !== input.hostname || effectivePort(current) !== effectivePort(input)) {
        const refusal = options.rulesRefuse(current);
        if (refusal) throw new ToolshedError('web_fetch_blocked', `WebFetch refused "${current.href}": ${refusal}.`);
      }
      if (hop > 0) options.onProgress(`Following a redirect to ${current.href}`);
      const agent = pinnedAgent(host, { connect: options.connect, signal });
      try {
        const response = await request(current, {
          method: 'GET',
          dispatcher: agent,
          signal,
          headers: {
            'user-agent': options.userAgent,
            accept:
              'text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, application/json;q=0.9, text/plain;q=0.8, */*;q=0.5',
            'accept-encoding': 'gzip, deflate, br',
          },
        });
        const status = response.statusCode;
        const statusText = STATUS_CODES[status] ?? '';
        if (REDIRECT.has(status)) {
          discard(response.body);
          const location = header(response.headers['location']);
          if (!location)
            throw new ToolshedError(
              'web_fetch_http',
              `"${current.href}" answered ${status} ${statusText} without a Location header, so there is nothing to follow.`,
            );
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            throw new ToolshedError(
              'web_fetch_http',
              `"${current.href}" redirects to ${JSON.stringify(headerText(location))}, which is not a valid URL.`,
            );
          }
          if (!sameHost(current, next)) {
            return {
              kind: 'redirect',
              requestedUrl,
              fromUrl: current.href,
              toUrl: next.href,
              status,
              statusText,
              isPrivate: host.isPrivate,
            };
          }
          if (hop + 1 > options.maxRedirects) {
            throw new ToolshedError(
              'web_fetch_http',
              `"${requestedUrl}" redirected more than ${options.maxRedirects} times (last to "${next.href}"); it is probably a redirect loop.`,
            );
          }
          current = next;
          continue;
        }
        if (status < 200 || status >= 300) {
          discard(response.body);
          throw new ToolshedError(
            'web_fetch_http',
            `"${current.href}" answered HTTP ${status}${statusText ? ` ${statusText}` : ''}; the page could not be fetched.`,
          );
        }
        // A server chooses this text, and it is shown to the model: neutralized like the page.
        const contentType = headerText(header(response.headers['content-type']) ?? '');
        const contentKind = classifyContentType(contentType);
        if (contentKind === 'binary') {
          discard(response.body);
          const type = contentType.split(';')[0]!.trim();
          throw new ToolshedError(
            'web_fetch_unsupported_type',
            `"${current.href}" is "${type}" content, which WebFetch does not read: it returns HTML (as Markdown), Markdown, JSON and plain text only.`,
          );
        }
        const encoding = header(response.headers['content-encoding']);
        const { data, truncated } = await readBody(
          response.body,
          encoding === undefined ? undefined : neutralizePageText(encoding),
          {
            maxBytes: options.maxBytes,
            progress,
            url: current.href,
          },
        );
        return {
          kind: 'content',
          requestedUrl,
          finalUrl: current.href,
          status,
          statusText,
          contentType,
          contentKind,
          body: data,
          truncated,
          isPrivate: host.isPrivate,
        };
      } finally {
        // Not awaited: closing waits for the socket to drain, and a torn-down body is already gone.
        agent.destroy().catch(() => {});
      }
    }
  }
}

/**
 * Whether a redirect stays on the same host: the same name and port, or the http→https upgrade
 * of the same name on default ports; never a downgrade to http, never credentials.
 */
function sameHost(from: URL, to: URL): boolean {
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  if (to.username || to.password) return false;
  if (from.hostname.toLowerCase() !== to.hostname.toLowerCase()) return false;
  if (from.protocol === 'https:' && to.protocol === 'http:') return false;
  if (from.protocol === to.protocol) return effectivePort(from) === effectivePort(to);
  return !from.port && !to.port;
}

/** Drops a body unread; undici reports destroying an unread body as an error nobody needs. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A byte count for people: `512 B`, `12.3 KB`, `4.0 MB`.
 *
 * @param bytes The count.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { formatBytes } from './_fetch_page.ts';
 *
 * formatBytes(12_600); // '12.3 KB'
 * ```
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
