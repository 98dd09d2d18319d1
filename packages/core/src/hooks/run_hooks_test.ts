import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runHooks } from './run_hooks.ts';
import type { CommandHook, HookEvent, HookInput, HookOutput, HooksConfig } from './types.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-run-hooks-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function input(event: HookEvent = 'PreToolUse', toolName = 'Bash'): HookInput {
  return {
    session_id: 'session-1',
    cwd: dir,
    hook_event_name: event,
    tool_name: toolName,
    tool_input: { command: 'rm -rf build' },
    tool_use_id: 'toolu_01',
    ...(event === 'PostToolUse' ? { tool_response: { stdout: '' } } : {}),
  };
}

function run(
  config: HooksConfig | undefined,
  event: HookEvent = 'PreToolUse',
  toolName = 'Bash',
  signal = new AbortController().signal,
) {
  return runHooks(config, input(event, toolName), { event, signal, cwd: dir, env: { HOOK_DIR: dir } });
}

/** A command hook that prints `output` as JSON and exits 0. */
function printing(output: HookOutput, extra: Partial<CommandHook> = {}): CommandHook {
  return { type: 'command', command: `printf '%s' '${JSON.stringify(output)}'`, ...extra };
}

function command(text: string, extra: Partial<CommandHook> = {}): CommandHook {
  return { type: 'command', command: text, ...extra };
}

describe('runHooks', () => {
  test('runs nothing without a config or without groups for the event', async () => {
    expect(await run(undefined)).toEqual({ additionalContext: [], errors: [], ran: 0 });
    expect(await run({ PostToolUse: [{ hooks: [command('exit 2')] }] })).toEqual({
      additionalContext: [],
      errors: [],
      ran: 0,
    });
  });

  test('runs the hooks of exactly the groups whose matcher matches the tool name', async () => {
    const ran: string[] = [];
    const mark = (name: string) => ({ type: 'function' as const, name, fn: () => void ran.push(name) });
    const config: HooksConfig = {
      PreToolUse: [
        { matcher: 'Bash', hooks: [mark('exact')] },
        { matcher: 'BashOutput', hooks: [mark('other exact')] },
        { matcher: 'Edit|Bash', hooks: [mark('list')] },
        { matcher: 'Edit|Write', hooks: [mark('other list')] },
        { matcher: 'B.*h', hooks: [mark('regex')] },
        { matcher: 'B', hooks: [mark('partial regex')] },
        { matcher: '*', hooks: [mark('star')] },
        { matcher: '', hooks: [mark('empty')] },
        { hooks: [mark('none')] },
        { matcher: 'Bash(', hooks: [mark('bad regex')] },
      ],
    };
    const outcome = await run(config);
    expect(ran.sort()).toEqual(['empty', 'exact', 'list', 'none', 'regex', 'star']);
    expect(outcome.ran).toBe(6);
  });

  test("reads permissionDecision deny, allow and ask from command hooks' JSON", async () => {
    for (const behavior of ['deny', 'allow', 'ask'] as const) {
      const outcome = await run({
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              printing({
                hookSpecificOutput: {
                  hookEventName: 'PreToolUse',
                  permissionDecision: behavior,
                  permissionDecisionReason: `said ${behavior}`,
                },
              }),
            ],
          },
        ],
      });
      expect(outcome.permissionDecision).toEqual({
        behavior,
        reason: `said ${behavior}`,
        hook: expect.stringContaining('printf'),
      });
      expect(outcome.blocked).toBeUndefined();
      expect(outcome.errors).toEqual([]);
    }
  });

  test('deny beats ask beats allow, whatever the config order', async () => {
    const allow = printing({ hookSpecificOutput: { permissionDecision: 'allow' } });
    const ask = printing({
      hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'check with the user' },
    });
    const deny = printing({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'never' } });
    expect((await run({ PreToolUse: [{ hooks: [allow, ask] }] })).permissionDecision).toMatchObject({
      behavior: 'ask',
      reason: 'check with the user',
    });
    expect((await run({ PreToolUse: [{ hooks: [allow, deny, ask] }] })).permissionDecision).toMatchObject({
      behavior: 'deny',
      reason: 'never',
    });
    expect((await run({ PreToolUse: [{ hooks: [allow] }] })).permissionDecision).toMatchObject({ behavior: 'allow' });
  });

  test('the older decision "approve" counts as allow', async () => {
    const outcome = await run({ PreToolUse: [{ hooks: [printing({ decision: 'approve', reason: 'safe command' })] }] });
    expect(outcome.permissionDecision).toMatchObject({ behavior: 'allow', reason: 'safe command' });
  });

  test('takes updatedInput from the last hook in config order that gives one', async () => {
    const outcome = await run({
      PreToolUse: [
        { hooks: [printing({ hookSpecificOutput: { updatedInput: { command: 'first' } } })] },
        {
          matcher: 'Bash',
          hooks: [printing({ hookSpecificOutput: { updatedInput: { command: 'second' } } }), command('echo not json')],
        },
      ],
    });
    expect(outcome.updatedInput).toEqual({ command: 'second' });
  });

  test('collects additionalContext from every hook in config order', async () => {
    const outcome = await run(
      {
        PostToolUse: [
          {
            hooks: [
              printing({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'from command' } }),
            ],
          },
          {
            hooks: [
              async () => ({ hookSpecificOutput: { additionalContext: 'from function' } }),
              printing({ systemMessage: 'lint ran' }),
            ],
          },
        ],
      },
      'PostToolUse',
    );
    expect(outcome.additionalContext).toEqual(['from command', 'from function']);
    expect(outcome.systemMessages).toEqual(['lint ran']);
  });

  test('ignores permissionDecision and updatedInput after the call', async () => {
    const outcome = await run(
      {
        PostToolUse: [
          { hooks: [printing({ hookSpecificOutput: { permissionDecision: 'deny', updatedInput: { command: 'x' } } })] },
        ],
      },
      'PostToolUse',
    );
    expect(outcome.permissionDecision).toBeUndefined();
    expect(outcome.updatedInput).toBeUndefined();
    expect(outcome.blocked).toBeUndefined();
  });

  test('exit code 2 blocks with stderr as the reason', async () => {
    const hook = command('echo "rm -rf is not allowed here" >&2; exit 2');
    const outcome = await run({ PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] });
    expect(outcome.blocked).toEqual({ reason: 'rm -rf is not allowed here', hook: hook.command });
    expect(outcome.errors).toEqual([]);
  });

  test('exit code 2 with nothing on stderr blocks with a reason that names the hook', async () => {
    const outcome = await run({ PreToolUse: [{ hooks: [command('exit 2')] }] });
    expect(outcome.blocked).toEqual({
      reason: 'Hook `exit 2` exited with code 2 without giving a reason on stderr',
      hook: 'exit 2',
    });
  });

  test('exit code 2 after the call flags the result with stderr as the reason', async () => {
    const outcome = await run(
      { PostToolUse: [{ hooks: [command('echo "tests now fail" >&2; exit 2')] }] },
      'PostToolUse',
    );
    expect(outcome.blocked?.reason).toBe('tests now fail');
  });

  test('decision "block" and continue: false block, before and after the call', async () => {
    const pre = await run({
      PreToolUse: [{ hooks: [printing({ decision: 'block', reason: 'outside the sandbox' })] }],
    });
    expect(pre.blocked?.reason).toBe('outside the sandbox');
    const stop = await run({ PreToolUse: [{ hooks: [printing({ continue: false, stopReason: 'session frozen' })] }] });
    expect(stop.blocked?.reason).toBe('session frozen');
    const post = await run(
      { PostToolUse: [{ hooks: [printing({ decision: 'block', reason: 'output has a secret' })] }] },
      'PostToolUse',
    );
    expect(post.blocked?.reason).toBe('output has a secret');
    const failure = await run(
      { PostToolUseFailure: [{ hooks: [() => ({ decision: 'block' as const })] }] },
      'PostToolUseFailure',
    );
    expect(failure.blocked?.reason).toBe('the hook returned decision: "block" without a reason');
  });

  test('a hook whose command does not exist (exit 127) is a non-blocking error that says so; fail-closed it blocks', async () => {
    const missing = await run({ PreToolUse: [{ hooks: [command('./hooks/not-there.sh')] }] });
    expect(missing.blocked).toBeUndefined();
    expect(missing.errors).toHaveLength(1);
    expect(missing.errors[0]!.message).toMatch(
      /^exited with code 127: .*not-there\.sh: No such file or directory \(the command was not found: check the hook's command, its path relative to the session's cwd, and PATH\)$/,
    );
    const strict = await run({
      PreToolUse: [{ hooks: [command('no-such-guard-command --check', { failClosed: true })] }],
    });
    expect(strict.blocked?.reason).toContain('exited with code 127');
    expect(strict.blocked?.reason).toContain('the command was not found');
  });

  test('before the call, a hook that prints more than 1 MB blocks: its decision could not be read', async () => {
    const hook = command(
      `node -e 'process.stdout.write(JSON.stringify({ hookSpecificOutput: { additionalContext: "x".repeat(1500000) } }))'`,
    );
    const outcome = await run({ PreToolUse: [{ hooks: [hook] }] });
    expect(outcome.blocked?.reason).toMatch(
      /^the hook printed more than the 1 MB output limit, so its decision could not be read/,
    );
    expect(outcome.additionalContext).toEqual([]);
  });

  test('after the call, a hook that prints more than 1 MB of JSON is a non-blocking error saying it was cut off', async () => {
    const hook = command(
      `node -e 'process.stdout.write(JSON.stringify({ hookSpecificOutput: { additionalContext: "x".repeat(1500000) } }))'`,
    );
    const outcome = await run({ PostToolUse: [{ hooks: [hook] }] }, 'PostToolUse');
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.additionalContext).toEqual([]);
    expect(outcome.errors[0]!.message).toBe(
      'gave invalid output: stdout starts with "{" but was cut off at the 1 MB output limit; print one JSON object, or plain text that does not start with "{"',
    );
  });

  test('a block reason on stderr is cut to 10 000 characters', async () => {
    const outcome = await run({
      PreToolUse: [{ hooks: [command(`node -e 'process.stderr.write("y".repeat(50000))'; exit 2`)] }],
    });
    expect(outcome.blocked!.reason.length).toBeLessThan(10_200);
    expect(outcome.blocked!.reason).toMatch(/cut at 10000 characters of 50000\]$/);
  });

  test('another non-zero exit is a non-blocking error with the exit code and the first line of stderr', async () => {
    const hook = command('echo "lint config missing" >&2; echo "second line" >&2; exit 1');
    const outcome = await run({ PreToolUse: [{ hooks: [hook] }] });
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.errors).toEqual([{ hook: hook.command, message: 'exited with code 1: lint config missing' }]);
    const quiet = await run({ PreToolUse: [{ hooks: [command('exit 7')] }] });
    expect(quiet.errors).toEqual([{ hook: 'exit 7', message: 'exited with code 7 and nothing on stderr' }]);
  });

  test('bad JSON output is a non-blocking error that names the field', async () => {
    const outcome = await run({
      PreToolUse: [{ hooks: [command(`echo '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'`)] }],
    });
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.permissionDecision).toBeUndefined();
    expect(outcome.errors).toEqual([
      {
        hook: expect.any(String),
        message: 'gave invalid output: hookSpecificOutput.permissionDecision must be allow, deny or ask, got "maybe"',
      },
    ]);
  });

  test('a failClosed hook blocks on a non-zero exit, bad output, a timeout and a failed start', async () => {
    const exit1 = await run({
      PreToolUse: [{ hooks: [command('echo "policy server down" >&2; exit 1', { failClosed: true })] }],
    });
    expect(exit1.blocked?.reason).toBe('the hook is fail-closed and it exited with code 1: policy server down');
    expect(exit1.errors).toHaveLength(1);

    const badJson = await run({ PreToolUse: [{ hooks: [command('echo "{oops"', { failClosed: true })] }] });
    expect(badJson.blocked?.reason).toMatch(
      /^the hook is fail-closed and it gave invalid output: stdout starts with "\{" but is not valid JSON/,
    );

    const slow = await run({ PreToolUse: [{ hooks: [command('sleep 20', { failClosed: true, timeout: 1 })] }] });
    expect(slow.blocked?.reason).toBe('the hook is fail-closed and it timed out after 1 s');
    expect(slow.errors).toEqual([{ hook: 'sleep 20', message: 'timed out after 1 s' }]);

    const thrower = await run({
      PreToolUse: [
        {
          hooks: [
            {
              type: 'function',
              name: 'policy',
              failClosed: true,
              fn: () => {
                throw new Error('no policy');
              },
            },
          ],
        },
      ],
    });
    expect(thrower.blocked).toEqual({ reason: 'the hook is fail-closed and it threw: no policy', hook: 'policy' });

    const nowhere = await runHooks({ PreToolUse: [{ hooks: [command('true', { failClosed: true })] }] }, input(), {
      event: 'PreToolUse',
      signal: new AbortController().signal,
      cwd: join(dir, 'gone'),
    });
    expect(nowhere.blocked?.reason).toContain('does not exist');
  });

  test('without failClosed, hooks that could not start are only errors', async () => {
    const outcome = await runHooks(
      {
        PreToolUse: [{ hooks: [command('exit 2'), command('true')] }],
      },
      input(),
      { event: 'PreToolUse', signal: new AbortController().signal, cwd: join(dir, 'gone') },
    );
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.errors.map((e) => e.message)).toEqual([
      `could not start: working directory "${join(dir, 'gone')}" does not exist`,
      `could not start: working directory "${join(dir, 'gone')}" does not exist`,
    ]);
  });

  test('the first blocking hook in config order gives the reason', async () => {
    const outcome = await run({
      PreToolUse: [
        { hooks: [command('echo "first" >&2; exit 2')] },
        { hooks: [printing({ decision: 'block', reason: 'second' })] },
      ],
    });
    expect(outcome.blocked?.reason).toBe('first');
    expect(outcome.ran).toBe(2);
  });

  test('matching hooks run in parallel: each waits for the other to start', async () => {
    // Sequential hooks would deadlock here: each appends only once it has seen the other's marker.
    const waitFor = (me: string, other: string) =>
      command(
        `touch "$HOOK_DIR/${me}.started"; until [ -e "$HOOK_DIR/${other}.started" ]; do sleep 0.01; done; echo ${me} >> "$HOOK_DIR/log"`,
        { timeout: 5 },
      );
    const outcome = await run({
      PreToolUse: [{ matcher: 'Bash', hooks: [waitFor('a', 'b')] }, { hooks: [waitFor('b', 'a')] }],
    });
    expect(outcome.errors).toEqual([]);
    expect(outcome.ran).toBe(2);
    expect((await readFile(join(dir, 'log'), 'utf8')).split('\n').sort()).toEqual(['', 'a', 'b']);
  });

  test('function hooks run in parallel with command hooks', async () => {
    const { access, writeFile } = await import('node:fs/promises');
    const fn = async () => {
      await writeFile(join(dir, 'fn.started'), '');
      for (;;) {
        try {
          await access(join(dir, 'cmd.started'));
          return { hookSpecificOutput: { additionalContext: 'function saw the command' } };
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    };
    const cmd = command('touch "$HOOK_DIR/cmd.started"; until [ -e "$HOOK_DIR/fn.started" ]; do sleep 0.01; done', {
      timeout: 5,
    });
    const outcome = await run({ PreToolUse: [{ hooks: [{ type: 'function', fn, timeout: 5 }, cmd] }] });
    expect(outcome.errors).toEqual([]);
    expect(outcome.additionalContext).toEqual(['function saw the command']);
  });

  test('an identical command in two groups runs once', async () => {
    const hook = command('echo x >> "$HOOK_DIR/count"');
    const outcome = await run({
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook] },
        { matcher: '*', hooks: [{ ...hook }] },
      ],
    });
    expect(outcome.ran).toBe(1);
    expect(await readFile(join(dir, 'count'), 'utf8')).toBe('x\n');
  });

  test('function hooks: a return is used, a throw is an error, a timeout is an error', async () => {
    const outcome = await run({
      PreToolUse: [
        {
          hooks: [
            function allowLs() {
              return { hookSpecificOutput: { permissionDecision: 'allow' as const } };
            },
            function crashes() {
              throw new Error('database locked\nat line 3');
            },
            { type: 'function', name: 'slow check', timeout: 0.1, fn: () => new Promise<void>(() => {}) },
          ],
        },
      ],
    });
    expect(outcome.permissionDecision).toEqual({ behavior: 'allow', hook: 'allowLs' });
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.errors).toEqual([
      { hook: 'crashes', message: 'threw: database locked' },
      { hook: 'slow check', message: 'timed out after 0.1 s' },
    ]);
  });

  test('aborting kills running hooks and reports them as errors', async () => {
    const controller = new AbortController();
    const running = run(
      { PreToolUse: [{ hooks: [command('touch "$HOOK_DIR/started"; sleep 20')] }] },
      'PreToolUse',
      'Bash',
      controller.signal,
    );
    const { access } = await import('node:fs/promises');
    for (let i = 0; i < 500; i++) {
      try {
        await access(join(dir, 'started'));
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    controller.abort();
    const outcome = await running;
    expect(outcome.errors).toEqual([
      { hook: expect.stringContaining('sleep 20'), message: 'was aborted before it finished' },
    ]);
  });

  test('a hook of an unknown type is reported, not thrown', async () => {
    const weird = { type: 'prompt', prompt: 'is this safe?' } as unknown as CommandHook;
    const outcome = await run({ PreToolUse: [{ hooks: [weird] }] });
    expect(outcome.errors).toEqual([
      { hook: 'hook of type "prompt"', message: 'unknown hook type "prompt"; use "command", "http" or "function"' },
    ]);
  });
});

describe('runHooks: Claude Code\'s "if", "async" and legacy names', () => {
  const allow = printing({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });

  test('a hook whose "if" does not hold does not run; one whose "if" holds runs whole', async () => {
    const config: HooksConfig = { PreToolUse: [{ matcher: 'Bash', hooks: [{ ...allow, if: 'Bash(npm test *)' }] }] };
    const no = await runHooks(config, input(), {
      signal: new AbortController().signal,
      cwd: dir,
      condition: async () => false,
    });
    expect(no.ran).toBe(0);
    expect(no.permissionDecision).toBeUndefined();
    const yes = await runHooks(config, input(), {
      signal: new AbortController().signal,
      cwd: dir,
      condition: async () => true,
    });
    expect(yes.permissionDecision?.behavior).toBe('allow');
  });

  test('an "if" that cannot be told: the hook runs and may block or deny, but its allow and rewrite are dropped', async () => {
    const rewrite = printing({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls' } },
    });
    const deny = printing({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
    const options = { signal: new AbortController().signal, cwd: dir };
    const loose = await runHooks({ PreToolUse: [{ hooks: [{ ...rewrite, if: 'Bash(x *)' }] }] }, input(), options);
    expect(loose.permissionDecision).toBeUndefined();
    expect(loose.updatedInput).toBeUndefined();
    expect(loose.errors[0]?.message).toContain(
      'its "if" condition "Bash(x *)" could not be evaluated for this Bash call',
    );
    const tight = await runHooks({ PreToolUse: [{ hooks: [{ ...deny, if: 'Bash(x *)' }] }] }, input(), options);
    expect(tight.permissionDecision?.behavior).toBe('deny');
    const blocked = await runHooks(
      { PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 2', if: 'Bash(x *)' }] }] },
      input(),
      options,
    );
    expect(blocked.blocked).toBeDefined();
  });

  test('the same command with two "if" conditions is two hooks', async () => {
    const log = join(dir, 'log');
    const hook: CommandHook = { type: 'command', command: `echo ran >> '${log}'` };
    await runHooks(
      {
        PreToolUse: [
          {
            hooks: [
              { ...hook, if: 'Bash(a)' },
              { ...hook, if: 'Bash(b)' },
              { ...hook, if: 'Bash(a)' },
            ],
          },
        ],
      },
      input(),
      { signal: new AbortController().signal, cwd: dir, condition: async () => true },
    );
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['ran', 'ran']);
  });

  test('an async hook is started and not waited for: its allow, block and rewrite count for nothing', async () => {
    const log = join(dir, 'async.log');
    const outcome = await runHooks(
      {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', async: true, command: `sleep 0.3; echo done >> '${log}'; exit 2` },
              { ...allow, async: true },
            ],
          },
        ],
      },
      input(),
      { signal: new AbortController().signal, cwd: dir },
    );
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.permissionDecision).toBeUndefined();
    expect(outcome.ran).toBe(2);
    await expect.poll(async () => readFile(log, 'utf8').catch(() => ''), { timeout: 5000 }).toBe('done\n');
  });

  test("a matcher may name a tool's alias: Task selects the Agent tool", async () => {
    const outcome = await runHooks(
      { PreToolUse: [{ matcher: 'Task', hooks: [{ type: 'command', command: 'exit 2' }] }] },
      input('PreToolUse', 'Agent'),
      { signal: new AbortController().signal, cwd: dir, aliases: ['Task'] },
    );
    expect(outcome.blocked).toBeDefined();
  });
});
