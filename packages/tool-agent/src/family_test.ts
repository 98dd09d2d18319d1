import { expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { agentTools } from './mod.ts';

test('the agent family passes the conformance check', async () => {
  const family = agentTools();
  expect(family.name).toBe('agent');
  expect(family.tools?.map((t) => t.name)).toEqual([
    'Agent',
    'SendMessage',
    'TaskOutput',
    'TaskStop',
    'TodoWrite',
    'TaskCreate',
    'TaskGet',
    'TaskUpdate',
    'TaskList',
    'AskUserQuestion',
    'EnterPlanMode',
    'ExitPlanMode',
    'EnterWorktree',
    'ExitWorktree',
    'Skill',
    'Sleep',
  ]);
  expect(await checkFamily(family)).toEqual([]);
});

test('an agent given in code without a prompt is a TypeError naming it', () => {
  expect(() => agentTools({ agents: { bad: { description: 'x', prompt: '' } } })).toThrow(
    /Agent "bad" needs a description and a prompt/,
  );
});
