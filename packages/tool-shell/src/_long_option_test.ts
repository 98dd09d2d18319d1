import { expect, test } from 'vitest';
import { abbreviates, longOption } from './_long_option.ts';

test('a long option is itself, with =value, or cut to any prefix of three characters or more', () => {
  expect(abbreviates('--compress-program', '--compress-program')).toBe(true);
  expect(abbreviates('--comp=sh', '--compress-program')).toBe(true);
  expect(abbreviates('--c', '--compress-program')).toBe(true);
  expect(abbreviates('--', '--compress-program')).toBe(false);
  expect(abbreviates('-c', '--compress-program')).toBe(false);
  expect(abbreviates('--compress-programs', '--compress-program')).toBe(false);
  // A value may hold `=` and newlines: only the name counts.
  expect(abbreviates('--comp=a=b\nc', '--compress-program')).toBe(true);
});

test('longOption takes an abbreviation for the table option it begins, the most that one does first', () => {
  const table = { '--files0-from': 'names', '--field-separator': 'value', '--debug': 'flag' } as const;
  expect(longOption(table, '--files0')).toBe('names');
  // Shared by a value and a list of files: taken as the list.
  expect(longOption(table, '--fi')).toBe('names');
  expect(longOption(table, '--field')).toBe('value');
  // A flag takes no word, exact or cut short.
  expect(longOption(table, '--debug')).toBe('flag');
  expect(longOption(table, '--deb')).toBeUndefined();
  expect(longOption(table, '--other')).toBeUndefined();
});
