import { expect, test } from 'vitest';
import type { ToolshedErrorCode } from './error_codes.ts';
import { ToolshedError } from './errors.ts';

test('ToolshedError carries a code and is recognized across copies by its Symbol.for marker', () => {
  const error = new ToolshedError('settings_invalid', 'Bad settings', { cause: 'x' });
  expect(error.code).toBe('settings_invalid');
  expect(error.cause).toBe('x');
  expect(ToolshedError.isInstance(error)).toBe(true);
  // What another installed copy of core would create: a different class with the same marker.
  const foreign = Object.assign(new Error('other copy'), { [Symbol.for('toolshed.error')]: true, code: 'x' });
  expect(ToolshedError.isInstance(foreign)).toBe(true);
  expect(ToolshedError.isInstance(new Error('plain'))).toBe(false);
  expect(ToolshedError.isInstance(null)).toBe(false);
});

test('a code is one of the declared ones: a misspelt code does not compile, a switch on the union does', () => {
  // @ts-expect-error 'settings_invalidd' is not a ToolshedErrorCode
  const misspelt = new ToolshedError('settings_invalidd', 'x');
  expect(misspelt.code).toBe('settings_invalidd');
  const exitCode = (code: ToolshedErrorCode): number => {
    switch (code) {
      case 'settings_invalid':
      case 'permission_rule_invalid':
        return 2;
      default:
        return 1;
    }
  };
  expect(exitCode(new ToolshedError('settings_invalid', 'Bad settings').code)).toBe(2);
  expect(exitCode('aborted')).toBe(1);
});
