import { expect, test } from 'vitest';
import { DEFAULT_FUNCTION_HOOK_TIMEOUT_SECONDS, hookTimeout } from './_hook_timeout.ts';

test("a command or http hook without a timeout gets Claude Code's ten minutes, so a slow guard is not cut off and passed over", () => {
  expect(hookTimeout(undefined)).toEqual({ ms: 600_000, seconds: 600 });
  expect(hookTimeout(undefined, { defaultSeconds: DEFAULT_FUNCTION_HOOK_TIMEOUT_SECONDS })).toEqual({
    ms: 60_000,
    seconds: 60,
  });
  expect(hookTimeout(2.5)).toEqual({ ms: 2500, seconds: 2.5 });
});

test('a timeout that is not a positive number is an error naming the value; a huge one stays a real timer', () => {
  expect(hookTimeout(0)).toEqual({ error: 'timeout must be a positive number of seconds, got 0' });
  expect(hookTimeout('30')).toEqual({ error: 'timeout must be a positive number of seconds, got "30"' });
  expect(hookTimeout(1e12)).toEqual({ ms: 2 ** 31 - 1, seconds: 1e12 });
});
