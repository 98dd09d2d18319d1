import { describe, expect, test } from 'vitest';
import { mcpServerSegment, mcpToolName, normalizeMcpName, uniqueToolName } from './tool_name.ts';

describe('mcpToolName', () => {
  test('joins server and tool as mcp__<server>__<tool>, replacing characters outside [A-Za-z0-9_-]', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('my server', 'files.read/v2')).toBe('mcp__my_server__files_read_v2');
    expect(normalizeMcpName('ä-b c')).toBe('_-b_c');
  });

  test('caps the name at 64 characters with a hash that keeps long names apart', () => {
    const long = 'a'.repeat(80);
    const one = mcpToolName('server', `${long}1`);
    const two = mcpToolName('server', `${long}2`);
    expect(one).toHaveLength(64);
    expect(two).toHaveLength(64);
    expect(one).not.toBe(two);
    expect(one).toMatch(/^mcp__server__a+_[0-9a-f]{6}$/);
    expect(mcpToolName('server', `${long}1`)).toBe(one);
  });
});

describe('uniqueToolName', () => {
  test('keeps a free name and suffixes a hash to a taken one', () => {
    expect(uniqueToolName('mcp__s__a_b', { original: 's\u0000a_b', taken: new Set() })).toBe('mcp__s__a_b');
    const other = uniqueToolName('mcp__s__a_b', { original: 's\u0000a.b', taken: new Set(['mcp__s__a_b']) });
    expect(other).toMatch(/^mcp__s__a_b_[0-9a-f]{6}$/);
    expect(other.length).toBeLessThanOrEqual(64);
  });
});

test('a server part of a tool name never holds "__" nor ends with "_", so the first "__" after mcp__ ends it', () => {
  expect(mcpServerSegment('github__helper')).toBe('github_helper');
  expect(mcpServerSegment('github_')).toBe('github');
  expect(mcpServerSegment('_github')).toBe('_github');
  expect(mcpServerSegment('a . b')).toBe('a_b');
  expect(mcpServerSegment('__')).toMatch(/^s[0-9a-f]{6}$/);
  expect(mcpToolName('github__helper', 'push')).toBe('mcp__github_helper__push');
  expect(mcpToolName('github', 'helper__push')).toBe('mcp__github__helper__push');
  for (const server of ['a', 'a_', 'a__b', '日本', '-_-', '___x___'])
    expect(mcpToolName(server, 'tool').slice('mcp__'.length)).toMatch(/^(?:[A-Za-z0-9-]|_(?!_))*[A-Za-z0-9-]__/);
});
