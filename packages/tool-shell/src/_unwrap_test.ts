import { beforeAll, describe, expect, test } from 'vitest';
import { analyzeCommand, loadBashParser, type ShellWord } from './bash_parser.ts';
import { unwrapOnce } from './_unwrap.ts';

beforeAll(async () => {
  await loadBashParser();
});

function words(command: string): ShellWord[] {
  const cmd = analyzeCommand(command).commands[0]!;
  return [cmd.name!, ...cmd.args];
}

describe('unwrapOnce', () => {
  test("skips a wrapper's options, their separate or attached values, and leading values", () => {
    for (const [command, inner] of [
      ['timeout 5 rm x', 'rm x'],
      ['timeout -s KILL -k5 10 rm x', 'rm x'],
      ['timeout --signal=KILL 5 rm x', 'rm x'],
      ['nice -n 10 rm x', 'rm x'],
      ['nice -n10 rm x', 'rm x'],
      ['stdbuf -o L rm x', 'rm x'],
      ['/usr/bin/nohup -- rm x', 'rm x'],
      ['sudo -u root rm x', 'rm x'],
      // coreutils 9.7's env -a/--argv0 NAME: NAME is what the command is called, not the command.
      ['env -a x rm -rf .git', 'rm -rf .git'],
      ['env --argv0 x rm x', 'rm x'],
      ['ionice -c 3 -n 7 rm x', 'rm x'],
    ] as const) {
      expect(
        unwrapOnce(words(command))
          ?.inner.map((w) => w.value)
          .join(' '),
        command,
      ).toBe(inner);
    }
  });

  test("reports env assignments and the wrapper's name", () => {
    expect(unwrapOnce(words('env A=1 B=2 npm test'))).toMatchObject({ wrapper: 'env', assigned: true });
    expect(unwrapOnce(words('env -i npm test'))).toMatchObject({ wrapper: 'env', assigned: false });
  });

  test('gives nothing for a program that is not a wrapper, or a wrapper with no command', () => {
    expect(unwrapOnce(words('rm x'))).toBeUndefined();
    expect(unwrapOnce(words('timeout 5'))).toBeUndefined();
    expect(unwrapOnce(words('env'))).toBeUndefined();
  });
});
