import { expect, test } from 'vitest';
import { deferredNoticeText, MAX_INSTRUCTIONS_CHARS } from './deferred_notice.ts';

test('deferredNoticeText groups by family or MCP server, folds names that share a prefix into braces and keeps lone names whole', () => {
  const text = deferredNoticeText([
    { name: 'mcp__github__create_issue', family: 'mcp', isMcp: true },
    { name: 'mcp__github__send_invite', family: 'mcp', isMcp: true },
    { name: 'mcp__slack__post', family: 'mcp', isMcp: true },
    { name: 'OpenWeather__current', family: 'apis', isMcp: false },
    { name: 'OpenWeather__forecast', family: 'apis', isMcp: false },
    { name: 'Lone__one', family: 'apis', isMcp: false },
    { name: 'NotebookEdit', family: 'fs', isMcp: false },
  ]);
  expect(text.split('\n').slice(3)).toEqual([
    '- MCP server github: mcp__github__{create_issue, send_invite}',
    '- MCP server slack: mcp__slack__post',
    '- apis: OpenWeather__{current, forecast}, Lone__one',
    '- fs: NotebookEdit',
  ]);
  expect(deferredNoticeText([])).toBe('');
  // Without a brace group the notice does not explain braces.
  expect(deferredNoticeText([{ name: 'Read', family: 'fs', isMcp: false }]).split('\n')).toHaveLength(3);
});

test("a prefix's instructions follow its group's line, indented and cut at MAX_INSTRUCTIONS_CHARS; a prefix with no deferred tool adds nothing", () => {
  const deferred = [
    { name: 'mcp__github__create_issue', family: 'mcp', isMcp: true },
    { name: 'mcp__slack__post', family: 'mcp', isMcp: true },
  ];
  const text = deferredNoticeText(
    deferred,
    new Map([
      ['mcp__github__', 'Ask before creating issues.\nUse labels.'],
      ['mcp__slack__', 'y'.repeat(MAX_INSTRUCTIONS_CHARS + 50)],
      ['mcp__gone__', 'never shown'],
    ]),
  );
  const lines = text.split('\n').slice(2);
  expect(lines.slice(0, 3)).toEqual([
    '- MCP server github: mcp__github__create_issue',
    '  Instructions: Ask before creating issues.',
    '  Use labels.',
  ]);
  expect(lines[3]).toBe('- MCP server slack: mcp__slack__post');
  expect(lines[4]).toBe(`  Instructions: ${'y'.repeat(MAX_INSTRUCTIONS_CHARS - 1)}…`);
  expect(text).not.toContain('never shown');
});
