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
      ['a b', true],
      ['c"d', true],
      ['e;f', true],
      ['$HOME', false],
      ['*.ts', false],
      ['{a,b}', false],
    ]);
  });

  test('collects redirections with their descriptors', () => {
    const a = analyzeCommand('ls 2>/dev/null > out.txt');
    expect(a.redirects.map((r) => [r.fd, r.operator, r.target?.value])).toEqual([
      [2, '>', '/dev/null'],
      [undefined, '>', 'out.txt'],
    ]);
  });

  test('fails closed on a syntax error, a long command and a slow parse', () => {
    expect(analyzeCommand('ls (').ok).toBe(false);
    expect(analyzeCommand('x'.repeat(30), { maxLength: 10 }).error).toContain('longer than 10');
    const slow = analyzeCommand(`${'echo "$(echo '.repeat(400)}${')"'.repeat(400)} #slow`, {
      timeoutMs: 0,
      cache: false,
    });
    expect(slow).toMatchObject({ ok: false, error: 'parsing took too long' });
    expect(isBashParserLoaded()).toBe(true);
  });

  test('fails closed on a here-document that bash ends at another line than the grammar', () => {
    // bash ends `<<E"O"F` at a line `EOF`: the `rm` line runs, though the grammar reads it as body.
    for (const command of [
      'cat <<E"O"F\nhi\nEOF\nrm -rf x\nE"O"F',
      "cat <<$'EOF'\nhi\nEOF\nrm x\n$'EOF'",
      'cat <<EOF\nhi\n EOF\nrm x\nEOF',
    ]) {
      const a = analyzeCommand(command);
      expect(a.ok, command).toBe(false);
      expect(a.error, command).toMatch(/here-document/);
    }
    expect(analyzeCommand("cat <<'EOF'\n$(x)\nEOF").ok).toBe(true);
    expect(analyzeCommand('cat <<-EOF | grep a\n\thi\n\tEOF\nls').commands.map((c) => c.name?.value)).toEqual([
      'cat',
      'grep',
      'ls',
    ]);
  });

  test('records a redirection written after a here-document start', () => {
    const a = analyzeCommand('cat <<EOF > out.txt\nhi\nEOF');
    expect(a.constructs.size).toBe(0);
    expect(a.redirects.map((r) => [r.operator, r.target?.value])).toEqual([
      ['>', 'out.txt'],
      ['<<', undefined],
    ]);
  });

  test('fails closed on a backslash-newline inside a word, which bash joins and the grammar splits', () => {
    // `find . -del\⏎ete` runs `find . -delete` in bash; the grammar sees `-del` and `ete`.
    expect(analyzeCommand('find . -del\\\nete').error).toContain('backslash-newline');
    expect(analyzeCommand('ls -la \\\n  src').ok).toBe(true);
  });

  test('reads ANSI-C strings as bash does, and marks what it cannot decode exactly', () => {
    const [cmd] = analyzeCommand("echo $'\\x72m' $'a\\tb' $'\\u00e9' $'x\\0y'").commands;
    expect(cmd!.args.map((w) => [w.value, w.literal])).toEqual([
      ['rm', true],
      ['a\tb', true],
      ['\\u00e9', false],
      ['x', false],
    ]);
  });
});
