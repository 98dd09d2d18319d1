import { expect, test } from 'vitest';
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
