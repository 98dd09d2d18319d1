import { describe, expect, test } from 'vitest';
import { comparePathBytes, dropRecords, inPathOrder } from './_rg_path_order.ts';

const line = (file: string, n: number, text: string, sep = ':') => `${file}\0${n}${sep}${text}\n`;

describe('inPathOrder', () => {
  test('puts per-file blocks in the order of a sorted walk, each block whole and in its own order', () => {
    const out = [line('b.ts', 3, 'x'), line('b.ts', 9, 'y'), line('a/z.ts', 1, 'p'), line('a-c.ts', 2, 'q')].join('');
    expect(inPathOrder(Buffer.from(out)).toString()).toBe(
      [line('a/z.ts', 1, 'p'), line('a-c.ts', 2, 'q'), line('b.ts', 3, 'x'), line('b.ts', 9, 'y')].join(''),
    );
  });

  test('drops the `--` separators of context output and keeps a file split by one in line order', () => {
    const out = [
      line('m.ts', 1, 'ctx', '-'),
      line('m.ts', 2, 'hit'),
      '--\n',
      line('m.ts', 8, 'hit'),
      '--\n',
      line('c.ts', 5, 'hit'),
    ].join('');
    expect(inPathOrder(Buffer.from(out)).toString()).toBe(
      [line('c.ts', 5, 'hit'), line('m.ts', 1, 'ctx', '-'), line('m.ts', 2, 'hit'), line('m.ts', 8, 'hit')].join(''),
    );
  });

  test('compares names as bytes (UTF-8), not as UTF-16 units, and an empty output stays empty', () => {
    // U+FF21 is 0xEF 0xBC 0xA1 in UTF-8, U+1F600 is 0xF0 …: bytes put the emoji last, UTF-16 units first.
    const out = [line('\u{1F600}.ts', 1, 'a'), line('\uFF21.ts', 1, 'b')].join('');
    expect(inPathOrder(Buffer.from(out)).toString()).toBe(
      [line('\uFF21.ts', 1, 'b'), line('\u{1F600}.ts', 1, 'a')].join(''),
    );
    expect(inPathOrder(Buffer.alloc(0)).length).toBe(0);
  });

  test('a line holding the path twice, or text that looks like a path, does not start a block', () => {
    const out = [line('b.ts', 1, 'a.ts\0 is named here'), line('a.ts', 2, 'b.ts')].join('');
    expect(inPathOrder(Buffer.from(out)).toString()).toBe(
      [line('a.ts', 2, 'b.ts'), line('b.ts', 1, 'a.ts\0 is named here')].join(''),
    );
  });
});

describe('comparePathBytes', () => {
  test('puts a folder before the names that only start with its name', () => {
    const names = ['a.b', 'a/b', 'a-c', 'a', 'a/a/z', 'ab'];
    const sorted = names
      .map((n) => Buffer.from(n))
      .sort(comparePathBytes)
      .map(String);
    expect(sorted).toEqual(['a', 'a/a/z', 'a/b', 'a-c', 'a.b', 'ab']);
  });
});

describe('dropRecords', () => {
  test('leaves out records and the separators among them, keeps a path part before the next one', () => {
    const lines = Buffer.from('a\u00001:x\n--\na\u00003:y\nodd\nname\u00001:z\n');
    expect(dropRecords(lines, 1).rest.toString()).toBe('--\na\u00003:y\nodd\nname\u00001:z\n');
    expect(dropRecords(lines, 2).rest.toString()).toBe('odd\nname\u00001:z\n');
    expect(dropRecords(lines, 5)).toEqual({ rest: Buffer.alloc(0), left: 2 });
  });
});

describe('dropRecords on sorted output (the lines the sorted run gave, left out)', () => {
  test('skips whole lines and gives a view of the rest, or nothing past the end', () => {
    expect(dropRecords(Buffer.from('a\u00001:x\nb\u00001:x\nc\u00001:x\n'), 2).rest.toString()).toBe('c\u00001:x\n');
    expect(dropRecords(Buffer.from('a\u00001:x\nb\u00001:x\n'), 5).rest.length).toBe(0);
    expect(dropRecords(Buffer.from('a\u00001:x\n'), 0).rest.toString()).toBe('a\u00001:x\n');
  });
});
