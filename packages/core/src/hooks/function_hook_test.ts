import { describe, expect, test } from 'vitest';
import { runFunctionHook } from './function_hook.ts';
import type { HookInput } from './types.ts';

const input: HookInput = {
  session_id: 'session-1',
  cwd: '/tmp',
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: { file_path: '/tmp/a.txt', content: 'hi' },
  tool_use_id: 'toolu_01',
};

const live = () => ({ signal: new AbortController().signal });

describe('runFunctionHook', () => {
  test('gives the function the input and turns its returned object into output with exit code 0', async () => {
    let seen: HookInput | undefined;
    const result = await runFunctionHook(
      function denyWrites(hookInput) {
        seen = hookInput;
        return { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'read-only session' } };
      },
      input,
      live(),
    );
    expect(seen).toBe(input);
    expect(result).toEqual({
      hook: 'denyWrites',
      exitCode: 0,
      stdout: '',
      stderr: '',
      timedOut: false,
      aborted: false,
      output: { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'read-only session' } },
    });
  });

  test('a function that returns nothing succeeds without output', async () => {
    const result = await runFunctionHook({ type: 'function', name: 'audit log', fn: async () => {} }, input, live());
    expect(result).toMatchObject({ hook: 'audit log', exitCode: 0 });
    expect(result.output).toBeUndefined();
  });

  test('names the bad field when the returned object does not fit the hook output shape', async () => {
    // @ts-expect-error: a JavaScript caller can return anything.
    const result = await runFunctionHook(() => ({ decision: 'deny' }), input, live());
    expect(result.exitCode).toBe(0);
    expect(result.output).toBeUndefined();
    expect(result.outputError).toBe('decision must be block or approve, got "deny"');
  });

  test('a synchronous or asynchronous throw becomes exit code 1 with the message in stderr', async () => {
    const sync = await runFunctionHook(
      function boom() {
        throw new Error('policy file is missing');
      },
      input,
      live(),
    );
    expect(sync).toMatchObject({ hook: 'boom', exitCode: 1, stderr: 'policy file is missing', timedOut: false });
    const rejected = await runFunctionHook(
      { type: 'function', fn: async () => Promise.reject('plain string') },
      input,
      live(),
    );
    expect(rejected).toMatchObject({ hook: 'fn', exitCode: 1, stderr: 'plain string' });
  });

  test('stops waiting at the timeout and aborts the signal the function was given', async () => {
    let hookSignal: AbortSignal | undefined;
    const result = await runFunctionHook(
      {
        type: 'function',
        timeout: 0.05,
        fn: (_input, { signal }) => {
          hookSignal = signal;
          return new Promise(() => {});
        },
      },
      input,
      live(),
    );
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null });
    expect(hookSignal?.aborted).toBe(true);
  });

  test('stops waiting when the caller aborts, and passes the abort on to the function', async () => {
    const controller = new AbortController();
    let hookSignal: AbortSignal | undefined;
    const running = runFunctionHook(
      (_input, { signal }) => {
        hookSignal = signal;
        controller.abort();
        return new Promise(() => {});
      },
      input,
      { signal: controller.signal },
    );
    const result = await running;
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
    expect(hookSignal?.aborted).toBe(true);
  });

  test('a signal that is already aborted does not call the function', async () => {
    const controller = new AbortController();
    controller.abort();
    let called = false;
    const result = await runFunctionHook(
      () => {
        called = true;
      },
      input,
      { signal: controller.signal },
    );
    expect(result.aborted).toBe(true);
    expect(called).toBe(false);
  });

  test('labels an anonymous function and reports a bad timeout', async () => {
    const anonymous = [() => {}][0] as () => void;
    expect((await runFunctionHook(anonymous, input, live())).hook).toBe('anonymous function hook');
    const bad = await runFunctionHook({ type: 'function', fn: () => {}, timeout: 0 }, input, live());
    expect(bad.startError).toBe('timeout must be a positive number of seconds, got 0');
  });
});
