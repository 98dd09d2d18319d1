import { describe, expect, test } from 'vitest';
import { programTurnedOff } from './_git_program_off.ts';

describe('programTurnedOff', () => {
  test('names the key a `-c KEY=` word turns off, section and key in lower case, the subsection as written', () => {
    expect(programTurnedOff('core.fsmonitor=')).toBe('core.fsmonitor');
    expect(programTurnedOff('Diff.My.Driver.TextConv=')).toBe('diff.My.Driver.textconv');
    expect(programTurnedOff('filter.lfs.process=')).toBe('filter.lfs.process');
  });

  test('a value, or a setting that names no program, is not turned off', () => {
    expect(programTurnedOff('core.fsmonitor=./x.sh')).toBeUndefined();
    expect(programTurnedOff('core.worktree=')).toBeUndefined();
    expect(programTurnedOff('diff.external')).toBeUndefined();
    expect(programTurnedOff('alias.st=')).toBeUndefined();
  });
});
