import { describe, expect, test } from 'vitest';
import type { DeferralCandidate } from '@toolshed/core';
import { createDeferralPolicy } from './deferral_policy.ts';

function candidate(name: string, chars: number, extra: Partial<DeferralCandidate> = {}): DeferralCandidate {
  return { name, family: 'f', shouldDefer: false, alwaysLoad: false, isMcp: false, definitionChars: chars, ...extra };
}

const pool = [
  candidate('ToolSearch', 1_000, { alwaysLoad: true }),
  candidate('Small', 1_000),
  candidate('Medium', 10_000),
  candidate('Large', 60_000),
  candidate('Later', 500, { shouldDefer: true }),
  candidate('mcp__s__t', 500, { isMcp: true }),
  candidate('Pinned', 90_000, { alwaysLoad: true }),
];

describe('createDeferralPolicy', () => {
  test('auto defers shouldDefer and MCP tools and nothing else while the rest fits the threshold', () => {
    const policy = createDeferralPolicy({ contextWindow: 1_000_000 });
    expect([...policy(pool)].sort()).toEqual(['Later', 'mcp__s__t']);
  });

  test('auto defers the largest remaining tools until the visible definitions fit, never alwaysLoad ones', () => {
    // Budget: 0.1 × 260 000 tokens × 4 = 104 000 characters; visible before: 162 000, without Large 102 000.
    expect([...createDeferralPolicy({ contextWindow: 260_000 })(pool)].sort()).toEqual(['Large', 'Later', 'mcp__s__t']);
    // Budget 100 000: without Large still 102 000, so Medium goes too; Small (1 000) stays.
    expect([...createDeferralPolicy({ contextWindow: 250_000 })(pool)].sort()).toEqual([
      'Large',
      'Later',
      'Medium',
      'mcp__s__t',
    ]);
    // Budget 40 000 characters: even deferring everything eligible leaves Pinned's 90 000, so all go.
    expect([...createDeferralPolicy({ contextWindow: 100_000 })(pool)].sort()).toEqual([
      'Large',
      'Later',
      'Medium',
      'Small',
      'mcp__s__t',
    ]);
  });

  test('the threshold is a share of the context window, and charsPerToken converts sizes', () => {
    expect([...createDeferralPolicy({ contextWindow: 250_000, threshold: 0.2 })(pool)].sort()).toEqual([
      'Later',
      'mcp__s__t',
    ]);
    expect([...createDeferralPolicy({ contextWindow: 250_000, charsPerToken: 8 })(pool)].sort()).toEqual([
      'Later',
      'mcp__s__t',
    ]);
  });

  test('always defers every tool but alwaysLoad ones, ToolSearch and pinned names; never defers none', () => {
    expect([...createDeferralPolicy({ mode: 'always', alwaysLoad: ['Small'] })(pool)].sort()).toEqual([
      'Large',
      'Later',
      'Medium',
      'mcp__s__t',
    ]);
    expect(createDeferralPolicy({ mode: 'never' })(pool).size).toBe(0);
  });

  test('bad options are RangeErrors that name the value', () => {
    expect(() => createDeferralPolicy({ mode: 'off' as 'never' })).toThrow(/Unknown deferral mode "off"/);
    expect(() => createDeferralPolicy({ threshold: -0.1 })).toThrow(/got -0.1/);
    expect(() => createDeferralPolicy({ contextWindow: Number.NaN })).toThrow(/got NaN/);
    expect(() => createDeferralPolicy({ charsPerToken: 0 })).toThrow(/charsPerToken must be positive, got 0/);
  });
});
