import { describe, expect, test } from 'vitest';
import { programSetting, traceInjection } from './_program_environment.ts';

const word = (value: string) => ({ text: value, value, literal: true });

describe('traceInjection', () => {
  test.each([
    "PS4='$(touch f)'; set -x; true",
    "set -eux; PS4='$(touch f)'; true",
    "export PS4='$(touch f)'; set -o xtrace; true",
    'read -r PS4 < f; set -e -x; true',
  ])('%s runs what PS4 holds', (command) => {
    expect(traceInjection(command)).toContain('bash expands `PS4`');
  });

  test.each(['set -x; echo "$PS4"; true', "PS4='+ '; set +x", 'set -euo pipefail; true'])('%s does not', (command) => {
    expect(traceInjection(command)).toBeUndefined();
  });
});

describe('programSetting', () => {
  test.each([
    ['sed', 'POSIXLY_CORRECT=1'],
    ['cat', 'LD_DEBUG_OUTPUT=x'],
    ['bash', 'HOME=.'],
  ])('%s with %s is a setting the command chose', (program, assignment) => {
    expect(programSetting(program, [word(assignment)])?.text).toBe(assignment);
  });

  test('LANG set for cat is not', () => {
    expect(programSetting('cat', [word('LANG=C')])).toBeUndefined();
  });
});
