import { describe, expect, test } from 'vitest';
import { matchesTool, validateMatcher } from './hook_matcher.ts';

describe('matchesTool', () => {
  test('no matcher, an empty matcher and "*" match every tool', () => {
    for (const matcher of [undefined, '', '*']) {
      expect(matchesTool(matcher, 'Bash')).toBe(true);
      expect(matchesTool(matcher, 'mcp__github__search')).toBe(true);
    }
  });

  test('a plain name matches only that exact tool name', () => {
    expect(matchesTool('Bash', 'Bash')).toBe(true);
    expect(matchesTool('Bash', 'BashOutput')).toBe(false);
    expect(matchesTool('Bash', 'bash')).toBe(false);
    expect(matchesTool('mcp__fs__read-file', 'mcp__fs__read-file')).toBe(true);
  });

  test("a tool's aliases are its names too: Claude Code's legacy Task selects the Agent tool", () => {
    expect(matchesTool('Task', 'Agent', { aliases: ['Task'] })).toBe(true);
    expect(matchesTool('Read|Task', 'Agent', { aliases: ['Task'] })).toBe(true);
    expect(matchesTool('^Task$', 'Agent', { aliases: ['Task'] })).toBe(true);
    expect(matchesTool('Task', 'Agent')).toBe(false);
  });

  test('pipe-separated names match any of the names and nothing else', () => {
    expect(matchesTool('Edit|Write', 'Edit')).toBe(true);
    expect(matchesTool('Edit|Write', 'Write')).toBe(true);
    expect(matchesTool('Edit|Write', 'NotebookEdit')).toBe(false);
    expect(matchesTool('Edit|Write', 'Edit|Write')).toBe(false);
  });

  test('any other matcher is a regex found anywhere in the name, as Claude Code tests it', () => {
    expect(matchesTool('mcp__.*', 'mcp__github__search')).toBe(true);
    // A guard written for "tools that start with" must run on every one of them, as in Claude Code.
    expect(matchesTool('mcp__github__(create|merge)', 'mcp__github__merge_pull_request')).toBe(true);
    expect(matchesTool('Notebook.*', 'NotebookEdit')).toBe(true);
    expect(matchesTool('Edit.*|Write', 'Write')).toBe(true);
    expect(matchesTool('Ed.t', 'NotebookEdit')).toBe(true);
    expect(matchesTool('^(Edit|Write)$', 'NotebookEdit')).toBe(false);
    expect(matchesTool('^mcp__.*', 'xmcp__github')).toBe(false);
    expect(matchesTool('mcp__my-server__.*', 'mcp__my-server__list')).toBe(true);
    expect(matchesTool('mcp__my-server__.*', 'mcp__other__list')).toBe(false);
  });

  test('a matcher that is not a valid regex matches nothing, not even itself', () => {
    expect(matchesTool('Bash(', 'Bash(')).toBe(false);
    expect(matchesTool('Bash(', 'Bash')).toBe(false);
    expect(matchesTool('[', 'Read')).toBe(false);
  });
});

describe('validateMatcher', () => {
  test('accepts every form matchesTool understands', () => {
    for (const matcher of [undefined, '', '*', 'Bash', 'Edit|Write', 'mcp__.*', 'Notebook(Edit|Read)']) {
      expect(validateMatcher(matcher)).toBeUndefined();
    }
  });

  test('names the matcher and the regex error for an invalid regex', () => {
    const message = validateMatcher('Bash(');
    expect(message).toContain('"Bash("');
    expect(message).toContain('not a valid regular expression');
    expect(message).toContain('escape');
  });

  test('rejects a matcher that is not a string, showing the value', () => {
    expect(validateMatcher(42)).toContain('got 42');
    expect(validateMatcher(['Bash'])).toContain('got ["Bash"]');
  });
});
