import { describe, expect, test } from 'vitest';
import {
  effectivePort,
  hostPatternMatches,
  matchDomainSpecifier,
  normalizeHost,
  parseHostPattern,
} from './host_pattern.ts';

describe('host patterns and domain rules', () => {
  test.each([
    ['domain:example.com', 'https://example.com/', true],
    ['domain:example.com', 'https://docs.example.com/a', true],
    ['domain:example.com', 'https://EXAMPLE.com./', true],
    ['domain:example.com', 'https://example.com.evil.test/', false],
    ['domain:example.com', 'https://badexample.com/', false],
    ['domain:example.com', 'https://example.co/', false],
    ['domain:*.example.com', 'https://example.com/', false],
    ['domain:*.example.com', 'https://a.b.example.com/', true],
    ['domain:*', 'https://anything.test/', true],
    ['domain:localhost:3000', 'http://localhost:3000/', true],
    ['domain:localhost:3000', 'http://localhost:3001/', false],
    ['domain:example.com:443', 'https://example.com/', true],
    ['domain:127.0.0.1', 'http://127.0.0.1:8080/', true],
    ['domain:127.0.0.1', 'http://2130706433/', true],
    ['domain:0.0.1', 'http://127.0.0.1/', false],
    ['domain:[::1]', 'http://[::1]:3000/', true],
    ['domain:bücher.de', 'https://xn--bcher-kva.de/', true],
    ['example.com', 'https://example.com/', false],
    ['domain:', 'https://example.com/', false],
    ['domain:exa mple.com', 'https://example.com/', false],
  ])('matchDomainSpecifier(%j) on %s is %s', (specifier, url, expected) => {
    expect(matchDomainSpecifier(specifier, new URL(url))).toBe(expected);
  });

  test('parseHostPattern reads hosts, wildcards and ports, and refuses what is not a host', () => {
    expect(parseHostPattern('localhost:3000')).toEqual({ host: 'localhost', scope: 'exact', port: 3000 });
    expect(parseHostPattern('*.corp.internal')).toEqual({
      host: 'corp.internal',
      scope: 'subdomains',
      port: undefined,
    });
    expect(parseHostPattern('*')).toEqual({ host: '', scope: 'any', port: undefined });
    expect(parseHostPattern('http://x/')).toBeUndefined();
    expect(parseHostPattern('host:99999')).toBeUndefined();
    expect(parseHostPattern('a/b')).toBeUndefined();
  });

  test('hostPatternMatches never extends an IP address to "subdomains"', () => {
    expect(hostPatternMatches(parseHostPattern('0.1')!, new URL('http://10.0.0.1/'))).toBe(false);
  });

  test('normalizeHost and effectivePort follow the URL parser', () => {
    expect(normalizeHost('0x7f.1')).toBe('127.0.0.1');
    expect(normalizeHost('::1')).toBe('[::1]');
    expect(normalizeHost('LocalHost..')).toBe('localhost');
    expect(hostPatternMatches(parseHostPattern('localhost')!, new URL('http://localhost../'))).toBe(true);
    expect(normalizeHost('a b')).toBe('');
    expect(effectivePort(new URL('http://x/'))).toBe(80);
    expect(effectivePort(new URL('https://x:8443/'))).toBe(8443);
  });
});
