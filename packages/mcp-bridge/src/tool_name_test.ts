import { describe, expect, test } from 'vitest';
import { mcpToolName, normalizeMcpName, uniqueToolName } from './tool_name.ts';

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
