import { describe, expect, test } from 'vitest';
import { COMMANDS, commandUsage, notYetImplemented, overallUsage, PLANNED_COMMANDS, usageHint } from './help.ts';

describe('help', () => {
  test('overallUsage lists every command of the CLI contract and the common flags', () => {
    const text = overallUsage();
    for (const command of ['tools', 'call', 'check', 'run', 'demo', 'search', 'mcp serve', 'chat', 'bench', 'rules lint']) {
      expect(text).toContain(`toolshed ${command}`);
    }
    for (const flag of ['--cwd', '--only', '--mode', '--allow', '--deny', '--ask', '--settings', '--mcp-config', '--yes', '--json']) {
      expect(text).toContain(flag);
    }
    expect(text.match(/not yet implemented/g)).toHaveLength(PLANNED_COMMANDS.length);
  });

  test('commandUsage starts with the usage line of the command', () => {
    for (const command of COMMANDS) expect(commandUsage(command.name)).toMatch(new RegExp(`^Usage: toolshed ${command.name} `));
  });

  test('usageHint shows the command usage line and points at --help', () => {
    expect(usageHint('run')).toContain('Usage: toolshed run <file|-> [--json] [flags]');
    expect(usageHint('run')).toContain('toolshed run --help');
    expect(usageHint(undefined)).toContain('toolshed call <Tool> <json|->');
  });

  test('notYetImplemented names the command and what works today', () => {
    expect(notYetImplemented('chat')).toContain('"toolshed chat" is not yet implemented');
    expect(notYetImplemented('chat')).toContain('tools, call, check, run');
  });
});
