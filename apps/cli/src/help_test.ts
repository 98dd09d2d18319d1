import { describe, expect, test } from 'vitest';
import { COMMANDS, commandUsage, notYetImplemented, overallUsage, PLANNED_COMMANDS, usageHint } from './help.ts';
import { RULES_USAGE } from './rules_command.ts';

describe('help', () => {
  test('overallUsage lists every command of the CLI contract and the common flags', () => {
    const text = overallUsage();
    for (const command of [
      'tools',
      'call',
      'check',
      'run',
      'search',
      'mcp <serve|list>',
      'rules lint',
      'demo',
      'chat',
      'bench',
    ]) {
      expect(text).toContain(`toolshed ${command}`);
    }
    for (const flag of [
      '--cwd',
      '--only',
      '--mode',
      '--allow',
      '--deny',
      '--ask',
      '--setting-sources',
      '--settings',
      '--mcp-config',
      '--yes',
      '--json',
      '--http',
      '--corpus',
    ]) {
      expect(text).toContain(flag);
    }
    expect(text.match(/not yet implemented/g) ?? []).toHaveLength(PLANNED_COMMANDS.length);
    expect(PLANNED_COMMANDS.map((c) => c.name)).toEqual([]);
    expect(text).toContain('Exit codes: 0 ok');
  });

  test('overallUsage shows an example for every built command', () => {
    const examples = overallUsage().split('Examples:\n')[1]!.split('\n\n')[0]!;
    for (const command of COMMANDS) expect(examples).toMatch(new RegExp(`^  toolshed ${command.name}( |$)`, 'm'));
  });

  test('commandUsage starts with the usage line of the command and shows its examples', () => {
    for (const command of COMMANDS) {
      const text = commandUsage(command.name);
      expect(text).toMatch(new RegExp(`^Usage: toolshed ${command.name} `));
      expect(command.examples.length).toBeGreaterThan(0);
      for (const example of command.examples) expect(text).toContain(example);
    }
  });

  test('commandUsage of rules is the rules usage, with its own flags', () => {
    expect(commandUsage('rules').startsWith(RULES_USAGE.trimEnd())).toBe(true);
    expect(commandUsage('rules')).not.toContain('--yes');
  });

  test('usageHint shows the command usage line and points at --help', () => {
    expect(usageHint('run')).toContain('Usage: toolshed run <file|-> [--json] [flags]');
    expect(usageHint('run')).toContain('toolshed run --help');
    expect(usageHint(undefined)).toContain('toolshed call <Tool> <json|->');
  });

  test('notYetImplemented names the command and what works today', () => {
    expect(notYetImplemented('trust')).toContain('"toolshed trust" is not yet implemented');
    expect(notYetImplemented('trust')).toContain('tools, call, check, run, search, mcp, chat, rules, bench');
  });

  test('the help of bench says what it runs, where the report goes and what --quick does', () => {
    const text = commandUsage('bench');
    expect(text).toContain('Usage: toolshed bench [suite...] [--quick]');
    expect(text).toContain('bench/results/report.md');
    expect(text).toContain('bench/results/quick/');
  });
});
