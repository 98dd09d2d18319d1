import { describe, expect, test } from 'vitest';
import { parseTranscript } from './transcript.ts';
import { UsageError } from './usage_error.ts';

const use = (id: string, name = 'Echo', input: unknown = {}) => ({ type: 'tool_use', id, name, input });

describe('parseTranscript', () => {
  test('parseTranscript keeps only the fields of each tool_use block', () => {
    expect(parseTranscript([[{ ...use('a'), cache_control: { type: 'ephemeral' } }], []], 'stdin')).toEqual([
      [use('a')],
      [],
    ]);
  });

  test('parseTranscript names the source and the turn that is not an array', () => {
    expect(() => parseTranscript([[use('a')], 'Echo'], 'file "t.json"')).toThrow(
      /^The transcript \(file "t.json"\) has a string as turn 2 \(index 1\)/,
    );
  });

  test('parseTranscript names the turn and block of a block that is not a tool_use', () => {
    expect(() => parseTranscript([[use('a'), { type: 'text', text: 'hi' }]], 'stdin')).toThrow(
      /type "text" at turn 1 \(index 0\), block 2 \(index 1\)/,
    );
    expect(() => parseTranscript([[{ type: 'tool_use', name: 'Echo', input: {} }]], 'stdin')).toThrow(
      /without a string "id"/,
    );
    expect(() => parseTranscript([[{ type: 'tool_use', id: 'a', input: {} }]], 'stdin')).toThrow(
      /without a string "name"/,
    );
    expect(() => parseTranscript([[{ type: 'tool_use', id: 'a', name: 'Echo' }]], 'stdin')).toThrow(/without "input"/);
  });

  test('parseTranscript rejects an id used twice, also within one turn', () => {
    expect(() => parseTranscript([[use('a'), use('a')]], 'stdin')).toThrow(
      /id "a" again at turn 1 \(index 0\), block 2/,
    );
  });

  test('parseTranscript throws usage errors for the run command', () => {
    try {
      parseTranscript({}, 'stdin');
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).command).toBe('run');
      return;
    }
    throw new Error('expected a throw');
  });
});
