import { describe, expect, test } from 'vitest';
import { classifyAddress, isPublicAddress, type AddressKind } from './address_policy.ts';

describe('classifyAddress', () => {
  test.each<[string, AddressKind]>([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.5', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::127.0.0.1', 'ipv4-mapped'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:a00:1::1', 'private'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'reserved'],
    ['2001::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:10::1', 'reserved'],
    ['64:ff9b:1::7f00:1', 'reserved'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['::ffff:0:127.0.0.1', 'ipv4-mapped'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'ipv4-mapped'],
    ['fec0::1', 'private'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['2001:4860:4860::8888', 'public'],
    ['2002:808:808::1', 'public'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2130706433', 'invalid'],
    ['0x7f.1', 'invalid'],
    ['127.1', 'invalid'],
    ['localhost', 'invalid'],
    ['', 'invalid'],
  ])('classifyAddress calls %s %s', (address, kind) => {
    expect(classifyAddress(address).kind).toBe(kind);
  });

  test('classifyAddress names the range in words a person can check', () => {
    expect(classifyAddress('169.254.169.254').range).toContain('cloud metadata');
    expect(classifyAddress('::ffff:10.0.0.1').range).toContain('holding 10.0.0.1');
    expect(classifyAddress('::ffff:a9fe:a9fe').embeddedV4).toBe('169.254.169.254');
    expect(classifyAddress('::7f00:1').embeddedV4).toBe('127.0.0.1');
    expect(classifyAddress('fe80::1').embeddedV4).toBeUndefined();
    // Teredo stores the client's IPv4 address inverted: 0x80ff:fffe is 127.0.0.1.
    expect(classifyAddress('2001:0:4136:e378:8000:63bf:80ff:fffe').range).toBe(
      'Teredo tunnel (2001::/32, to 127.0.0.1)',
    );
  });

  test('isPublicAddress is true only for public addresses', () => {
    expect(isPublicAddress('1.1.1.1')).toBe(true);
    expect(isPublicAddress('10.0.0.1')).toBe(false);
    expect(isPublicAddress('not an address')).toBe(false);
  });
});
