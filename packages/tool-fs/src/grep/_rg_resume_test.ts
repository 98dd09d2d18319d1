import { describe, expect, test } from 'vitest';
import { markGiven, newMark, type Resumption, skipGiven } from './_rg_resume.ts';

const b = (text: string) => Buffer.from(text);
function resumeAfter(given: string, byPlace: boolean): Resumption {
  const mark = newMark();
  markGiven(mark, b(given));
  return { mark, byPlace, pending: [], lines: mark.lines, done: false };
}

describe('skipGiven', () => {
  test('by place: records at or before the last one given are left out, then everything is given', () => {
    const r = resumeAfter('a\u00001:x\nb\u00002:y\n', true);
    // In chunks: the first holds only what was given.
    expect(skipGiven(r, b('a\u00001:x\n')).toString()).toBe('');
    expect(skipGiven(r, b('b\u00002:y\nb\u000010:z\n')).toString()).toBe('b\u000010:z\n');
    expect(skipGiven(r, b('c\u00001:w\n')).toString()).toBe('c\u00001:w\n');
  });

  test('a separator given after the last record is not given again; one not given yet is', () => {
    const given = 'a\u00001:x\na\u00002-ctx\n';
    expect(skipGiven(resumeAfter(`${given}--\n`, true), b(`${given}--\na\u00009:y\n`)).toString()).toBe('a\u00009:y\n');
    expect(skipGiven(resumeAfter(given, true), b(`${given}--\na\u00009:y\n`)).toString()).toBe('--\na\u00009:y\n');
  });

  test('by place, a line that started to match above the mark does not bring the mark back', () => {
    const r = resumeAfter('f\u00001:hit\nf\u00005:hit\n', true);
    expect(skipGiven(r, b('f\u00001:hit\nf\u00003:new hit\nf\u00005:hit\nf\u00007:hit\n')).toString()).toBe(
      'f\u00007:hit\n',
    );
  });

  test('a replacing run with nothing past the mark gives nothing', () => {
    const r = resumeAfter('f\u00001:x\nf\u00005:y\n', true);
    expect(skipGiven(r, b('f\u00001:x\n--\n')).toString()).toBe('');
    expect(r.done).toBe(false);
  });

  test('without line numbers, by the number of lines', () => {
    const r = resumeAfter('a\u00003\nb\u00001\n', false);
    expect(skipGiven(r, b('a\u00003\n')).toString()).toBe('');
    expect(skipGiven(r, b('b\u00001\nc\u00002\n')).toString()).toBe('c\u00002\n');
    expect(r.done).toBe(true);
  });
});
