import { isIP } from 'node:net';

/** A parsed host pattern: `example.com`, `*.example.com`, `*`, optionally with `:PORT`. */
export interface HostPattern {
  /** The normalized host (lowercase, punycode, no trailing dot; IPv6 in brackets); '' for `*`. */
  host: string;
  /** `exact`: the host and its subdomains; `subdomains`: only subdomains (`*.host`); `any`: `*`. */
  scope: 'exact' | 'subdomains' | 'any';
  /** The port, when the pattern names one. */
  port: number | undefined;
}

const PATTERN = /^(\*|\*\.[^:[\]]+|\[[0-9a-fA-F:.%]+\]|[^:[\]*]+)(?::(\d{1,5}))?$/;

/**
 * Parses a host pattern as used by `WebFetch(domain:…)` rules and the `allowPrivateHosts`
 * option: `example.com` (the host and its subdomains), `*.example.com` (subdomains only), `*`
 * (any host), each optionally followed by `:PORT`. Hosts are normalized as the URL parser does,
 * so `EXAMPLE.com.`, `bücher.de` and `0x7f.1` mean what a URL with them would reach.
 *
 * @param text The pattern.
 * @returns The pattern, or undefined when it is not one.
 *
 * @example
 * ```ts
 * import { parseHostPattern } from '@toolshed/tool-web/internal';
 *
 * parseHostPattern('localhost:3000'); // { host: 'localhost', scope: 'exact', port: 3000 }
 * parseHostPattern('*.example.com');  // { host: 'example.com', scope: 'subdomains', port: undefined }
 * ```
 */
export function parseHostPattern(text: string): HostPattern | undefined {
  if (typeof text !== 'string') return undefined;
  const m = PATTERN.exec(text.trim());
  if (!m) return undefined;
  const raw = m[1]!;
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  if (raw === '*') return { host: '', scope: 'any', port };
  const subdomains = raw.startsWith('*.');
  const host = normalizeHost(subdomains ? raw.slice(2) : raw);
  if (!host) return undefined;
  return { host, scope: subdomains ? 'subdomains' : 'exact', port };
}

/**
 * Whether a URL's host (and port, when the pattern names one) matches a pattern. A name matches
 * itself and its subdomains, never a longer name that merely ends with it:
 * `example.com` matches `docs.example.com` but not `example.com.evil.test` or `badexample.com`.
 * An IP address matches only itself.
 *
 * @param pattern A parsed pattern.
 * @param url The URL.
 * @returns True on a match.
 *
 * @example
 * ```ts
 * import { hostPatternMatches, parseHostPattern } from '@toolshed/tool-web/internal';
 *
 * hostPatternMatches(parseHostPattern('example.com')!, new URL('https://api.example.com/x')); // true
 * ```
 */
export function hostPatternMatches(pattern: HostPattern, url: URL): boolean {
  if (pattern.port !== undefined && pattern.port !== effectivePort(url)) return false;
  if (pattern.scope === 'any') return true;
  const host = normalizeHost(url.hostname);
  if (!host) return false;
  const isAddress = host.startsWith('[') || isIP(host) !== 0;
  if (pattern.scope === 'exact' && host === pattern.host) return true;
  return !isAddress && host.endsWith(`.${pattern.host}`);
}

/**
 * Matches a `WebFetch` rule specifier (`domain:HOST`, Claude Code's form) against a URL.
 *
 * @param specifier The part in parentheses of `WebFetch(domain:example.com)`.
 * @param url The URL fetched.
 * @returns True when the specifier is a `domain:` pattern that matches the URL's host.
 *
 * @example
 * ```ts
 * import { matchDomainSpecifier } from '@toolshed/tool-web';
 *
 * matchDomainSpecifier('domain:example.com', new URL('https://example.com/')); // true
 * matchDomainSpecifier('domain:example.com', new URL('https://example.com.evil.test/')); // false
 * ```
 */
export function matchDomainSpecifier(specifier: string, url: URL): boolean {
  const pattern = domainPatternOf(specifier);
  return pattern !== undefined && hostPatternMatches(pattern, url);
}

/**
 * The host pattern of a `domain:` specifier.
 *
 * @param specifier For example `domain:example.com`.
 * @returns The pattern, or undefined when the specifier is not a valid `domain:` one.
 *
 * @example
 * ```ts
 * import { domainPatternOf } from '@toolshed/tool-web/internal';
 *
 * domainPatternOf('domain:localhost')?.host; // 'localhost'
 * ```
 */
export function domainPatternOf(specifier: string): HostPattern | undefined {
  if (typeof specifier !== 'string' || !specifier.startsWith('domain:')) return undefined;
  return parseHostPattern(specifier.slice('domain:'.length));
}

/**
 * The port a URL connects to: its explicit port, or 80/443 by scheme.
 *
 * @param url The URL.
 * @returns The port number.
 *
 * @example
 * ```ts
 * import { effectivePort } from '@toolshed/tool-web/internal';
 *
 * effectivePort(new URL('https://example.com/')); // 443
 * ```
 */
export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * A host as the URL parser normalizes it, without a trailing dot.
 *
 * @param host A host name or address (IPv6 with or without brackets).
 * @returns The normalized host, or '' when it is not a valid host.
 *
 * @example
 * ```ts
 * import { normalizeHost } from '@toolshed/tool-web/internal';
 *
 * normalizeHost('Example.COM.'); // 'example.com'
 * normalizeHost('2130706433');   // '127.0.0.1'
 * ```
 */
export function normalizeHost(host: string): string {
  let text = host.trim();
  if (isIP(text) === 6) text = `[${text}]`;
  try {
    const parsed = new URL(`http://${text}/`);
    if (parsed.port || parsed.username || parsed.password || parsed.pathname !== '/') return '';
    return parsed.hostname.replace(/\.+$/, '');
  } catch {
    return '';
  }
}
