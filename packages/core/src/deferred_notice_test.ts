import { expect, test } from 'vitest';
import { deferredNoticeText } from './deferred_notice.ts';

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
