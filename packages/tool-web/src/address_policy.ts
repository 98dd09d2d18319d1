import { isIPv4, isIPv6 } from 'node:net';

/** What kind of network an IP address belongs to, as far as WebFetch's guard cares. */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'ipv4-mapped'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

/** What {@linkcode classifyAddress} says about one address. */
export interface AddressClass {
  kind: AddressKind;
  /** 4 or 6; 0 for an invalid address. */
  family: 0 | 4 | 6;
  /** The range it falls in, in words: `loopback (127.0.0.0/8)`. */
  range: string;
  /** For an IPv4-mapped, -translated or -compatible IPv6 address: the IPv4 address inside. */
  embeddedV4?: string;
}

type V4Range = readonly [base: number, prefix: number, kind: AddressKind, label: string];

// Every IPv4 range that is not the public internet. Documentation and benchmarking ranges are
// refused too: no real server lives there, so a page that points at one is up to no good.
const V4_RANGES: readonly V4Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified', '"this network" (0.0.0.0/8)'],
  [v4('10.0.0.0'), 8, 'private', 'private (10.0.0.0/8)'],
  [v4('100.64.0.0'), 10, 'cgnat', 'carrier-grade NAT (100.64.0.0/10)'],
  [v4('127.0.0.0'), 8, 'loopback', 'loopback (127.0.0.0/8)'],
  [v4('169.254.0.0'), 16, 'link-local', 'link-local, where cloud metadata services live (169.254.0.0/16)'],
  [v4('172.16.0.0'), 12, 'private', 'private (172.16.0.0/12)'],
  [v4('192.0.0.0'), 24, 'reserved', 'IETF protocol assignments (192.0.0.0/24)'],
  [v4('192.0.2.0'), 24, 'reserved', 'documentation (192.0.2.0/24)'],
  [v4('192.88.99.0'), 24, 'reserved', '6to4 relay anycast (192.88.99.0/24)'],
  [v4('192.168.0.0'), 16, 'private', 'private (192.168.0.0/16)'],
  [v4('198.18.0.0'), 15, 'reserved', 'benchmarking (198.18.0.0/15)'],
  [v4('198.51.100.0'), 24, 'reserved', 'documentation (198.51.100.0/24)'],
  [v4('203.0.113.0'), 24, 'reserved', 'documentation (203.0.113.0/24)'],
  [v4('224.0.0.0'), 4, 'multicast', 'multicast (224.0.0.0/4)'],
  [v4('240.0.0.0'), 4, 'reserved', 'reserved (240.0.0.0/4, broadcast included)'],
];

/**
 * Classifies an IP address for WebFetch's network guard: `public`, or the kind of non-public
 * network it belongs to. Only canonical forms count as addresses (`127.0.0.1`, `::1`): odd
 * spellings such as `2130706433` or `0x7f.1` are `invalid` here, because the URL parser has
 * already turned them into dotted quads before an address is looked at, and anything still odd
 * came from somewhere that should not be trusted.
 *
 * IPv4-mapped (`::ffff:127.0.0.1`) and IPv4-compatible IPv6 addresses are never public; NAT64
 * (`64:ff9b::/96`) and 6to4 (`2002::/16`) addresses are judged by the IPv4 address inside;
 * Teredo (`2001::/32`), the rest of `2001::/23` and local-use NAT64 (`64:ff9b:1::/48`) are
 * never public (what they tunnel to cannot be checked).
 *
 * @param address An IPv4 or IPv6 address, without brackets; an IPv6 zone (`%eth0`) is ignored.
 * @returns Its kind, family and range.
 *
 * @example
 * ```ts
 * import { classifyAddress } from '@toolshed/tool-web/internal';
 *
 * classifyAddress('169.254.169.254').kind; // 'link-local'
 * classifyAddress('::ffff:10.0.0.1').kind;  // 'ipv4-mapped'
 * classifyAddress('93.184.216.34').kind;    // 'public'
 * ```
 */
export function classifyAddress(address: string): AddressClass {
  if (typeof address !== 'string') return { kind: 'invalid', family: 0, range: 'not an IP address' };
  if (isIPv4(address)) return classifyV4(v4(address));
  const bare = address.replace(/%[^%]*$/, '');
  if (!isIPv6(bare)) return { kind: 'invalid', family: 0, range: 'not an IP address' };
  return classifyV6(v6Groups(bare));
}

/**
 * Whether an address may be reached without the user opening it explicitly.
 *
 * @param address An IPv4 or IPv6 address.
 * @returns True for public addresses only.
 *
 * @example
 * ```ts
 * import { isPublicAddress } from '@toolshed/tool-web/internal';
 *
 * isPublicAddress('8.8.8.8');   // true
 * isPublicAddress('fd00::1');   // false
 * ```
 */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).kind === 'public';
}

function classifyV4(n: number): AddressClass {
  for (const [base, prefix, kind, range] of V4_RANGES) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((n & mask) >>> 0 === base) return { kind, family: 4, range };
  }
  return { kind: 'public', family: 4, range: 'public' };
}

function classifyV6(g: readonly number[]): AddressClass {
  const at = (i: number) => g[i] ?? 0;
  const zeroUpTo = (end: number) => g.slice(0, end).every((x) => x === 0);
  if (zeroUpTo(8)) return { kind: 'unspecified', family: 6, range: 'unspecified (::)' };
  if (zeroUpTo(7) && at(7) === 1) return { kind: 'loopback', family: 6, range: 'loopback (::1)' };
  const embedded = ((at(6) << 16) | at(7)) >>> 0;
  if (zeroUpTo(5) && at(5) === 0xffff) {
    return {
      kind: 'ipv4-mapped',
      family: 6,
      range: `IPv4-mapped IPv6 (::ffff:0:0/96, holding ${v4String(embedded)})`,
      embeddedV4: v4String(embedded),
    };
  }
  if (zeroUpTo(4) && at(4) === 0xffff && at(5) === 0) {
    return {
      kind: 'ipv4-mapped',
      family: 6,
      range: `IPv4-translated IPv6 (::ffff:0:0:0/96, holding ${v4String(embedded)})`,
      embeddedV4: v4String(embedded),
    };
  }
  if (zeroUpTo(6))
    return {
      kind: 'ipv4-mapped',
      family: 6,
      range: `IPv4-compatible IPv6 (::/96, holding ${v4String(embedded)})`,
      embeddedV4: v4String(embedded),
    };
  if (at(0) === 0x64 && at(1) === 0xff9b && at(2) === 0 && at(3) === 0 && at(4) === 0 && at(5) === 0) {
    const inner = classifyV4(embedded);
    if (inner.kind !== 'public') return { ...inner, family: 6, range: `NAT64 (64:ff9b::/96) of ${inner.range}` };
    return { kind: 'public', family: 6, range: 'public' };
  }
  // Local-use NAT64 (RFC 8215) puts the IPv4 address at a place each network chooses, so it
  // cannot be judged from inside; no public web server is reached through it.
  if (at(0) === 0x64 && at(1) === 0xff9b && at(2) === 1)
    return { kind: 'reserved', family: 6, range: 'local-use NAT64 (64:ff9b:1::/48)' };
  // Teredo (2001::/32) tunnels to an IPv4 address hidden in the last 32 bits (inverted), and the
  // rest of 2001::/23 is protocol plumbing (benchmarking, ORCHID, AMT…), not web servers.
  if (at(0) === 0x2001 && at(1) === 0) {
    const client = ~(((at(6) << 16) | at(7)) >>> 0) >>> 0;
    return { kind: 'reserved', family: 6, range: `Teredo tunnel (2001::/32, to ${v4String(client)})` };
  }
  if (at(0) === 0x2001 && at(1) < 0x200)
    return { kind: 'reserved', family: 6, range: 'IETF protocol assignments (2001::/23)' };
  if (at(0) === 0x2002) {
    const inner = classifyV4(((at(1) << 16) | at(2)) >>> 0);
    if (inner.kind !== 'public') return { ...inner, family: 6, range: `6to4 (2002::/16) of ${inner.range}` };
    return { kind: 'public', family: 6, range: 'public' };
  }
  if ((at(0) & 0xfe00) === 0xfc00) return { kind: 'unique-local', family: 6, range: 'unique-local (fc00::/7)' };
  if ((at(0) & 0xffc0) === 0xfe80) return { kind: 'link-local', family: 6, range: 'link-local (fe80::/10)' };
  if ((at(0) & 0xffc0) === 0xfec0) return { kind: 'private', family: 6, range: 'site-local (fec0::/10)' };
  if ((at(0) & 0xff00) === 0xff00) return { kind: 'multicast', family: 6, range: 'multicast (ff00::/8)' };
  if (at(0) === 0x2001 && at(1) === 0x0db8)
    return { kind: 'reserved', family: 6, range: 'documentation (2001:db8::/32)' };
  if (at(0) === 0x0100 && at(1) === 0 && at(2) === 0 && at(3) === 0)
    return { kind: 'reserved', family: 6, range: 'discard-only (100::/64)' };
  // Global unicast is 2000::/3; anything else is unassigned and has no business in a DNS answer.
  if ((at(0) & 0xe000) !== 0x2000)
    return { kind: 'reserved', family: 6, range: 'unassigned (outside global unicast, 2000::/3)' };
  return { kind: 'public', family: 6, range: 'public' };
}

function v4(address: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function v4String(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted tail folded in). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const n = v4(tail);
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups =
    rest === undefined ? left : [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => parseInt(g, 16));
}
