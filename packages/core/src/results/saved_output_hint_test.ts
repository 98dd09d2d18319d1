import { describe, expect, test } from 'vitest';
import { readMoreHint, savedOutputReaders } from './saved_output_hint.ts';

const file = '/s/tool-results/t1.txt';

describe('readMoreHint', () => {
  test('names Read and Grep when the session has both', () => {
    expect(readMoreHint(file, { read: true, grep: true, bash: true })).toBe(
      `To read more, call Read with file_path "${file}" and offset/limit (in lines) to page through it, or Grep with that path to find what you need.`,
    );
  });

  test('names only Read, or only Grep (with how to page with it), when that is all the session has', () => {
    const read = readMoreHint(file, { read: true, grep: false, bash: true });
    expect(read).toContain('call Read');
    expect(read).not.toMatch(/Grep|Bash/);
    const grep = readMoreHint(file, { read: false, grep: true, bash: false });
    expect(grep).toContain(`call Grep with path "${file}"`);
    expect(grep).toContain('offset and head_limit');
    expect(grep).toContain('no Read tool');
  });

  test('without Read and Grep, gives a Bash command with the path quoted for the shell', () => {
    const odd = "/s/tool-results/it's here.txt";
    const hint = readMoreHint(odd, { read: false, grep: false, bash: true });
    expect(hint).toContain(`sed -n '1,200p' '/s/tool-results/it'\\''s here.txt'`);
    expect(hint).toContain('no Read or Grep tool');
  });

  test('with none of them, says plainly that nothing can read the file', () => {
    expect(readMoreHint(file, { read: false, grep: false, bash: false })).toMatch(/no tool that can read that file/);
  });
});

describe('savedOutputReaders', () => {
  test('looks the tools up in the catalog; none given means Read and Grep', () => {
    const catalog = { get: (name: string) => (name === 'Bash' ? ({} as never) : undefined) };
    expect(savedOutputReaders(catalog)).toEqual({ read: false, grep: false, bash: true });
    expect(savedOutputReaders(undefined)).toEqual({ read: true, grep: true, bash: false });
  });
});
