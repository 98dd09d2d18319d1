import { describe, expect, test } from 'vitest';
import { createMcpPermissionPrompt } from './mcp_permission_prompt.ts';

const options = (toolUseId: string) => ({
  signal: new AbortController().signal,
  suggestions: ['Touch'],
  toolUseId,
  reason: 'Touch writes files',
});

describe('createMcpPermissionPrompt', () => {
  test('routes an ask to the asker registered for its call, until it is removed', async () => {
    const prompt = createMcpPermissionPrompt();
    const seen: string[] = [];
    const remove = prompt.register('t1', async (name) => {
      seen.push(name);
      return { behavior: 'allow' };
    });
    expect(await prompt.canUseTool('Touch', {}, options('t1'))).toEqual({ behavior: 'allow' });
    expect(seen).toEqual(['Touch']);
    remove();
    const after = await prompt.canUseTool('Touch', {}, options('t1'));
    expect(after).toEqual({
      behavior: 'deny',
      message:
        'no one was available to approve it (Touch writes files). To allow such calls, add "Touch" to permissions.allow.',
    });
  });

  test('asks of calls that did not come over MCP go to the fallback', async () => {
    const prompt = createMcpPermissionPrompt({
      fallback: async () => ({ behavior: 'deny', message: 'fallback said no' }),
    });
    expect(await prompt.canUseTool('Touch', {}, options('local'))).toEqual({
      behavior: 'deny',
      message: 'fallback said no',
    });
  });
});
