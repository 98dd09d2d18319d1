import { describe, expect, test } from 'vitest';
import { parseHookStdout, validateHookOutput } from './hook_output.ts';

describe('validateHookOutput', () => {
  test('accepts Claude Code output and keeps keys it does not know', () => {
    const value = {
      decision: 'block',
      reason: 'no',
      custom: 1,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        updatedInput: { a: 1 },
        extra: true,
      },
    };
    expect(validateHookOutput(value)).toEqual({ output: value });
  });

  test('names a hookSpecificOutput field put at the top level, where it would do nothing', () => {
    expect(validateHookOutput({ additionalContext: 'lint passed' })).toEqual({
      error:
        'additionalContext belongs inside hookSpecificOutput, not at the top level; write {"hookSpecificOutput": {"additionalContext": …}}',
    });
    expect(validateHookOutput({ permissionDecision: 'deny', updatedInput: {} })).toMatchObject({
      error: expect.stringContaining('permissionDecision belongs inside hookSpecificOutput'),
    });
  });

  test('names a nested field with a bad enum value, listing the allowed values and the value given', () => {
    expect(validateHookOutput({ hookSpecificOutput: { permissionDecision: 'maybe' } })).toEqual({
      error: 'hookSpecificOutput.permissionDecision must be allow, deny or ask, got "maybe"',
    });
  });

  test('names each field of the wrong type', () => {
    const result = validateHookOutput({ continue: 'no', hookSpecificOutput: { updatedInput: [1, 2] } });
    expect(result).toEqual({
      error: 'continue must be a boolean, got "no"; hookSpecificOutput.updatedInput must be an object, got [1,2]',
    });
  });

  test('rejects a value that is not an object at all', () => {
    expect(validateHookOutput('block')).toEqual({ error: 'the output must be an object, got "block"' });
  });
});

describe('parseHookStdout', () => {
  test('plain text, empty output and JSON that is not an object are ignored', () => {
    expect(parseHookStdout('looks fine to me\n')).toEqual({});
    expect(parseHookStdout('')).toEqual({});
    expect(parseHookStdout('[1, 2]')).toEqual({});
  });

  test('parses a JSON object surrounded by whitespace', () => {
    expect(parseHookStdout('\n  {"decision":"block","reason":"r"}\n')).toEqual({
      output: { decision: 'block', reason: 'r' },
    });
  });

  test('reports stdout that starts with "{" but is not JSON', () => {
    const { error } = parseHookStdout('{decision: block}');
    expect(error).toMatch(/^stdout starts with "\{" but is not valid JSON \(.+\); print one JSON object/);
  });

  test('says the JSON was cut off when stdout hit the size cap', () => {
    expect(parseHookStdout('{"reason":"aaaa', true).error).toContain('cut off at the 1 MB output limit');
  });
});
