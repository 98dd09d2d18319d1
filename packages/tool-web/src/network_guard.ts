import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ToolshedError } from '@toolshed/core';
import { classifyAddress, type AddressClass } from './address_policy.ts';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to every address it has, like `dns.lookup(name, { all: true })`.
 * WebFetch takes one as an option so that tests can give DNS answers (public, private or
 * mixed) without real DNS.
 */
export type LookupFunction = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** What {@linkcode resolveGuardedHost} found: the addresses to connect to, all checked. */
export interface GuardedHost {
  /** The URL's host without brackets or a trailing dot. */
  hostname: string;
  /** Every address the host resolved to, in the resolver's order; all allowed. */
  addresses: ResolvedAddress[];
  /** True when some address is not public and the user opened the host explicitly. */
  isPrivate: boolean;
}

/** Options of {@linkcode resolveGuardedHost}. */
export interface ResolveGuardedHostOptions {
  /** @default `dns.lookup` with `all: true` */
  lookup?: LookupFunction | undefined;
  /** Whether the user opened this URL's host to private addresses (a rule or `allowPrivateHosts`). */
  privateAllowed: boolean;
  /**
   * Whether an opened host may also reach link-local addresses, where cloud metadata services
   * live (169.254.169.254, fe80::/10). WebFetch withholds them from a name opened only by a
   * `WebFetch(domain:…)` rule: such rules are also how a user approves a public site, whose DNS
   * could later point at the metadata service.
   * @default privateAllowed
   */
  linkLocalAllowed?: boolean;
  /** How to name the opening for this host in a refusal, e.g. `WebFetch(domain:localhost)`. */
  allowRule: string;
  /**
   * Stops waiting for the resolver: a lookup that never answers must not outlive the call's
   * deadline or the user's interrupt. The lookup itself may go on in the background; its answer
   * is then ignored.
   * @default no signal
   */
  signal?: AbortSignal | undefined;
}

/**
 * WebFetch's network guard: resolves a URL's host and checks every address it resolves to.
 * Loopback, private, link-local (cloud metadata at 169.254.169.254), CGNAT, unique-local,
 * IPv4-mapped IPv6, unspecified, multicast and reserved addresses are refused unless the user
 * opened the host explicitly (link-local ones only when `linkLocalAllowed` says so too); a name
 * whose answers mix public and private addresses is refused whole, since the connection could
 * go to either. `localhost` and `*.localhost` count as loopback whatever a resolver says. The
 * caller connects to the returned addresses only, so the name is never looked up a second time
 * (no DNS rebinding between check and connect).
 *
 * @param url The URL about to be fetched.
 * @param options The resolver, and whether the host is explicitly opened.
 * @returns The checked addresses.
 * @throws {ToolshedError} `web_fetch_blocked` when an address is refused or the host is malformed;
 *   `web_fetch_dns` when the name does not resolve.
 *
 * @example
 * ```ts
 * import { resolveGuardedHost } from '@toolshed/tool-web/internal';
 *
 * const host = await resolveGuardedHost(new URL('https://example.com/'), { privateAllowed: false, allowRule: 'WebFetch(domain:example.com)' });
 * host.addresses; // [{ address: '93.184.216.34', family: 4 }]
 * ```
 */
export async function resolveGuardedHost(url: URL, options: ResolveGuardedHostOptions): Promise<GuardedHost> {
  const href = url.href;
  const hostname = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!hostname || /[\0-\x20%\x7f]/.test(hostname)) {
    throw blocked(`the host ${JSON.stringify(url.hostname)} of "${href}" contains control characters or is empty`);
  }
  let answers: { address: string; family: number }[];
  if (isIP(hostname)) {
    answers = [{ address: hostname, family: isIP(hostname) }];
  } else {
    if (/^(0x[0-9a-f]*|\d+)(\.(0x[0-9a-f]*|\d+))*$/i.test(hostname)) {
      // The URL parser turns every valid numeric spelling into a dotted quad; what is left is malformed.
      throw blocked(`the host "${hostname}" of "${href}" looks like an IPv4 address in an unusual spelling`);
    }
    // Every trailing dot, not just the root's: `localhost..` must not reach a resolver as a new name.
    const name = hostname.replace(/\.+$/, '');
    const isLocalhost = name === 'localhost' || name.endsWith('.localhost');
    if (isLocalhost && !options.privateAllowed) {
      throw blocked(
        `"${hostname}" is a loopback name (localhost), which WebFetch does not reach${howToOpen(hostname, options)}`,
      );
    }
    try {
      answers = [...(await untilAborted((options.lookup ?? defaultLookup)(hostname), options.signal))];
    } catch (e) {
      if (options.signal?.aborted) throw e;
      const code = (e as { code?: unknown }).code;
      throw new ToolshedError(
        'web_fetch_dns',
        `Could not resolve the host "${hostname}" of "${href}"${typeof code === 'string' ? ` (${code})` : ''}: check the URL for typos.`,
        { cause: e },
      );
    }
    if (answers.length === 0)
      throw new ToolshedError(
        'web_fetch_dns',
        `The host "${hostname}" of "${href}" resolved to no address: check the URL for typos.`,
      );
  }

  const addresses: ResolvedAddress[] = [];
  const refused: { address: string; cls: AddressClass }[] = [];
  for (const answer of answers) {
    const address = String(answer?.address ?? '');
    const cls = classifyAddress(address);
    if (cls.kind === 'invalid')
      throw blocked(`the resolver returned ${JSON.stringify(address)} for "${hostname}", which is not an IP address`);
    if (cls.kind !== 'public') refused.push({ address, cls });
    addresses.push({ address, family: cls.family === 6 ? 6 : 4 });
  }
  const linkLocalAllowed = options.linkLocalAllowed ?? options.privateAllowed;
  const unopened = refused.filter(({ cls }) => !options.privateAllowed || (!linkLocalAllowed && isLinkLocal(cls)));
  if (unopened.length > 0) {
    const what = unopened
      .map(({ address, cls }) => `${address} is ${article(cls.range)} ${cls.range} address`)
      .join('; ');
    const via = isIP(hostname)
      ? ''
      : answers.length > 1
        ? `"${hostname}" resolves to ${addresses.map((a) => a.address).join(', ')}, and `
        : `"${hostname}" resolves to ${unopened[0]!.address}, and `;
    if (options.privateAllowed) {
      throw blocked(
        `${via}${what}, which WebFetch does not reach for a name opened by a WebFetch(domain:…) rule: link-local addresses (cloud metadata) are reached only when allowPrivateHosts: ["${hostname}"] is passed to webTools() or a rule names the address itself. Do not retry with another spelling of the address`,
      );
    }
    throw blocked(`${via}${what}, which WebFetch does not reach${howToOpen(hostname, options)}`);
  }
  return { hostname, addresses, isPrivate: refused.length > 0 };
}

/** Link-local, or an IPv6 form that holds a link-local IPv4 address (`::ffff:169.254.169.254`). */
function isLinkLocal(cls: AddressClass): boolean {
  if (cls.kind === 'link-local') return true;
  return cls.embeddedV4 !== undefined && classifyAddress(cls.embeddedV4).kind === 'link-local';
}

/** The promise's outcome, or the signal's reason as soon as it aborts, whichever comes first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

async function defaultLookup(hostname: string): Promise<{ address: string; family: number }[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}

function blocked(detail: string): ToolshedError {
  return new ToolshedError('web_fetch_blocked', `WebFetch refused the request: ${detail}.`);
}

function howToOpen(hostname: string, options: ResolveGuardedHostOptions): string {
  return ` unless the user opens the host: they can add "${options.allowRule}" to permissions.allow or pass allowPrivateHosts: ["${hostname}"] to webTools(). Do not retry with another spelling of the address`;
}

function article(range: string): string {
  return /^[aeiou]/i.test(range) ? 'an' : 'a';
}
