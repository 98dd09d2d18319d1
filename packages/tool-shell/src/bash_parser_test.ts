import { beforeAll, describe, expect, test } from 'vitest';
import { analyzeCommand, isBashParserLoaded, loadBashParser } from './bash_parser.ts';

beforeAll(async () => {
  await loadBashParser();
});

describe('analyzeCommand', () => {
  test('lists simple commands through lists, pipelines, subshells and substitutions', () => {
    const a = analyzeCommand('cd src && (grep -n "a b" *.ts | wc -l); echo $(date)');
    expect(a.ok).toBe(true);
    expect(a.commands.map((c) => c.name?.value)).toEqual(['cd', 'grep', 'wc', 'date', 'echo']);
    expect(a.commands.find((c) => c.name?.value === 'date')?.nested).toBe(true);
    expect(a.constructs.has('command_substitution')).toBe(true);
  });

  test('unquotes words and marks what expands at run time', () => {
    const [cmd] = analyzeCommand(`grep 'a b' "c\\"d" e\\;f $HOME *.ts {a,b}`).commands;
    expect(cmd!.args.map((w) => [w.value, w.literal])).toEqual([
      ['a b', true], ['c"d', true], ['e;f', true], ['$HOME', false], ['*.ts', false], ['{a,b}', false],
    ]);
  });

  test('collects redirections with their descriptors', () => {
    const a = analyzeCommand('ls 2>/dev/null > out.txt');
    expect(a.redirects.map((r) => [r.fd, r.operator, r.target?.value])).toEqual([[2, '>', '/dev/null'], [undefined, '>', 'out.txt']]);
  });

  test('fails closed on a syntax error, a long command and a slow parse', () => {
    expect(analyzeCommand('ls (').ok).toBe(false);
    expect(analyzeCommand('x'.repeat(30), { maxLength: 10 }).error).toContain('longer than 10');
    const slow = analyzeCommand(`${'echo "$(echo '.repeat(400)}${')"'.repeat(400)} #slow`, { timeoutMs: 0, cache: false });
    expect(slow).toMatchObject({ ok: false, error: 'parsing took too long' });
    expect(isBashParserLoaded()).toBe(true);
  });
});
